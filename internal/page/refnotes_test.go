package page

import (
	"reflect"
	"testing"
)

// TestRefNotesKeepFirstSightAndLastState: a ref that several steps of one
// action saw change is listed once, with what the agent last saw (the
// first step's Was) and what it shows at the end (the last step's Now).
func TestRefNotesKeepFirstSightAndLastState(t *testing.T) {
	a, b, c := Identity{Role: "button", Name: "Play"}, Identity{Role: "button", Name: "Pause"}, Identity{Role: "button", Name: "Stop"}
	var n RefNotes
	n.Add([]RefChange{{Ref: 4, Was: a, Now: b}}, nil, []RefChange{{Ref: 9, Was: b, Now: c}, {Ref: 4, Was: b, Now: c}})
	want := []RefChange{{Ref: 4, Was: a, Now: c}, {Ref: 9, Was: b, Now: c}}
	if !reflect.DeepEqual(n.RefChanged, want) {
		t.Fatalf("RefChanged = %+v, want %+v", n.RefChanged, want)
	}
	n.Add()
	if len(n.RefChanged) != 2 {
		t.Errorf("adding nothing changed the notes: %+v", n.RefChanged)
	}
}
