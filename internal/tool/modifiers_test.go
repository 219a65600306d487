package tool

import (
	"runtime"
	"testing"

	"github.com/understudy-dev/understudy/internal/act"
	"github.com/understudy-dev/understudy/internal/input"
)

// TestModifierMaskIsTheChordParser: the modifiers of clicks and drags take
// the names key chords take (the tool once rejected ControlOrMeta, opt and
// super that electron_press_key accepted).
func TestModifierMaskIsTheChordParser(t *testing.T) {
	for _, name := range []string{"ControlOrMeta", "opt", "super", "CmdOrCtrl", "Shift", "ctrl"} {
		got, err := act.ModifierMask([]string{name})
		if err != nil {
			t.Errorf("act.ModifierMask(%q): %v", name, err)
			continue
		}
		c, err := input.ParseChordFor(name+"+a", runtime.GOOS)
		if err != nil || c.Modifiers != got {
			t.Errorf("act.ModifierMask(%q) = %d; chord %+v %v", name, got, c, err)
		}
	}
	if _, err := act.ModifierMask([]string{"Hyper"}); err == nil {
		t.Error("Hyper was accepted")
	}
}
