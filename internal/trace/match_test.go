package trace

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/understudy-dev/understudy/internal/errs"
)

func mustChecks(t *testing.T, js string) []*Check {
	t.Helper()
	var raws []json.RawMessage
	if err := json.Unmarshal([]byte(js), &raws); err != nil {
		t.Fatal(err)
	}
	var out []*Check
	for i, r := range raws {
		c, err := ParseCheck(r, "c")
		if err != nil {
			t.Fatalf("check %d: %v", i, err)
		}
		out = append(out, c)
	}
	return out
}

const envelope = `{"ok": true, "surface_id": "s1-f3", "text": "Ordered 3 x l", "count": 2.0004,
 "matches": [{"ref": 12, "role": "button", "name": "Order"}, {"ref": 13, "role": "link", "name": "Help"}],
 "file": "/tmp/run-1/shot.png", "started_at": "2026-01-02T03:04:05Z", "session_id": "s1",
 "headers": {"authorization": "Bearer abc", "accept": "text/html"}, "_meta": {"elapsed_ms": 12}}`

func TestChecksPass(t *testing.T) {
	norm := []string{"session_id", "timestamps", "absolute_paths", "refs"}
	for _, js := range []string{
		`[{"path": "$.text", "exact": "Ordered 3 x l"}]`,
		`[{"path": "text", "exact": "Ordered 3 x l"}]`,
		`[{"path": "$", "subset": {"ok": true, "text": "Ordered 3 x l"}}]`,
		`[{"path": "$.count", "exact": 2, "tolerance": 0.001}]`,
		`[{"path": "$.matches", "subset": [{"role": "button"}]}]`,
		`[{"path": "$.matches[1].name", "regex": "^H.lp$"}]`,
		`[{"path": "$[\"text\"]", "regex": "[0-9]+ x [sl]"}]`,
		// refs, session ids, timestamps and absolute paths are normalised
		// inside compared values.
		`[{"path": "$.matches[0]", "exact": {"ref": 99, "role": "button", "name": "Order"}}]`,
		`[{"path": "$", "subset": {"session_id": "s9", "started_at": "1999", "file": "/other/dir/shot.png"}}]`,
		// ignore takes paths out of an exact comparison.
		`[{"path": "$.headers", "exact": {"accept": "text/html"}}, {"path": "$.headers.authorization", "ignore": true}]`,
		`[{"path": "$.matches", "exact": [{"role": "button", "name": "Order"}, {"role": "link", "name": "x"}]}, {"path": "$.matches[*].name", "ignore": true}]`,
	} {
		if f := Apply(mustChecks(t, js), norm, json.RawMessage(envelope)); f != nil {
			t.Errorf("%s: %+v", js, f)
		}
	}
}

func TestChecksFail(t *testing.T) {
	for _, c := range []struct {
		js, path, why string
		norm          []string
	}{
		{`[{"path": "$.text", "exact": "Ordered 4 x l"}]`, "$.text", "strings differ", nil},
		{`[{"path": "$", "subset": {"text": "Ordered 3 x l", "nope": 1}}]`, "$.nope", "missing", nil},
		{`[{"path": "$.count", "exact": 2}]`, "$.count", "numbers differ", nil},
		{`[{"path": "$.count", "exact": 2, "tolerance": 0.0001}]`, "$.count", "more than", nil},
		{`[{"path": "$.matches", "exact": [{"role": "button"}]}]`, "$.matches", "expected 1 items, got 2", nil},
		{`[{"path": "$.matches[0]", "exact": {"role": "button", "name": "Order"}}]`, "$.matches[0].ref", "does not name", nil},
		{`[{"path": "$.matches[0]", "exact": {"ref": 99, "role": "button", "name": "Order"}}]`, "$.matches[0].ref", "numbers differ", nil},
		{`[{"path": "$.matches[5].name", "exact": "x"}]`, "$.matches[5]", "no $.matches[5]", nil},
		{`[{"path": "$.text", "regex": "^Bought"}]`, "$.text", "does not match", nil},
		{`[{"path": "$.count", "regex": "2"}]`, "$.count", "reads a string", nil},
		{`[{"path": "$.file", "exact": "/other/shot.png"}]`, "$.file", "strings differ", nil},
		{`[{"path": "$.ok", "exact": true}, {"path": "$.text", "subset": 3}]`, "$.text", "expected a number", nil},
	} {
		f := Apply(mustChecks(t, c.js), c.norm, json.RawMessage(envelope))
		if f == nil || f.Path != c.path || !strings.Contains(f.Why, c.why) {
			t.Errorf("%s: want a failure at %s (%s), got %+v", c.js, c.path, c.why, f)
		}
	}
	// The second check is the one that failed.
	if f := Apply(mustChecks(t, `[{"path": "$.ok", "exact": true}, {"path": "$.text", "exact": "x"}]`), nil, json.RawMessage(envelope)); f == nil || f.Check != 1 || f.Kind != CheckExact {
		t.Errorf("check index: %+v", f)
	}
}

