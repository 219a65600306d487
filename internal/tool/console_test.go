package tool

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestConsoleLogs: messages and an uncaught exception from the top page and
// from the nested OOPIF of the fixture (through the Electron-shaped proxy),
// read back with their surfaces, filtered and paged.
func TestConsoleLogs(t *testing.T) {
	e, s := surfaceEnv(t)
	e.use(s["top"])
	e.eval("console.log('top says %s and %d%%', 'hi', 42.7, {a: 1}); console.error(new Error('bad thing')); setTimeout(() => { throw new TypeError('late boom') }, 0); true")
	e.use(s["cross2"])
	e.eval("console.warn('from cross2', [1, 2], null, undefined, true); console.debug('quiet'); true")

	var entries []any
	for range 100 {
		r := e.ok("electron_console_logs", map[string]any{"since": 0})
		entries, _ = r["entries"].([]any)
		if len(entries) >= 5 {
			break
		}
		e.eval("new Promise(r => setTimeout(r, 20))")
	}
	find := func(typ string) map[string]any {
		for _, x := range entries {
			if m := x.(map[string]any); m["type"] == typ {
				return m
			}
		}
		t.Fatalf("no %s entry in %v", typ, entries)
		return nil
	}
	if m := find("log"); m["text"] != "top says hi and 42% Object" || m["surface_id"] != s["top"]["id"] {
		t.Fatalf("log: %v", m)
	}
	if m := find("error"); !strings.HasPrefix(m["text"].(string), "Error: bad thing") {
		t.Fatalf("error: %v", m)
	}
	if m := find("exception"); !strings.Contains(m["text"].(string), "TypeError: late boom") || m["surface_id"] != s["top"]["id"] {
		t.Fatalf("exception: %v", m)
	}
	if m := find("warning"); m["text"] != "from cross2 Array(2) null undefined true" || m["surface_id"] != s["cross2"]["id"] {
		t.Fatalf("warning from the nested OOPIF: %v", m)
	}

	r := e.ok("electron_console_logs", map[string]any{"type": "warn"})
	if got := r["entries"].([]any); len(got) != 1 {
		t.Fatalf("type warn: %v", r)
	}
	r = e.ok("electron_console_logs", map[string]any{"match": "^(top|from) "})
	if got := r["entries"].([]any); len(got) != 2 {
		t.Fatalf("match: %v", r)
	}
	r = e.ok("electron_console_logs", map[string]any{"limit": 1})
	next := num(r["next_since"])
	if got := r["entries"].([]any); len(got) != 1 || num(got[0].(map[string]any)["seq"]) != next {
		t.Fatalf("limit 1: %v", r)
	}
	if r = e.ok("electron_console_logs", map[string]any{"since": next}); len(r["entries"].([]any)) != 0 {
		t.Fatalf("since the newest: %v", r)
	}
	for _, bad := range []struct {
		args  map[string]any
		field string
	}{
		{map[string]any{"match": "("}, "match"},
		{map[string]any{"match": strings.Repeat("a", 501)}, "match"},
		{map[string]any{"limit": 1001}, "limit"},
		{map[string]any{"since": -1}, "since"},
	} {
		if d := details(e.fails("electron_console_logs", bad.args, "BAD_ARGUMENT")); d["field"] != bad.field {
			t.Fatalf("%v: %v", bad.args, d)
		}
	}
}

func TestConsoleText(t *testing.T) {
	str := func(s string) remoteObject { return remoteObject{Type: "string", Value: []byte(`"` + s + `"`)} }
	num := func(v string) remoteObject { return remoteObject{Type: "number", Value: []byte(v)} }
	for _, tc := range []struct {
		args []remoteObject
		want string
	}{
		{nil, ""},
		{[]remoteObject{str("plain"), num("1")}, "plain 1"},
		{[]remoteObject{str("%s=%d%%"), str("x"), num("3.9")}, "x=3%"},
		{[]remoteObject{str("%c styled"), str("color: red")}, " styled"},
		{[]remoteObject{str("%s and %s"), str("one")}, "one and %s"},
		{[]remoteObject{str("%d"), str("abc")}, "NaN"},
		{[]remoteObject{{Type: "number", UnserializableValue: "-Infinity"}, {Type: "object", Subtype: "null"}, {Type: "undefined"}}, "-Infinity null undefined"},
		{[]remoteObject{{Type: "object", Description: "Map(2)"}, {Type: "function", Description: "() => 1"}}, "Map(2) () => 1"},
		{[]remoteObject{str("trailing %")}, "trailing %"},
	} {
		if got := consoleText(tc.args); got != tc.want {
			t.Errorf("consoleText(%v) = %q, want %q", tc.args, got, tc.want)
		}
	}
	long := strings.Repeat("é", maxConsoleText)
	if c := clipText(long); len(c) > maxConsoleText+40 || !strings.Contains(c, "bytes)") {
		t.Errorf("clipText: %d bytes, %q…", len(c), c[:20])
	}
}

// FuzzConsoleText: any format string and arguments give text, never a panic,
// and the text holds every argument a directive did not take.
func FuzzConsoleText(f *testing.F) {
	f.Add("%s is %d%%", "x", "3")
	f.Add("%c%o%O%i%f%", "", "1e999")
	f.Add("plain", "%s", "%d")
	f.Fuzz(func(t *testing.T, format, a, b string) {
		str := func(s string) remoteObject {
			v, _ := json.Marshal(s)
			return remoteObject{Type: "string", Value: v}
		}
		got := consoleText([]remoteObject{str(format), str(a), {Type: "number", Value: []byte(b)}})
		if utf8.ValidString(format) && !strings.Contains(format, "%") && !strings.HasPrefix(got, format) {
			t.Fatalf("consoleText(%q, …) = %q: the format without directives is not kept", format, got)
		}
	})
}
