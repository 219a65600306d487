package mcpwire

import "testing"

// TestWithoutPointersTo: a sentence or clause that points to a tool that
// is off goes; the first sentence and everything else stay.
func TestWithoutPointersTo(t *testing.T) {
	off := func(n string) bool { return n == "tool_off" || n == "tool_gone" }
	for _, c := range []struct{ in, want string }{
		{"Set text. Keys: tool_off; editors: tool_on.", "Set text. Editors: tool_on."},
		{"Set text. Keys: tool_off; editors: tool_gone.", "Set text."},
		{"Set text; verified. Several: tool_off. Retried.", "Set text; verified. Retried."},
		{"Kill it, when tool_off cannot. More.", "Kill it, when tool_off cannot. More."},
		{"Nothing to drop. See tool_on.", "Nothing to drop. See tool_on."},
		{"One sentence", "One sentence"},
	} {
		if got := WithoutPointersTo(c.in, off); got != c.want {
			t.Errorf("WithoutPointersTo(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestToolWords(t *testing.T) {
	got := ToolWords("Call electron_snapshot, then trace_stop; not Electron or snake-case or _x.")
	if len(got) != 2 || got[0] != "electron_snapshot" || got[1] != "trace_stop" {
		t.Errorf("ToolWords = %q, want [electron_snapshot trace_stop]", got)
	}
}
