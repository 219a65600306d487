package network

import (
	"bytes"
	"encoding/json"
	"math"
	"testing"

	"github.com/understudy-dev/understudy/internal/secret"
)

// hdrs reads h as the capture does, with the default secret headers.
func hdrs(h map[string]string) Headers { return NewRedactor(nil, nil).read(h) }

// plainRecord has Record's fields without its MarshalJSON: encoding/json's
// reflection output, which AppendJSON must match byte for byte.
type plainRecord Record

func sampleRecords() []Record {
	ok, no := true, false
	ttfb, dur, tiny, huge := 12.5, 0.000000123, 1e-9, 3e21
	return []Record{
		{},
		{Seq: 7, ID: "1.2", SurfaceID: "s1", WindowID: "w1", WindowIDCompat: "w1", FrameID: "F", TargetID: "T", Method: "POST",
			URL: "http://a.test/x?a=<b>&c=\"d\"", ResourceType: "Fetch", Initiator: &Initiator{Type: "script", URL: "http://a.test/app.js", Line: 3},
			Status: 200, StatusText: "OK", OK: &ok, MimeType: "application/json", Protocol: "http/1.1", RemoteAddress: "[::1]:80",
			RequestHeaders:  hdrs(map[string]string{"Authorization": "Bearer sekrit", "Content-Type": "application/json", "X-Ctl": "a\tb\x01\u2028\u2029é\xff"}),
			ResponseHeaders: hdrs(map[string]string{"set-cookie": "a=1\nb=2", "Date": "today"}),
			RequestBody:     secret.Masked(`{"password":"hunter2"}`, `{"password":"[redacted]"}`), RequestBodyBytes: 25, RequestBodyTruncated: true, RequestBodyEncoding: "",
			ResponseBody: secret.Plain("AAEC"), ResponseBodyBytes: 3, ResponseBodyTruncated: true, ResponseBodyEncoding: "base64", BodyDropped: true,
			Redirects: []Redirect{{URL: "http://a.test/r1", Status: 302}, {URL: "http://a.test/r2", Status: 307}},
			Failure:   "net::ERR_FAILED", Canceled: true, BlockedReason: "inspector", FromCache: true, FromServiceWorker: true,
			Stubbed: "stub-1", TransferBytes: 1234, Timestamp: "2026-12-02T01:00:00.123Z", TTFBMs: &ttfb, DurationMs: &dur, InFlight: true},
		{Seq: 1, OK: &no, TTFBMs: &tiny, DurationMs: &huge, Initiator: &Initiator{Type: "parser"}, Status: -1},
	}
}

// TestRecordJSONMatchesReflection: the hand-written encoder writes what
// encoding/json writes for every field, omitempty, escaping and float.
func TestRecordJSONMatchesReflection(t *testing.T) {
	for i, r := range sampleRecords() {
		want, err := json.Marshal(plainRecord(r))
		if err != nil {
			t.Fatal(err)
		}
		got, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("record %d:\n got %s\nwant %s", i, got, want)
		}
	}
	nan := math.NaN()
	if b := (&Record{TTFBMs: &nan}).AppendJSON(nil); !json.Valid(b) {
		t.Fatalf("NaN: %s", b)
	}
}

// FuzzRecordJSON: any strings and numbers encode as encoding/json does.
func FuzzRecordJSON(f *testing.F) {
	f.Add("http://a.test/", "k", "v\x00<>&", 1.5, int64(3))
	f.Fuzz(func(t *testing.T, u, k, v string, x float64, n int64) {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return
		}
		for _, r := range []Record{
			{Seq: n, URL: u, RequestHeaders: hdrs(map[string]string{k: v, "b": u, "Cookie": v}), ResponseBody: secret.Plain(v), DurationMs: &x, Status: int(n)},
			{RequestBody: secret.New(v), ResponseBody: secret.Masked(v, u)},
			(&Record{RequestBody: secret.New(v), ResponseBody: secret.Masked(v, u), RequestHeaders: hdrs(map[string]string{"Cookie": v})}).Shown(),
		} {
			want, _ := json.Marshal(plainRecord(r))
			got, _ := json.Marshal(r)
			if !bytes.Equal(got, want) {
				t.Fatalf("got %s\nwant %s", got, want)
			}
		}
	})
}

// TestReadCachesRedactedEncoding: a redacted read caches each record's
// JSON in the ring; the next read appends the same bytes; a revealed read
// never uses it; a record that lost its body is encoded again.
func TestReadCachesRedactedEncoding(t *testing.T) {
	nw := benchRing(3)
	nw.ring[1].RequestHeaders = hdrs(map[string]string{"Authorization": "Bearer sekrit", "Accept": "*/*"})
	enc := func(p Page) string {
		var b []byte
		for i := range p.Records {
			b = p.Records[i].AppendJSON(b)
		}
		return string(b)
	}
	first := enc(nw.Read(ReadOptions{Limit: 10}))
	if nw.ring[1].enc == nil || bytes.Contains(nw.ring[1].enc, []byte("sekrit")) {
		t.Fatalf("cached: %s", nw.ring[1].enc)
	}
	if second := enc(nw.Read(ReadOptions{Limit: 10})); second != first {
		t.Fatalf("second read differs:\n%s\n%s", first, second)
	}
	if rev := enc(nw.Read(ReadOptions{Limit: 10, Reveal: true})); !bytes.Contains([]byte(rev), []byte("Bearer sekrit")) {
		t.Fatalf("reveal used the redacted cache: %s", rev)
	}
	want, _ := json.Marshal(plainRecord(nw.Read(ReadOptions{Limit: 1}).Records[0]))
	if got := enc(nw.Read(ReadOptions{Limit: 1})); got != string(want) {
		t.Fatalf("cached encoding:\n got %s\nwant %s", got, want)
	}
}
