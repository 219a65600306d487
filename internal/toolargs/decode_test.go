package toolargs

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/understudy-dev/understudy/internal/errs"
)

// sampleArgs has the shapes of a tool's input: embedded pieces, an object
// parameter, names that differ only by a unit or a separator.
type sampleArgs struct {
	sampleCommon
	Ref         int    `json:"ref,omitempty"`
	Selector    string `json:"selector,omitempty"`
	TimeoutMs   int    `json:"timeoutMs,omitempty"`
	ClickCount  int    `json:"clickCount,omitempty"`
	WindowTitle string `json:"windowTitle,omitempty"`
	Clip        *struct {
		X      float64 `json:"x"`
		Width  float64 `json:"width"`
		Height float64 `json:"height"`
	} `json:"clip,omitempty"`
	Position *struct {
		X float64 `json:"x"`
		Y float64 `json:"y"`
	} `json:"position,omitempty"`
}

type sampleCommon struct {
	SessionID string `json:"sessionId,omitempty"`
	SurfaceID string `json:"surfaceId,omitempty"`
}

// TestDecodeArgsNamesUnknownField pins the one text match left in decoding:
// encoding/json reports an unknown field only as text, and decodeArgs must
// still name the field (and name the field of a wrong type, by type).
func TestDecodeArgsNamesUnknownField(t *testing.T) {
	var in struct {
		Selector string `json:"selector"`
		N        int    `json:"n"`
	}
	for _, c := range []struct{ raw, field string }{
		{`{"selector":"a","bogus":1}`, "bogus"},
		{`{"n":"x"}`, "n"},
		{`[1]`, "arguments"},
		{`{"n":`, "arguments"},
	} {
		err := Decode(json.RawMessage(c.raw), &in)
		e := errs.As(err)
		if e == nil || e.Code != errs.BadArgument || e.Details["field"] != c.field {
			t.Errorf("%s: %v, want BAD_ARGUMENT naming %q", c.raw, err, c.field)
		}
	}
}

// TestClosestParam: the matcher alone, on the names issue 26 gives.
func TestClosestParam(t *testing.T) {
	cands := []string{"sessionId", "surfaceId", "targetId", "timeoutMs", "windowTitle", "index", "clip.width", "width"}
	for _, c := range []struct{ in, want string }{
		{"surface_id", "surfaceId"}, {"targetID", "targetId"}, {"timeout", "timeoutMs"},
		{"SESSION-ID", "sessionId"}, {"widht", "width"}, {"window_titel", "windowTitle"},
		{"indx", "index"}, {"zzz", ""}, {"", ""}, {"__", ""},
		{"z", ""}, {"wi", ""}, {"id", "targetId"}, {"dth", "width"},
	} {
		got, ok := Closest(c.in, cands)
		if got != c.want || ok != (c.want != "") {
			t.Errorf("Closest(%q) = %q, %v; want %q", c.in, got, ok, c.want)
		}
	}
}

// TestEditDistance pins the distance the matcher ranks by.
func TestEditDistance(t *testing.T) {
	for _, c := range []struct {
		a, b string
		d    int
	}{
		{"", "", 0}, {"", "abc", 3}, {"abc", "", 3}, {"timeout", "timeoutms", 2},
		{"kitten", "sitting", 3}, {"selectr", "selector", 1}, {"é", "e", 1}, {"ab", "ba", 2},
	} {
		if got := editDistance(c.a, c.b); got != c.d {
			t.Errorf("editDistance(%q, %q) = %d, want %d", c.a, c.b, got, c.d)
		}
	}
}

// FuzzClosestParam: for any name the matcher never panics, answers only a
// candidate (never the name itself), answers the same whatever the order
// of the candidates, and always answers a candidate whose key is the
// name's; editDistance is a metric's first properties.
func FuzzClosestParam(f *testing.F) {
	for _, s := range []string{"surface_id", "targetID", "timeout", "selectr", "", "_", "id", "x", "Ref", "clip.width", "ÄÖÜ", "\xff", "timeoutMsMs", "a.b.c"} {
		f.Add(s)
	}
	cands := Names(reflect.TypeFor[*sampleArgs]())
	rev := make([]string, len(cands))
	for i, c := range cands {
		rev[len(cands)-1-i] = c
	}
	f.Fuzz(func(t *testing.T, name string) {
		got, ok := Closest(name, cands)
		got2, ok2 := Closest(name, rev)
		if got != got2 || ok != ok2 {
			t.Fatalf("%q: %q/%v, reversed candidates %q/%v", name, got, ok, got2, ok2)
		}
		if ok {
			found := false
			for _, c := range cands {
				found = found || c == got
			}
			if !found || got == name {
				t.Fatalf("%q: answered %q, not another candidate", name, got)
			}
		}
		k := key(name)
		for _, c := range cands {
			if c != name && !strings.Contains(c, ".") && key(c) == k && k != "" {
				if !ok || key(got[strings.LastIndexByte(got, '.')+1:]) != k {
					t.Fatalf("%q: %q has its key, answered %q/%v", name, c, got, ok)
				}
			}
		}
		if d := editDistance(name, name); d != 0 {
			t.Fatalf("editDistance(%q, itself) = %d", name, d)
		}
		other := "timeoutMs"
		d1, d2 := editDistance(name, other), editDistance(other, name)
		if d1 != d2 || d1 > max(utf8.RuneCountInString(name), len(other)) {
			t.Fatalf("editDistance(%q, %q) = %d, reversed %d", name, other, d1, d2)
		}
	})
}

// TestResultSpellingsAccepted (issue 30, point 6): a field named as results
// spell it (surface_id, window_id) is taken as the parameter it names; a
// name that is the same parameter given twice stays an error.
func TestResultSpellingsAccepted(t *testing.T) {
	type args struct {
		SurfaceID string `json:"surfaceId,omitempty"`
		WindowID  string `json:"windowId,omitempty"`
	}
	for _, c := range []struct{ in, want string }{
		{`{"surface_id":"s1-surface-2"}`, "s1-surface-2|"},
		{`{"window_id":"W"}`, "|W"},
		{`{"surfaceId":"a"}`, "a|"},
	} {
		var a args
		if err := Decode(json.RawMessage(c.in), &a); err != nil {
			t.Fatalf("%s: %v", c.in, err)
		}
		if got := a.SurfaceID + "|" + a.WindowID; got != c.want {
			t.Fatalf("%s: got %s, want %s", c.in, got, c.want)
		}
	}
	var a args
	if err := Decode(json.RawMessage(`{"surfaceId":"a","surface_id":"b"}`), &a); err == nil {
		t.Fatal("surfaceId and surface_id together were accepted")
	}
}