func TestCheckFailureRedactsAndBounds(t *testing.T) {
	f := Apply(mustChecks(t, `[{"path": "$.headers.authorization", "exact": "Bearer xyz"}]`), nil, json.RawMessage(envelope))
	if f == nil || f.Expected != `"[redacted]"` || f.Actual != `"[redacted]"` {
		t.Fatalf("a secret path: %+v", f)
	}
	f = Apply(mustChecks(t, `[{"path": "$.headers", "exact": 3}]`), nil, json.RawMessage(envelope))
	if f == nil || strings.Contains(f.Actual, "Bearer") || !strings.Contains(f.Actual, "text/html") {
		t.Fatalf("a secret field inside a shown value: %+v", f)
	}
	long := `{"text": "` + strings.Repeat("é", 5000) + `"}`
	f = Apply(mustChecks(t, `[{"path": "$.text", "exact": "x"}]`), nil, json.RawMessage(long))
	if f == nil || len(f.Actual) > maxShown+20 || !strings.HasSuffix(f.Actual, "…(truncated)") {
		t.Fatalf("a long value: %d bytes", len(f.Actual))
	}
	// A regex reads at most MaxRegexInput bytes: a longer string fails
	// the check and says why.
	huge := `{"text": "` + strings.Repeat("a", MaxRegexInput+1) + `"}`
	f = Apply(mustChecks(t, `[{"path": "$.text", "regex": "a"}]`), nil, json.RawMessage(huge))
	if f == nil || !strings.Contains(f.Why, "at most") {
		t.Fatalf("an oversize regex input: %+v", f)
	}
}

func TestParseCheckErrors(t *testing.T) {
	for js, at := range map[string]string{
		`3`:               "c",
		`{"path": "$.a"}`: "c",
		`{"path": "$.a", "exact": 1, "regex": "x"}`:     "c",
		`{"path": "$.a", "exacct": 1}`:                  "c.exacct",
		`{"exact": 1}`:                                  "c.path",
		`{"path": 3, "exact": 1}`:                       "c.path",
		`{"path": "", "exact": 1}`:                      "c.path",
		`{"path": "$..a", "exact": 1}`:                  "c.path",
		`{"path": "$.a[x]", "exact": 1}`:                "c.path",
		`{"path": "$.a[-1]", "exact": 1}`:               "c.path",
		`{"path": "$.a[*]", "exact": 1}`:                "c.path",
		`{"path": "$.a", "regex": 3}`:                   "c.regex",
		`{"path": "$.a", "regex": "a(b"}`:               "c.regex",
		`{"path": "$.a", "regex": "x{1001}"}`:           "c.regex",
		`{"path": "$.a", "ignore": "yes"}`:              "c.ignore",
		`{"path": "$.a", "exact": 1, "tolerance": -1}`:  "c.tolerance",
		`{"path": "$.a", "regex": "a", "tolerance": 1}`: "c.tolerance",
	} {
		_, err := ParseCheck(json.RawMessage(js), "c")
		ce, ok := err.(*CheckError)
		if !ok || ce.At != at {
			t.Errorf("%s: want an error at %s, got %v", js, at, err)
		}
	}
	long := `{"path": "$.a", "regex": "` + strings.Repeat("a", MaxRegexLen+1) + `"}`
	if _, err := ParseCheck(json.RawMessage(long), "c"); err == nil || !strings.Contains(err.Error(), "over") {
		t.Errorf("an oversize pattern: %v", err)
	}
	c, err := ParseCheck(json.RawMessage(`{"path": "$.a[\"b.c\"][2].d", "exact": 1}`), "c")
	if err != nil || pathString(c.segs) != `$.a["b.c"][2].d` {
		t.Errorf("a quoted name: %v %v", c, err)
	}
}

func TestLoadSpecNamesTheBadCheck(t *testing.T) {
	dir := t.TempDir()
	write := func(steps string) string {
		p := filepath.Join(dir, "spec.json")
		if err := os.WriteFile(p, []byte(`{"format":"understudy-replay","version":1,"normalize":["refs"],"steps":`+steps+`}`), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	good := write(`[{"seq":1,"tool":"electron_get_text","args":{},"expect":{"ok":true,"result":[{"path":"$.text","regex":"^T"}]}}]`)
	tr, err := LoadSpec(good)
	if err != nil || len(tr.Steps[0].Checks) != 1 || tr.Normalize[0] != "refs" {
		t.Fatalf("a good spec: %v %v", tr, err)
	}
	for steps, at := range map[string]string{
		`[{"seq":1,"tool":"a","expect":{"ok":true}},{"seq":2,"tool":"b","expect":{"ok":true,"result":[{"path":"$.x","regex":"("}]}}]`: "steps[1].expect.result[0].regex",
		`[{"seq":1,"tool":"a","expect":{"ok":true,"result":{"path":"$.x"}}}]`:                                                         "steps[0].expect.result",
		`[{"seq":1,"tool":"a","expect":{"ok":true,"results":[]}}]`:                                                                    "steps[0]",
		`[{"seq":2,"tool":"a"},{"seq":1,"tool":"b"}]`:                                                                                 "steps[1]",
	} {
		_, err := LoadSpec(write(steps))
		e := errs.As(err)
		if e == nil || e.Code != errs.TraceInvalid || e.Details["at"] != at {
			t.Errorf("%s: want TRACE_INVALID at %s, got %v", steps, at, err)
		}
	}
	p := filepath.Join(dir, "norm.json")
	if err := os.WriteFile(p, []byte(`{"format":"understudy-replay","version":1,"normalize":["everything"],"steps":[]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if e := errs.As(func() error { _, err := LoadSpec(p); return err }()); e == nil || e.Details["at"] != "normalize[0]" {
		t.Errorf("an unknown normalization: %v", e)
	}
}
