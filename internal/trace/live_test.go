package trace

import (
	"path/filepath"
	"strings"
	"testing"
)

func TestLiveOneRecordingAndItsCursors(t *testing.T) {
	var l Live
	if l.Recorder() != nil {
		t.Fatal("the zero Live records")
	}
	rec, busy, err := l.Start("client-a", func() (*Recorder, error) {
		return startIn(filepath.Join(t.TempDir(), "t"), Options{})
	}, func() map[string]int64 { return map[string]int64{"s1": 7} })
	if err != nil || busy || rec == nil {
		t.Fatalf("Start: %v %v %v", rec, busy, err)
	}
	if o, ok := l.Owner(); !ok || o != "client-a" || l.Recorder() != rec {
		t.Fatalf("owner %q %v", o, ok)
	}
	if l.For("client-a", false) != rec || l.For("client-b", false) != nil || l.For("client-b", true) != rec {
		t.Fatal("For: only the owner sees an unshared recording")
	}
	if _, busy, _ := l.Start("client-b", func() (*Recorder, error) { t.Fatal("opened a second recording"); return nil, nil }, nil); !busy {
		t.Fatal("a second Start was not busy")
	}
	if got := l.Cursor(Console, "s1"); got != 7 {
		t.Fatalf("console cursor from before the trace: %d", got)
	}
	l.Advance(Network, "s1", 3)
	if l.Cursor(Network, "s1") != 3 || l.Cursor(Console, "s2") != 0 {
		t.Fatal("cursors")
	}
	if got := l.Take(); got != rec || l.Recorder() != nil || l.For("client-a", true) != nil {
		t.Fatal("Take did not end the recording")
	}
	l.Advance(Console, "s1", 9) // after the end: nothing
	if l.Cursor(Console, "s1") != 0 {
		t.Fatal("a cursor outlived its recording")
	}
	if _, err := rec.Stop(); err != nil {
		t.Fatal(err)
	}
}

func TestClip(t *testing.T) {
	lines := []string{"a", "b", "c"}
	if got := Clip(lines, 5, "lines"); len(got) != 3 {
		t.Fatalf("%v", got)
	}
	got := Clip([]string{"a", "b", "c"}, 2, "requests")
	if len(got) != 3 || got[0] != "b" || !strings.Contains(got[2], "1 earlier requests left out") {
		t.Fatalf("%v", got)
	}
}
