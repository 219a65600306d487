package browser

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// IsChromium reports whether path names a Chromium-family browser rather
// than an Electron app, by its base name: chromium*, chrome, chrome-*,
// google-chrome*, headless_shell, chrome-headless-shell, msedge,
// microsoft-edge*, brave*, and the macOS bundle names ("Chromium",
// "Google Chrome*", "Microsoft Edge*"); a trailing .exe is ignored. When
// the name does not say, symlinks are followed (x-www-browser →
// /etc/alternatives → /usr/bin/chromium) and the target's name is asked.
// Debian's /usr/bin/chromium is a shell wrapper that execs
// /usr/lib/chromium/chromium; both names answer true.
func IsChromium(path string) bool {
	if path == "" {
		return false
	}
	if chromiumName(filepath.Base(path)) {
		return true
	}
	real, err := filepath.EvalSymlinks(path)
	if err != nil || real == path {
		return false
	}
	return chromiumName(filepath.Base(real))
}

func chromiumName(base string) bool {
	n := strings.ToLower(strings.TrimSuffix(strings.TrimSuffix(base, ".exe"), ".EXE"))
	switch n {
	case "chrome", "headless_shell", "chrome-headless-shell", "msedge", "google chrome", "microsoft edge":
		return true
	}
	for _, prefix := range []string{"chromium", "chrome-", "google-chrome", "google chrome ", "microsoft-edge", "microsoft edge ", "brave"} {
		if strings.HasPrefix(n, prefix) {
			return true
		}
	}
	return false
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
