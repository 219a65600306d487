package network

import "testing"

func TestRecordLine(t *testing.T) {
	ms := 12.4
	for _, tc := range []struct {
		r    Record
		want string
	}{
		{Record{Method: "GET", URL: "https://a/", Status: 200, ResourceType: "Document", DurationMs: &ms, SurfaceID: "w1"}, "GET 200 https://a/ (Document, 12 ms) [w1]"},
		{Record{Method: "POST", URL: "https://a/x", Failure: "net::ERR_FAILED", Stubbed: "s1"}, "POST failed: net::ERR_FAILED https://a/x stubbed by s1"},
		{Record{Method: "GET", URL: "https://a/y", ResourceType: "XHR"}, "GET - https://a/y (XHR)"},
	} {
		if got := tc.r.Line(); got != tc.want {
			t.Errorf("got %q, want %q", got, tc.want)
		}
	}
}
