package tool

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/understudy-dev/understudy/internal/cdp"
)

func TestRelayEndpoint(t *testing.T) {
	e := newEnv(t, Config{})
	e.launch("/second.html")
	r := e.ok("electron_relay_endpoint", nil)
	httpURL, wsURL := r["http_url"].(string), r["ws_url"].(string)
	if !strings.HasPrefix(httpURL, "http://127.0.0.1:") || !strings.HasPrefix(wsURL, "ws://127.0.0.1:") {
		t.Fatalf("relay endpoint: %v", r)
	}
	if again := e.ok("electron_relay_endpoint", nil); again["ws_url"] != wsURL {
		t.Fatalf("a second call started another relay: %v", again)
	}
	// A script's view through the relay: the page the agent drives.
	c, err := cdp.Dial(t.Context(), wsURL, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	var targets struct {
		TargetInfos []struct {
			Type string `json:"type"`
			URL  string `json:"url"`
		} `json:"targetInfos"`
	}
	if err := c.Call(t.Context(), "Target.getTargets", nil, &targets); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, ti := range targets.TargetInfos {
		found = found || (ti.Type == "page" && strings.HasSuffix(ti.URL, "/second.html"))
	}
	if !found {
		t.Fatalf("the relay does not show the page: %+v", targets)
	}
	e.ok("electron_stop", nil)
	req, _ := http.NewRequestWithContext(context.Background(), "GET", httpURL+"/json/version", nil)
	if resp, err := http.DefaultClient.Do(req); err == nil {
		resp.Body.Close()
		t.Fatal("the relay still answers after the session stopped")
	}
}
