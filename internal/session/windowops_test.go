package session

import (
	"testing"

	"github.com/understudy-dev/understudy/internal/errs/errstest"
)

func TestWindowArgsCheck(t *testing.T) {
	zero, minus := 0, -1
	for _, c := range []struct {
		name string
		a    interface{ Check() error }
		want string
	}{
		{"switch by id", &SwitchWindowArgs{TargetID: "T"}, ""},
		{"switch by index 0", &SwitchWindowArgs{Index: &zero}, ""},
		{"switch by nothing", &SwitchWindowArgs{}, "targetId"},
		{"switch by negative index", &SwitchWindowArgs{Index: &minus}, "index"},
		{"navigate", &NavigateArgs{URL: "https://example.com/", WaitUntil: "none"}, ""},
		{"navigate blank", &NavigateArgs{URL: " "}, "url"},
		{"navigate no scheme", &NavigateArgs{URL: "example.com"}, "url"},
		{"navigate script", &NavigateArgs{URL: "javascript:alert(1)"}, "url"},
		{"navigate wait", &NavigateArgs{URL: "https://example.com/", WaitUntil: "idle"}, "waitUntil"},
		{"navigate timeout", &NavigateArgs{URL: "https://example.com/", TimeoutMs: 120001}, "timeoutMs"},
		{"open", &WindowOpenArgs{URL: "about:blank"}, ""},
		{"open blank", &WindowOpenArgs{}, "url"},
		{"open timeout", &WindowOpenArgs{URL: "about:blank", TimeoutMs: -1}, "timeoutMs"},
		{"close", &WindowCloseArgs{WindowID: "T"}, ""},
		{"close nothing", &WindowCloseArgs{}, "windowId"},
		{"history", &HistoryArgs{TimeoutMs: 120000}, ""},
		{"history timeout", &HistoryArgs{TimeoutMs: 120001}, "timeoutMs"},
	} {
		if got := errstest.Field(t, c.a.Check()); got != c.want {
			t.Errorf("%s: field %q, want %q", c.name, got, c.want)
		}
	}
}

func TestPickWindow(t *testing.T) {
	wins := []WindowEntry{{ID: "A", Title: "Main window"}, {ID: "B", Title: "Settings"}}
	fields := [3]string{"targetId", "windowTitle", "index"}
	one := 1
	for _, c := range []struct {
		id, title string
		index     *int
		want      string
	}{
		{"B", "", nil, "B"}, {"", "setT", nil, "B"}, {"", "", &one, "B"}, {"A", "Settings", nil, "A"},
	} {
		w, err := PickWindow(wins, c.id, c.title, c.index, fields)
		if err != nil || w.ID != c.want {
			t.Errorf("%+v: %v %v, want %s", c, w, err, c.want)
		}
	}
	two := 2
	for _, c := range []struct {
		id, title string
		index     *int
		want      string
	}{
		{"C", "", nil, "targetId"}, {"", "nothing", nil, "windowTitle"}, {"", "", &two, "index"}, {"", "", nil, "targetId"},
	} {
		if _, err := PickWindow(wins, c.id, c.title, c.index, fields); errstest.Field(t, err) != c.want {
			t.Errorf("%+v: %v, want the field %s", c, err, c.want)
		}
	}
}
