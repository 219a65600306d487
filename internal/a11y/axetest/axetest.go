// Package axetest installs the pinned axe-core (internal/a11y/engine's
// lockfile, with npm ci) for tests and returns the path of axe.min.js.
package axetest

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
	"time"
)

var once struct {
	sync.Once
	path string
	err  error
	out  []byte
}

// Dir is the folder of the pinned package.json and package-lock.json.
func Dir() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "engine")
}

// Path returns the absolute path of the pinned axe.min.js, running npm ci
// in Dir once per test binary when node_modules is missing. Without npm
// the test is skipped, or fails with CI=true; under -short it is skipped.
func Path(t testing.TB) string {
	t.Helper()
	if testing.Short() {
		t.Skip("a11y: needs axe-core from npm; skipped under -short")
	}
	dir := Dir()
	p := filepath.Join(dir, "node_modules", "axe-core", "axe.min.js")
	once.Do(func() {
		once.path = p
		if _, err := os.Stat(p); err == nil {
			return
		}
		if _, err := exec.LookPath("npm"); err != nil {
			once.err = err
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, "npm", "ci", "--no-audit", "--no-fund")
		cmd.Dir = dir
		once.out, once.err = cmd.CombinedOutput()
	})
	if once.err != nil {
		if _, lerr := exec.LookPath("npm"); lerr != nil && os.Getenv("CI") != "true" {
			t.Skipf("a11y: npm is needed to install axe-core (CI is not true, so skipped): %v", lerr)
		}
		t.Fatalf("a11y: npm ci in %s: %v\n%s", dir, once.err, once.out)
	}
	return once.path
}
