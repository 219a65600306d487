package doctor

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/understudy-dev/understudy/internal/browser"
	"github.com/understudy-dev/understudy/internal/files"
)

// Check is one preflight finding.
type Check struct {
	Name   string `json:"name"`
	OK     bool   `json:"ok"`
	Detail string `json:"detail"`
	Fix    string `json:"fix,omitempty"`
}

// Report is what the doctor tool and `understudy doctor` print.
type Report struct {
	OK     bool    `json:"healthy"`
	Checks []Check `json:"checks"`
}

// Config is the operator's configuration the preflight judges.
type Config struct {
	BrowserPath                      string // --browser / $UNDERSTUDY_CHROMIUM; "" finds one
	AllowEvalMain, AllowEvalRenderer bool
	AppRoot                          string
	AllowAnyFile                     bool
	Files                            *files.Roots
}

// Run runs the non-mutating preflight.
func Run(ctx context.Context, cfg Config) Report {
	var checks []Check
	add := func(c Check) { checks = append(checks, c) }

	path := cfg.BrowserPath
	if path == "" {
		path = browser.FindChromium()
	}
	if path == "" {
		add(Check{Name: "browser", OK: false, Detail: "no Chromium found (looked for $UNDERSTUDY_CHROMIUM, /usr/lib/chromium/chromium, chromium, google-chrome on PATH)",
			Fix: "apt-get install -y chromium, or pass executablePath of your app to electron_launch"})
	} else {
		vctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		out, err := exec.CommandContext(vctx, path, "--version").Output()
		cancel()
		if err != nil {
			add(Check{Name: "browser", OK: false, Detail: path + ": " + err.Error(), Fix: "check that the binary runs"})
		} else {
			add(Check{Name: "browser", OK: true, Detail: path + ": " + strings.TrimSpace(string(out))})
		}
	}
	if d, w := os.Getenv("DISPLAY"), os.Getenv("WAYLAND_DISPLAY"); d != "" || w != "" || runtime.GOOS != "linux" {
		add(Check{Name: "display", OK: true, Detail: "a display is set (" + d + w + "); headful launches can show windows"})
	} else {
		add(Check{Name: "display", OK: true, Detail: "no DISPLAY: Chromium runs headless (the default); Electron apps need Xvfb (xvfb-run) to start"})
	}
	evalDetail := "eval tools are absent (start with --allow-eval, --allow-eval=main or --allow-eval=renderer to expose them)"
	if cfg.AllowEvalMain || cfg.AllowEvalRenderer {
		evalDetail = "eval allowed: main=" + strconv.FormatBool(cfg.AllowEvalMain) + " renderer=" + strconv.FormatBool(cfg.AllowEvalRenderer)
	}
	add(Check{Name: "eval_policy", OK: true, Detail: evalDetail})
	if cfg.AppRoot != "" {
		st, err := os.Stat(cfg.AppRoot)
		ok := err == nil && st.IsDir() && filepath.IsAbs(cfg.AppRoot)
		c := Check{Name: "app_root", OK: ok, Detail: "launches confined to " + cfg.AppRoot}
		if !ok {
			c.Fix = "--app-root must be an existing absolute folder"
		}
		add(c)
	} else {
		add(Check{Name: "app_root", OK: true, Detail: "not set: any executable may be launched"})
	}
	add(fileRootsCheck(ctx, cfg))
	tmp := os.TempDir()
	if free, ok := browser.FreeDiskMiB(tmp); ok {
		add(Check{Name: "temp_space", OK: free > 200, Detail: tmp + ": " + strconv.FormatUint(free, 10) + " MiB free (each Chromium launch makes a temp profile)",
			Fix: map[bool]string{true: "", false: "free space in " + tmp}[free > 200]})
	}
	if os.Geteuid() == 0 {
		add(Check{Name: "user", OK: true, Detail: "running as root: Chromium gets --no-sandbox"})
	}
	if _, err := exec.LookPath("node"); err == nil {
		add(Check{Name: "node", OK: true, Detail: "node is on PATH (only needed for Electron dev launches and relay tests)"})
	} else {
		add(Check{Name: "node", OK: true, Detail: "node not on PATH: fine unless you dev-launch Electron"})
	}
	ok := true
	for _, c := range checks {
		ok = ok && c.OK
	}
	return Report{OK: ok, Checks: checks}
}

// fileRootsCheck says where tools may read and write files (the roots of
// internal/files, besides the MCP client's own) and fails when a root the
// operator named is not a folder. The artifacts folder may be missing: it
// is created on first use.
func fileRootsCheck(ctx context.Context, cfg Config) Check {
	if cfg.AllowAnyFile {
		return Check{Name: "file_roots", OK: true, Detail: "--allow-any-file: tools read and write files anywhere"}
	}
	var parts, bad []string
	for _, r := range cfg.Files.List(ctx) {
		st, err := os.Stat(r.Path)
		switch {
		case err == nil && st.IsDir():
			parts = append(parts, r.Source+" "+r.Path)
		case r.Source == "artifacts" && errors.Is(err, fs.ErrNotExist):
			parts = append(parts, r.Source+" "+r.Path+" (created on first use)")
		default:
			bad = append(bad, r.Source+" "+r.Path)
		}
	}
	c := Check{Name: "file_roots", OK: len(bad) == 0,
		Detail: "files are read and written only under the MCP client's roots and: " + strings.Join(parts, "; ")}
	if len(bad) > 0 {
		c.Detail += "; not a folder: " + strings.Join(bad, "; ")
		c.Fix = "create the folder, or correct --file-root, --artifacts-dir or --app-root"
	}
	return c
}
