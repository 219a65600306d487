package mainproc

import "testing"

func TestFindMenuItem(t *testing.T) {
	menu := []MenuItem{
		{Label: "File", Children: []MenuItem{{Label: "Open", ID: "open"}, {Role: "quit", Label: "Quit"}}},
		{Label: "Edit", Children: []MenuItem{{Label: "Copy", ID: "copy"}}},
	}
	if it := FindMenuItem(menu, []string{"File", "QUIT"}, ""); it == nil || it.Label != "Quit" {
		t.Fatalf("by path with a role: %+v", it)
	}
	if it := FindMenuItem(menu, nil, "copy"); it == nil || it.Label != "Copy" {
		t.Fatalf("by id: %+v", it)
	}
	if it := FindMenuItem(menu, []string{"File", "Save"}, ""); it != nil {
		t.Fatalf("found a missing item: %+v", it)
	}
}
