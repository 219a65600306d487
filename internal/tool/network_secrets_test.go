package tool

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// networkSecrets are the values a page sends and gets that the network
// tools must not show: each is found nowhere in an output unless revealed.
var networkSecrets = map[string]string{
	"Authorization":  "AUTH-VAL-7f3",
	"Cookie":         "COOKIE-VAL-7f3",
	"Set-Cookie":     "SETCOOKIE-VAL-7f3",
	"X-Api-Key":      "APIKEY-VAL-7f3",  // --redact-header
	"request body":   "REQBODY-VAL-7f3", // --redact-body-key myCustomField
	"response body":  "RESPBODY-VAL-7f3",
	"default key pw": "PASSWORD-VAL-7f3", // a default body key (password)
}

// secretTraffic launches the fixture with a route that sets a cookie and
// answers JSON with a configured key, makes the page send every secret of
// networkSecrets, and returns the captured records once the request is
// complete (its Cookie and Set-Cookie headers come in extra-info events).
func secretTraffic(t *testing.T, cfg Config, args map[string]any) (*env, []map[string]any) {
	cfg.AllowEvalRenderer = true
	cfg.RedactHeaders = []string{"X-Api-Key"}
	cfg.RedactBodyKeys = []string{"myCustomField"}
	e := newEnv(t, cfg)
	e.app.Mount("/secret-api", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.SetCookie(w, &http.Cookie{Name: "sess", Value: networkSecrets["Set-Cookie"], Path: "/"})
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"ok":1,"myCustomField":"` + networkSecrets["response body"] + `"}`))
	}))
	e.launch("/index.html")
	e.ok("network_capture_start", map[string]any{"urls": []string{"/secret-api"}, "captureBodies": true})
	e.eval(`document.cookie = "pagecookie=` + networkSecrets["Cookie"] + `; path=/";
		fetch('/secret-api?x=1', {method: 'POST', headers: {'Authorization': 'Bearer ` + networkSecrets["Authorization"] + `',
			'X-Api-Key': '` + networkSecrets["X-Api-Key"] + `', 'Content-Type': 'application/json'},
			body: JSON.stringify({user: 'bob', myCustomField: '` + networkSecrets["request body"] + `', password: '` + networkSecrets["default key pw"] + `'})}).then(r => r.text())`)
	evs := e.netEvents(args, "the request with its cookies and bodies", func(evs []map[string]any) bool {
		ev := withURL(evs, "x=1")
		if ev == nil || ev["responseBody"] == nil || ev["requestBody"] == nil {
			return false
		}
		req, _ := ev["requestHeaders"].(map[string]any)
		resp, _ := ev["responseHeaders"].(map[string]any)
		return headerOf(req, "cookie") != "" && headerOf(resp, "set-cookie") != ""
	})
	return e, evs
}

func headerOf(h map[string]any, name string) string {
	for k, v := range h {
		if strings.EqualFold(k, name) {
			s, _ := v.(string)
			return s
		}
	}
	return ""
}

// TestNetworkSecretsAreTyped: Authorization, Cookie, Set-Cookie, an
// operator's header, an operator's body key and a default body key are
// [redacted] in network_captured's answer and in the HAR file's bytes
// (the record's own type, ADR-041), and reveal without --allow-secrets is
// refused; with --allow-secrets and reveal:true every value is there.
func TestNetworkSecretsAreTyped(t *testing.T) {
	t.Run("redacted", func(t *testing.T) {
		e, evs := secretTraffic(t, Config{}, nil)
		ev := withURL(evs, "x=1")
		req, resp := ev["requestHeaders"].(map[string]any), ev["responseHeaders"].(map[string]any)
		for _, h := range []string{headerOf(req, "authorization"), headerOf(req, "cookie"), headerOf(req, "x-api-key"), headerOf(resp, "set-cookie")} {
			if h != "[redacted]" {
				t.Fatalf("a secret header is %q: %v %v", h, req, resp)
			}
		}
		if rb := ev["requestBody"].(string); !strings.Contains(rb, `"user":"bob"`) || !strings.Contains(rb, `"myCustomField":"[redacted]"`) || !strings.Contains(rb, `"password":"[redacted]"`) {
			t.Fatalf("request body: %s", rb)
		}
		if rb := ev["responseBody"].(string); !strings.Contains(rb, `"myCustomField":"[redacted]"`) || !strings.Contains(rb, `"ok":1`) {
			t.Fatalf("response body: %s", rb)
		}
		raw, _ := json.Marshal(e.ok("network_captured", nil))
		inflight, _ := json.Marshal(e.ok("network_captured", map[string]any{"inFlight": true, "since": 0}))
		harPath := filepath.Join(t.TempDir(), "secrets.har")
		e.ok("network_export_har", map[string]any{"path": harPath})
		har, err := os.ReadFile(harPath)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(har), "[redacted]") {
			t.Fatalf("HAR without [redacted]: %s", har)
		}
		for what, out := range map[string][]byte{"network_captured": raw, "network_captured inFlight": inflight, "the HAR file": har} {
			for name, v := range networkSecrets {
				if strings.Contains(string(out), v) {
					t.Errorf("%s holds the %s value %s", what, name, v)
				}
			}
		}
		e.fails("network_captured", map[string]any{"reveal": true}, "SECRETS_NOT_ALLOWED")
		e.fails("network_export_har", map[string]any{"path": filepath.Join(t.TempDir(), "r.har"), "reveal": true}, "SECRETS_NOT_ALLOWED")
	})
	t.Run("revealed", func(t *testing.T) {
		e, evs := secretTraffic(t, Config{AllowSecrets: true}, map[string]any{"reveal": true})
		raw, _ := json.Marshal(evs)
		harPath := filepath.Join(t.TempDir(), "revealed.har")
		e.ok("network_export_har", map[string]any{"path": harPath, "reveal": true})
		har, err := os.ReadFile(harPath)
		if err != nil {
			t.Fatal(err)
		}
		plainPath := filepath.Join(t.TempDir(), "plain.har")
		e.ok("network_export_har", map[string]any{"path": plainPath})
		plain, err := os.ReadFile(plainPath)
		if err != nil {
			t.Fatal(err)
		}
		for name, v := range networkSecrets {
			if !strings.Contains(string(raw), v) || !strings.Contains(string(har), v) {
				t.Errorf("reveal: the %s value %s is missing (captured %v, HAR %v)", name, v, strings.Contains(string(raw), v), strings.Contains(string(har), v))
			}
			if strings.Contains(string(plain), v) {
				t.Errorf("without reveal the HAR holds the %s value", name)
			}
		}
		// A read that reveals leaves the ring's records as they were.
		again, _ := json.Marshal(e.ok("network_captured", nil))
		if strings.Contains(string(again), networkSecrets["Authorization"]) {
			t.Fatalf("a revealed read changed the ring: %s", again)
		}
	})
}
