package main

import (
	"io"
	"path/filepath"
	"slices"
	"testing"
)

func TestFileFlags(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	f, _, ok := parseMCPFlags([]string{"--file-root", a, "--file-root", b, "--artifacts-dir", "rel/art", "--allow-any-file"}, io.Discard, io.Discard, noEnv)
	if !ok {
		t.Fatal("refused valid file flags")
	}
	wantArt, _ := filepath.Abs("rel/art")
	if !slices.Equal(f.files.roots, []string{a, b}) || f.files.artifacts != wantArt || !f.files.allowAny {
		t.Fatalf("parsed %+v", f.files)
	}
	f, _, ok = parseMCPFlags(nil, io.Discard, io.Discard, noEnv)
	if !ok || len(f.files.roots) != 0 || f.files.artifacts != "" || f.files.allowAny {
		t.Fatalf("defaults %+v", f.files)
	}
	for _, bad := range [][]string{{"--file-root", filepath.Join(a, "missing")}, {"--file-root", ""}} {
		if _, code, ok := parseMCPFlags(bad, io.Discard, io.Discard, noEnv); ok || code != 2 {
			t.Errorf("%v accepted", bad)
		}
	}
}
