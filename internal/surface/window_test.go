package surface

import "testing"

func TestInlineChildUnderItsLine(t *testing.T) {
	text := "- main\n  - iframe surface=s1-surface-3\n- footer\n"
	got := inlineChild(text, "s1-surface-3", "# surface s1-surface-3 frame http://x/\n- button \"OK\"\n")
	want := "- main\n  - iframe surface=s1-surface-3\n    # surface s1-surface-3 frame http://x/\n    - button \"OK\"\n- footer\n"
	if got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
	// s1-surface-3 is not s1-surface-30: a child no line names goes last.
	got = inlineChild("- iframe surface=s1-surface-30", "s1-surface-3", "# block\n")
	if got != "- iframe surface=s1-surface-30\n# block\n" {
		t.Fatalf("got %q", got)
	}
}
