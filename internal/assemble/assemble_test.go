package assemble

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/understudy-dev/understudy/internal/leakcheck"
)

// Open starts a session's capture and listeners, which the session owns.
func TestMain(m *testing.M) { os.Exit(leakcheck.Main(m.Run)) }

func TestElectronPath(t *testing.T) {
	t.Setenv("ELECTRON_PATH", "")
	cwd := t.TempDir()
	if got := ElectronPath("", cwd); got != "" {
		t.Fatalf("no electron anywhere: got %q", got)
	}
	bin := filepath.Join(cwd, "node_modules", ".bin", "electron")
	if err := os.MkdirAll(filepath.Dir(bin), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bin, nil, 0o755); err != nil {
		t.Fatal(err)
	}
	if got := ElectronPath("", cwd); got != bin {
		t.Fatalf("under cwd: got %q, want %q", got, bin)
	}
	t.Setenv("ELECTRON_PATH", "/env/electron")
	if got := ElectronPath("", cwd); got != "/env/electron" {
		t.Fatalf("$ELECTRON_PATH first: got %q", got)
	}
	if got := ElectronPath("/given", cwd); got != "/given" {
		t.Fatalf("given first: got %q", got)
	}
}

func TestOnLoopback(t *testing.T) {
	for raw, want := range map[string]bool{
		"http://127.0.0.1:9222":                true,
		"ws://localhost:9222/devtools/browser": true,
		"http://grid.example:4444":             false,
		"not a url":                            true, // Resolve names the problem
	} {
		if got := OnLoopback(raw); got != want {
			t.Errorf("OnLoopback(%q) = %v, want %v", raw, got, want)
		}
	}
}

func TestWriteShimNeedsAnAbsoluteMainOrCwd(t *testing.T) {
	if _, _, err := writeShim("main.js", ""); err == nil {
		t.Fatal("a relative main without cwd was accepted")
	}
	path, done, err := writeShim("main.js", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer done()
	if _, err := os.Stat(path); err != nil {
		t.Fatal(err)
	}
}

func TestGridRefusesAHostNotAllowed(t *testing.T) {
	steps := 0
	_, err := Grid(t.Context(), Env{}, GridSpec{URL: "http://grid.example:4444", Steps: func(int) { steps++ }})
	if err == nil || steps != 0 {
		t.Fatalf("a grid off loopback without --allow-remote: %v (steps %d)", err, steps)
	}
}
