package tool

import (
	"sort"
	"testing"
)

// TestEveryToolClassified: every tool the server can register (every gate
// open) has a class in its catalog row, and the catalog names no tool that
// does not exist.
func TestEveryToolClassified(t *testing.T) {
	s := New(Config{AllowEvalMain: true, AllowEvalRenderer: true})
	defer s.Close()
	names := map[string]bool{}
	for _, n := range s.Names() {
		names[n] = true
		if e, ok := rowOf(n); !ok || e.class == 0 {
			t.Errorf("tool %s has no class in its catalog row (catalog.go): say whether it reads, waits, acts or changes the session", n)
		}
		d := s.tools().defs[n]
		if c := classOf(n); !d.session && c != classLifecycle && c != classWait {
			t.Errorf("tool %s needs no session but is classed %s; a tool without a session manages sessions (lifecycle) or only waits", n, c)
		}
	}
	var stale []string
	for _, e := range tools {
		if !names[e.name] {
			stale = append(stale, e.name)
		}
	}
	sort.Strings(stale)
	if len(stale) > 0 {
		t.Errorf("the catalog names tools that are not registered: %v", stale)
	}
}
