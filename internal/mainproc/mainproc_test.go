package mainproc

import (
	"context"
	"testing"

	"github.com/understudy-dev/understudy/internal/errs"
)

func TestConnectRefusesWhatIsNotAnInspector(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		url  string
		code errs.Code
	}{
		{"", errs.TransportUnsupported},
		{"ws://10.0.0.1:9229/abc", errs.BadArgument},
		{"http://example.com:9229", errs.BadArgument},
		{"http://127.0.0.1:1", errs.TransportUnsupported}, // nothing listens on port 1
		{"ws://127.0.0.1:1/abc", errs.TransportUnsupported},
	} {
		if _, err := Connect(ctx, c.url); errs.CodeOf(err) != c.code {
			t.Errorf("Connect(%q) = %v, want %s", c.url, err, c.code)
		}
	}
	if _, err := Inject(ctx, 0, 0); errs.CodeOf(err) != errs.BadArgument {
		t.Errorf("Inject(0): %v", err)
	}
}

// TestConnectRefusesNamesThatLookLoopback is the regression for the loopback
// rule mainproc once had of its own: any host beginning with "127." passed,
// so a DNS name like 127.example.com (which anyone can point anywhere) was
// dialed. Now only the shared predicate decides, before any dial.
func TestConnectRefusesNamesThatLookLoopback(t *testing.T) {
	for _, u := range []string{
		"http://127.example.com:9229",
		"ws://127.0.0.1.nip.io:9229/abc",
		"http://localhost.evil.com:9229",
		"ws://0.0.0.0:9229/abc",
	} {
		_, err := Connect(context.Background(), u)
		if errs.CodeOf(err) != errs.BadArgument {
			t.Errorf("Connect(%q) = %v, want BAD_ARGUMENT", u, err)
		}
	}
}
