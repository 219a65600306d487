package relay

import (
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/understudy-dev/understudy/internal/browser"
	"github.com/understudy-dev/understudy/internal/fixture"
)

func TestScratchServe(t *testing.T) {
	up := os.Getenv("SCRATCH_UPSTREAM")
	if up == "" {
		t.Skip()
	}
	r, err := New(Options{Upstream: browser.Endpoint{HTTPURL: up}, Addr: "127.0.0.1:9444"})
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Start(t.Context()); err != nil {
		t.Fatal(err)
	}
	srv, err := fixture.Serve(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	t.Log(r.HTTPURL(), r.WSURL(), srv.Port())
	_ = os.WriteFile("/tmp/exp/fixture_port", []byte(strconv.Itoa(srv.Port())), 0o644)
	time.Sleep(900 * time.Second)
	r.Close()
}
