package main

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

// TestLoopbackOnlyHostAndOrigin checks the HTTP transport's guard with the
// shared loopback predicate: only loopback Host headers and Origins pass.
func TestLoopbackOnlyHostAndOrigin(t *testing.T) {
	h := LoopbackOnly(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusNoContent) }))
	for _, c := range []struct {
		host, origin string
		want         int
	}{
		{"127.0.0.1:8931", "", http.StatusNoContent},
		{"127.0.0.2:8931", "", http.StatusNoContent},
		{"localhost:8931", "http://localhost:3000", http.StatusNoContent},
		{"[::1]:8931", "http://[::1]:8931", http.StatusNoContent},
		{"127.example.com:8931", "", http.StatusForbidden},
		{"localhost.evil.com:8931", "", http.StatusForbidden},
		{"0.0.0.0:8931", "", http.StatusForbidden},
		{"127.0.0.1:8931", "http://127.example.com", http.StatusForbidden},
		{"127.0.0.1:8931", "null", http.StatusForbidden},
	} {
		req := httptest.NewRequest("POST", "http://x/", nil)
		req.Host = c.host
		if c.origin != "" {
			req.Header.Set("Origin", c.origin)
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != c.want {
			t.Errorf("Host %q Origin %q: %d, want %d", c.host, c.origin, rec.Code, c.want)
		}
	}
}
