package oracle

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
	"time"
)

// Dir is this folder (where package.json is).
func Dir() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Dir(file)
}

var oracleSetup struct {
	sync.Once
	err error
	out []byte
}

// Require installs the oracle's packages (npm ci, once per test
// binary, when node_modules is missing or older than the lockfile). Under
// -short the test is skipped; without node and npm it fails with CI=true.
func Require(tb testing.TB) string {
	tb.Helper()
	if testing.Short() {
		tb.Skip("production oracle: needs node and npm; skipped under -short")
	}
	for _, tool := range []string{"node", "npm"} {
		if _, err := exec.LookPath(tool); err != nil {
			if os.Getenv("CI") == "true" {
				tb.Fatalf("production oracle: %s is needed (CI=true: a missing tool fails): %v", tool, err)
			}
			tb.Skipf("production oracle: %s is needed: %v", tool, err)
		}
	}
	dir := Dir()
	oracleSetup.Do(func() {
		if !stale(filepath.Join(dir, "node_modules", ".package-lock.json"), filepath.Join(dir, "package-lock.json")) {
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, "npm", "ci", "--no-audit", "--no-fund")
		cmd.Dir = dir
		oracleSetup.out, oracleSetup.err = cmd.CombinedOutput()
	})
	if oracleSetup.err != nil {
		tb.Fatalf("production oracle: npm ci in %s: %v\n%s", dir, oracleSetup.err, oracleSetup.out)
	}
	return dir
}

func stale(target, source string) bool {
	t, err := os.Stat(target)
	if err != nil {
		return true
	}
	s, err := os.Stat(source)
	return err == nil && t.ModTime().Before(s.ModTime())
}

// Spec is what build.mjs builds: files of the app (content, {"random": n}
// or {"repeat": "x", "size": n}), an unpack glob, and fuses to flip on a
// stand-in binary carrying the sentinel (no binary when Fuses is nil).
type Spec struct {
	Files        map[string]any  `json:"files"`
	Unpack       string          `json:"unpack,omitempty"`
	Fuses        map[string]bool `json:"fuses,omitempty"`
	SentinelAt   int             `json:"sentinelAt,omitempty"`
	BinarySize   int             `json:"binarySize,omitempty"`
	BinaryTokens string          `json:"binaryTokens,omitempty"`
}

// Out is what the npm packages read back: asar.listPackage, the raw
// header string, and @electron/fuses getCurrentFuseWire by fuse name.
type Out struct {
	Files  []string          `json:"files"`
	Header string            `json:"header"`
	Fuses  map[string]string `json:"fuses"`
}

// Build writes out/app (app binary + resources/app.asar[.unpacked]) with
// the oracle and returns the app folder and what the oracle read back.
func Build(tb testing.TB, sp Spec) (string, *Out) {
	tb.Helper()
	dir := Require(tb)
	out := tb.TempDir()
	js, err := json.Marshal(sp)
	if err != nil {
		tb.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "node", filepath.Join(dir, "build.mjs"), out, string(js))
	cmd.Dir = dir
	cmd.Stderr = os.Stderr
	b, err := cmd.Output()
	if err != nil {
		tb.Fatalf("build.mjs: %v", err)
	}
	var o Out
	if err := json.Unmarshal(b, &o); err != nil {
		tb.Fatalf("build.mjs output: %v\n%s", err, b)
	}
	return filepath.Join(out, "app"), &o
}
