package browser

import (
	"testing"

	"github.com/understudy-dev/understudy/internal/errs"
)

func TestRemoteAllow(t *testing.T) {
	a, err := ParseRemoteAllow([]string{"grid.example:4444, 10.0.0.5", "[fd00::1]:9222"})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		url  string
		code errs.Code
	}{
		{"ws://127.0.0.1:9222/devtools/browser/x", ""},
		{"http://grid.example:4444", ""},
		{"http://GRID.example:4444/wd/hub", ""},
		{"http://grid.example:4445", errs.RemoteNotAllowed},
		{"wss://10.0.0.5/devtools/browser/x", ""},
		{"ws://10.0.0.6:9222/devtools/browser/x", errs.RemoteNotAllowed},
		{"ws://[fd00::1]:9222/devtools/browser/x", ""},
		{"ws://[fd00::1]:9223/devtools/browser/x", errs.RemoteNotAllowed},
		{"ws://user:pw@10.0.0.5/devtools/browser/x", errs.BadArgument},
		{"ftp://10.0.0.5/", errs.BadArgument},
	} {
		_, err := a.CheckURL("cdpUrl", c.url)
		if c.code == "" && err != nil || c.code != "" && errs.CodeOf(err) != c.code {
			t.Errorf("%s: %v, want %q", c.url, err, c.code)
		}
	}
	var none RemoteAllow
	if _, err := none.CheckURL("grid", "http://10.0.0.5:4444"); errs.CodeOf(err) != errs.RemoteNotAllowed {
		t.Fatalf("empty list: %v", err)
	}
	for _, bad := range []string{"host:0", "host:x", "http://host", "a b"} {
		if _, err := ParseRemoteAllow([]string{bad}); errs.CodeOf(err) != errs.BadArgument {
			t.Errorf("%q accepted: %v", bad, err)
		}
	}
}
