package main

import (
	"io"
	"slices"
	"testing"
)

// TestToolSelectionFlags: --tool-profile defaults to full, --with and
// --plugin add up (comma-separated and repeated), and an unknown profile or
// group is refused before the server starts.
func TestToolSelectionFlags(t *testing.T) {
	f, _, ok := parseMCPFlags(nil, io.Discard, io.Discard, noEnv)
	if !ok || f.profile != "full" || len(f.with) != 0 {
		t.Fatalf("defaults: %+v", f)
	}
	f, _, ok = parseMCPFlags([]string{"--tool-profile", "essential", "--with", "network,clock", "--plugin", "ipc"}, io.Discard, io.Discard, noEnv)
	if !ok || f.profile != "essential" || !slices.Equal(f.with, []string{"network", "clock", "ipc"}) {
		t.Fatalf("parsed: %+v", f)
	}
	for _, bad := range [][]string{{"--tool-profile", "tiny"}, {"--with", "telepathy"}, {"--plugin", "network,nope"}} {
		if _, code, ok := parseMCPFlags(bad, io.Discard, io.Discard, noEnv); ok || code != 2 {
			t.Errorf("%v accepted", bad)
		}
	}
}
