package capture

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestConsoleText(t *testing.T) {
	str := func(s string) RemoteObject { return RemoteObject{Type: "string", Value: []byte(`"` + s + `"`)} }
	num := func(v string) RemoteObject { return RemoteObject{Type: "number", Value: []byte(v)} }
	for _, tc := range []struct {
		args []RemoteObject
		want string
	}{
		{nil, ""},
		{[]RemoteObject{str("plain"), num("1")}, "plain 1"},
		{[]RemoteObject{str("%s=%d%%"), str("x"), num("3.9")}, "x=3%"},
		{[]RemoteObject{str("%c styled"), str("color: red")}, " styled"},
		{[]RemoteObject{str("%s and %s"), str("one")}, "one and %s"},
		{[]RemoteObject{str("%d"), str("abc")}, "NaN"},
		{[]RemoteObject{{Type: "number", UnserializableValue: "-Infinity"}, {Type: "object", Subtype: "null"}, {Type: "undefined"}}, "-Infinity null undefined"},
		{[]RemoteObject{{Type: "object", Description: "Map(2)"}, {Type: "function", Description: "() => 1"}}, "Map(2) () => 1"},
		{[]RemoteObject{str("trailing %")}, "trailing %"},
	} {
		if got := ConsoleText(tc.args); got != tc.want {
			t.Errorf("ConsoleText(%v) = %q, want %q", tc.args, got, tc.want)
		}
	}
}

// FuzzConsoleText: any format string and arguments give text, never a panic,
// and the text holds every argument a directive did not take.
func FuzzConsoleText(f *testing.F) {
	f.Add("%s is %d%%", "x", "3")
	f.Add("%c%o%O%i%f%", "", "1e999")
	f.Add("plain", "%s", "%d")
	f.Fuzz(func(t *testing.T, format, a, b string) {
		str := func(s string) RemoteObject {
			v, _ := json.Marshal(s)
			return RemoteObject{Type: "string", Value: v}
		}
		got := ConsoleText([]RemoteObject{str(format), str(a), {Type: "number", Value: []byte(b)}})
		if utf8.ValidString(format) && !strings.Contains(format, "%") && !strings.HasPrefix(got, format) {
			t.Fatalf("ConsoleText(%q, …) = %q: the format without directives is not kept", format, got)
		}
	})
}
