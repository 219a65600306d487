package page

import (
	"context"
	"reflect"
	"strconv"
	"strings"
	"time"
)

// SameText compares what a field holds with what was meant, forgiving an
// editing host's trailing newline and non-breaking spaces.
func SameText(got, want string) bool {
	norm := func(s string) string {
		s = strings.ReplaceAll(s, "\u00a0", " ")
		s = strings.ReplaceAll(s, "\r\n", "\n")
		return strings.TrimRight(s, "\n")
	}
	return norm(got) == norm(want)
}

// SameValue compares an input's value (of input type kind) with the one
// asked for: numbers as numbers, colors without case.
func SameValue(kind, got, want string) bool {
	switch kind {
	case "range", "number":
		g, err1 := strconv.ParseFloat(got, 64)
		w, err2 := strconv.ParseFloat(strings.TrimSpace(want), 64)
		return err1 == nil && err2 == nil && g == w
	case "color":
		return strings.EqualFold(got, want)
	}
	return got == want
}

// SameSet reports whether a and b hold the same strings, each as often,
// in any order.
func SameSet(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	seen := map[string]int{}
	for _, s := range a {
		seen[s]++
	}
	for _, s := range b {
		if seen[s] == 0 {
			return false
		}
		seen[s]--
	}
	return true
}

// CollapseSpace reduces every run of white space to one space.
func CollapseSpace(s string) string {
	return strings.Join(strings.Fields(strings.ReplaceAll(s, "\u00a0", " ")), " ")
}

// ExpectedWhole is what a fully read element should hold after text was
// inserted: text alone when it replaced everything.
func ExpectedWhole(before *EditorText, text string, replace bool) string {
	if replace || before.Whole == nil {
		return text
	}
	return *before.Whole + text
}

// InsertPathName names the way text went into an editor (the path of
// its insertion) for a message.
func InsertPathName(path string) string {
	switch path {
	case "paste":
		return "paste"
	case "insertText":
		return "text insertion"
	case "key":
		return "Backspace"
	}
	return "caret move"
}

// NumStr writes a number as short as it reads: 75, 0.5.
func NumStr(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

// NumPtrStr is NumStr of *v, "?" when v is nil.
func NumPtrStr(v *float64) string {
	if v == nil {
		return "?"
	}
	return NumStr(*v)
}

// EditorSettle is how long a difference between an editor's drawn text
// and the expected one may last before it counts.
const EditorSettle = 1500 * time.Millisecond

// SettledEditor reads an editor until two reads (each after two animation
// frames) agree, for at most EditorSettle.
func (s *Store) SettledEditor(ctx context.Context, f Frame, loc Locator) (*EditorState, error) {
	prev, err := s.EditorState(ctx, f, loc)
	if err != nil {
		return nil, err
	}
	for deadline := time.Now().Add(EditorSettle); time.Now().Before(deadline); {
		next, err := s.EditorState(ctx, f, loc)
		if err != nil {
			return nil, err
		}
		if reflect.DeepEqual(prev.Text, next.Text) {
			return next, nil
		}
		prev = next
	}
	return prev, nil
}
