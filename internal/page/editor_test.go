package page

import (
	"strings"
	"testing"
)

func TestVerifyInsertion(t *testing.T) {
	str := func(s string) *string { return &s }
	idx := func(i int) *int { return &i }
	window := func(lines []string, start, end bool, caret *int) *EditorText {
		return &EditorText{Readable: true, Lines: lines, AtStart: start, AtEnd: end, Contiguous: true, Caret: caret}
	}
	long := make([]string, 60)
	for i := range long {
		long[i] = "l" + itoa(i+1)
	}
	text60 := strings.Join(long, "\n")
	for _, tc := range []struct {
		name          string
		before, after *EditorText
		text          string
		replace       bool
		verified      string
		mismatch      string
	}{
		{"whole field equal", &EditorText{Whole: str("ab")}, &EditorText{Whole: str("abcd")}, "cd", false, "exact", ""},
		{"whole field differs", &EditorText{Whole: str("ab")}, &EditorText{Whole: str("abCd")}, "cd", false, "", "line 1 reads"},
		{"whole window replaced", window([]string{"x"}, true, true, nil), window([]string{"a {", "  b", "}"}, true, true, nil), "a {\n  b\n}", true, "exact", ""},
		{"re-indented", window([]string{""}, true, true, nil), window([]string{"a {", "    b", "}"}, true, true, nil), "a {\n  b\n}", true, "", "line 2 reads"},
		{"extra line", window([]string{""}, true, true, nil), window([]string{"a", "}"}, true, true, nil), "a", true, "", "should not be there"},
		{"appended whole", window([]string{"f() {", "}", ""}, true, true, nil), window([]string{"f() {", "}", "x", "y"}, true, true, nil), "x\ny", false, "exact", ""},
		{"60 lines, tail drawn at the caret", window([]string{""}, true, true, idx(0)), window(long[40:], false, false, idx(19)), text60, true, "partial", ""},
		{"60 lines, tail differs", window([]string{""}, true, true, idx(0)), window(append(append([]string{}, long[40:59]...), "l60}"), false, false, idx(19)), text60, true, "", "line 1 from the end"},
		{"lines after the caret", window([]string{""}, true, true, idx(0)), window([]string{"l59", "l60", "}"}, false, false, idx(1)), text60, true, "", "follow the end"},
		{"append to a long document, end in view", window([]string{"a", "b"}, false, false, idx(1)), window([]string{"a", "bx", "y"}, false, false, idx(2)), "x\ny", false, "partial", ""},
		{"end not in view", window([]string{""}, true, true, nil), window([]string{"l1", "l2"}, true, false, nil), text60, true, "", "does not show the end"},
		{"terminal", &EditorText{}, &EditorText{}, "x", false, "", "cannot be read"},
	} {
		v := VerifyInsertion(tc.before, tc.after, tc.text, tc.replace)
		if v.Verified != tc.verified || (tc.mismatch == "") != (v.Mismatch == "") || !strings.Contains(v.Mismatch, tc.mismatch) {
			t.Errorf("%s: got %+v, want verified %q mismatch %q", tc.name, v, tc.verified, tc.mismatch)
		}
	}
}

func TestSameLine(t *testing.T) {
	for _, tc := range []struct {
		got, want string
		same      bool
	}{
		{"a", "a", true},
		{"    x", "\tx", true},
		{"ab  x", "ab\tx", true},
		{"  x", "\tx", true},
		{"   x", "\tx", false},
		{"a b", "a  b", false},
	} {
		if sameLine(tc.got, tc.want) != tc.same {
			t.Errorf("sameLine(%q, %q) != %v", tc.got, tc.want, tc.same)
		}
	}
}
