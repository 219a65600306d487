package grid

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/understudy-dev/understudy/internal/errs"
)

// TestWireAndErrors checks what the client sends and how it reads the
// grid's answers, against a stand-in that answers as Selenium 4.48 does
// (the real grid runs in internal/tool's TestGridStandalone).
func TestWireAndErrors(t *testing.T) {
	var gotCT, gotAuth string
	var gotBody map[string]any
	answer := `{"value":{"sessionId":"abc","capabilities":{"browserName":"chrome","browserVersion":"156","se:cdp":"ws://192.0.2.2:4444/session/abc/se/cdp"}}}`
	status := 200
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		gotCT, gotAuth = r.Header.Get("Content-Type"), r.Header.Get("Authorization")
		if r.Method == http.MethodPost {
			_ = json.NewDecoder(r.Body).Decode(&gotBody)
		}
		w.WriteHeader(status)
		_, _ = w.Write([]byte(answer))
	}))
	defer srv.Close()
	c := &Client{URL: srv.URL, Header: http.Header{"Authorization": {"Bearer t"}}}
	s, err := c.NewSession(context.Background(), map[string]any{"browserName": "chrome"})
	if err != nil {
		t.Fatal(err)
	}
	if s.ID != "abc" || !strings.HasSuffix(s.CDPURL, "/se/cdp") || gotCT != "application/json; charset=utf-8" || gotAuth != "Bearer t" {
		t.Fatalf("session %+v, content type %q, auth %q", s, gotCT, gotAuth)
	}
	if am := gotBody["capabilities"].(map[string]any)["alwaysMatch"].(map[string]any); am["browserName"] != "chrome" {
		t.Fatalf("body %v", gotBody)
	}
	status = 500
	for msg, code := range map[string]errs.Code{
		"Could not start a new session. New session request timed out \nHost info: x":                                                  errs.GridNoSlot,
		"Could not start a new session. Error while creating session with the driver service. boom":                                    errs.GridSessionFailed,
		"Could not start a new session. Browser path does not exist: /x\nBuild info: version: '4.48.0'\nSystem info: os.name: 'Linux'": errs.GridSessionFailed,
	} {
		b, _ := json.Marshal(map[string]any{"value": map[string]any{"error": "session not created", "message": msg}})
		answer = string(b)
		_, err := c.NewSession(context.Background(), nil)
		if errs.CodeOf(err) != code || strings.Contains(err.Error(), "Host info") || strings.Contains(err.Error(), "Build info") || !strings.Contains(err.Error(), "Could not start") {
			t.Fatalf("%q: %v", msg, err)
		}
	}
	answer = `{"value":{"error":"invalid session id","message":"gone"}}`
	status = 404
	if err := c.DeleteSession(context.Background(), "abc"); err != nil {
		t.Fatalf("deleting a session the grid forgot: %v", err)
	}
	c.URL = "http://127.0.0.1:1"
	if _, err := c.NewSession(context.Background(), nil); errs.CodeOf(err) != errs.GridUnreachable {
		t.Fatalf("no grid: %v", err)
	}
}
