package tool

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
)

func doctor(ctx context.Context, c *Call, _ *noArgs) (*DoctorReport, error) {
	r := c.Server.Doctor(ctx)
	return &r, nil
}

// Check is one preflight finding.
type Check struct {
	Name   string `json:"name"`
	OK     bool   `json:"ok"`
	Detail string `json:"detail"`
	Fix    string `json:"fix,omitempty"`
}

// DoctorReport is what electron_doctor and `understudy doctor` print.
type DoctorReport struct {
	OK     bool    `json:"healthy"`
	Checks []Check `json:"checks"`
}

// Doctor runs the non-mutating preflight.
func (s *Server) Doctor(ctx context.Context) DoctorReport {
	var checks []Check
	add := func(c Check) { checks = append(checks, c) }

	path := s.cfg.BrowserPath
	if path == "" {
		path = FindChromium()
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
	if s.cfg.AllowEvalMain || s.cfg.AllowEvalRenderer {
		evalDetail = "eval allowed: main=" + strconv.FormatBool(s.cfg.AllowEvalMain) + " renderer=" + strconv.FormatBool(s.cfg.AllowEvalRenderer)
	}
	add(Check{Name: "eval_policy", OK: true, Detail: evalDetail})
	if s.cfg.AppRoot != "" {
		st, err := os.Stat(s.cfg.AppRoot)
		ok := err == nil && st.IsDir() && filepath.IsAbs(s.cfg.AppRoot)
		c := Check{Name: "app_root", OK: ok, Detail: "launches confined to " + s.cfg.AppRoot}
		if !ok {
			c.Fix = "--app-root must be an existing absolute folder"
		}
		add(c)
	} else {
		add(Check{Name: "app_root", OK: true, Detail: "not set: any executable may be launched"})
	}
	add(s.fileRootsCheck(ctx))
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
	return DoctorReport{OK: ok, Checks: checks}
}

// fileRootsCheck says where tools may read and write files (the roots of
// internal/files, besides the MCP client's own) and fails when a root the
// operator named is not a folder. The artifacts folder may be missing: it
// is created on first use.
func (s *Server) fileRootsCheck(ctx context.Context) Check {
	if s.cfg.AllowAnyFile {
		return Check{Name: "file_roots", OK: true, Detail: "--allow-any-file: tools read and write files anywhere"}
	}
	var parts, bad []string
	for _, r := range s.files.List(ctx) {
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

// FindChromium returns a Chromium binary: $UNDERSTUDY_CHROMIUM, Debian's real
// binary, or one on PATH; "" when there is none.
func FindChromium() string {
	if p := os.Getenv("UNDERSTUDY_CHROMIUM"); p != "" {
		return p
	}
	if _, err := os.Stat("/usr/lib/chromium/chromium"); err == nil {
		return "/usr/lib/chromium/chromium"
	}
	for _, n := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(n); err == nil {
			return p
		}
	}
	return ""
}
