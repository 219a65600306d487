package tool

import (
	"testing"
)

// TestEveryToolClassified: every tool the server can register (every gate
// open) has a class in its definition, and a tool without a session
// manages sessions or only waits.
func TestEveryToolClassified(t *testing.T) {
	s := New(Config{AllowEvalMain: true, AllowEvalRenderer: true})
	defer s.Close()
	for _, n := range s.Names() {
		d := s.tools().defs[n]
		if d.Class == 0 {
			t.Errorf("tool %s has no class in its Def: say whether it reads, waits, acts or changes the session", n)
		}
		if c := d.Class; !d.Session && c != classLifecycle && c != classWait {
			t.Errorf("tool %s needs no session but is classed %s; a tool without a session manages sessions (lifecycle) or only waits", n, c)
		}
	}
}
