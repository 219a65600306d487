// Package axetest installs the pinned axe-core (internal/a11y/engine's
// lockfile, with npm ci) for tests and returns the path of axe.min.js.
package axetest

import (
	"path/filepath"
	"runtime"
	"testing"

	"github.com/understudy-dev/understudy/internal/fixture/npmtest"
)

// engine is the pinned package (npm ci through npmtest).
var engine = &npmtest.Folder{Dir: Dir()}

// Dir is the folder of the pinned package.json and package-lock.json.
func Dir() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "engine")
}

// Path returns the absolute path of the pinned axe.min.js, running npm ci
// in Dir once per test binary when node_modules is missing or older than
// the lockfile. Without node and npm the test is skipped, or fails with
// CI=true; under -short it is skipped.
func Path(t testing.TB) string {
	t.Helper()
	engine.Require(t)
	return filepath.Join(Dir(), "node_modules", "axe-core", "axe.min.js")
}
