package network

import (
	"encoding/json"
	"fmt"
	"testing"
)

// benchRing is a Network whose ring holds n records shaped like the
// fixture's /echo fetches (about 12 request and 8 response headers).
func benchRing(n int) *Network {
	nw := &Network{red: NewRedactor(nil, nil), pending: map[pkey]*Record{}, opts: CaptureOptions{BodyBudget: DefaultBodyBudget}}
	nw.seq = func() int64 { return nw.own.Add(1) }
	ok := true
	for i := range n {
		ttfb, dur := 3.25+float64(i%7), 5.5+float64(i%11)
		r := &Record{ID: fmt.Sprintf("1000.%d", i), SurfaceID: "s-top", WindowID: "w1", WindowIDCompat: "w1", FrameID: "8F2A1C3E5B7D9F00112233445566", TargetID: "8F2A1C3E5B7D9F00112233445566",
			Method: "GET", URL: fmt.Sprintf("http://a.test:41234/echo?x=%d", i), ResourceType: "Fetch",
			Initiator: &Initiator{Type: "script", URL: "http://a.test:41234/index.html", Line: 12}, Status: 200, StatusText: "OK", OK: &ok,
			MimeType: "application/json", Protocol: "http/1.1", RemoteAddress: "127.0.0.1:41234",
			RequestHeaders: hdrs(map[string]string{"Accept": "*/*", "Accept-Encoding": "gzip, deflate", "Accept-Language": "en-US", "Connection": "keep-alive",
				"Host": "a.test:41234", "Referer": "http://a.test:41234/index.html", "Sec-Fetch-Dest": "empty", "Sec-Fetch-Mode": "cors", "Sec-Fetch-Site": "same-origin",
				"User-Agent": "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/156.0.0.0 Safari/537.36", "sec-ch-ua": `"Chromium";v="156"`, "sec-ch-ua-platform": `"Linux"`}),
			ResponseHeaders: hdrs(map[string]string{"Content-Length": "64", "Content-Type": "application/json", "Date": "Wed, 02 Dec 2026 01:00:00 GMT",
				"Cache-Control": "no-store", "Connection": "keep-alive", "Keep-Alive": "timeout=5", "X-Fixture": "understudy", "Vary": "Origin"}),
			TransferBytes: 250, Timestamp: "2026-12-02T01:00:00.123456Z", TTFBMs: &ttfb, DurationMs: &dur}
		nw.addLocked(r)
	}
	return nw
}

// BenchmarkReadEncode1000: what network_captured does with 1,000 records
// besides dispatch: read the ring (redacted) and encode it; reflect is
// encoding/json's reflection encoder on the same records, for comparison.
func BenchmarkReadEncode1000(b *testing.B) {
	nw := benchRing(1000)
	b.Run("append", func(b *testing.B) {
		var size int
		c0 := cpuTime()
		for b.Loop() {
			p := nw.Read(ReadOptions{Limit: 1000})
			out := make([]byte, 0, 1<<20)
			for i := range p.Records {
				out = p.Records[i].AppendJSON(out)
			}
			size = len(out)
		}
		b.ReportMetric(float64(cpuTime()-c0)/1e6/float64(b.N), "cpu-ms/op")
		b.ReportMetric(float64(size)/1024, "KiB")
	})
	b.Run("reflect", func(b *testing.B) {
		c0 := cpuTime()
		defer func() { b.ReportMetric(float64(cpuTime()-c0)/1e6/float64(b.N), "cpu-ms/op") }()
		for b.Loop() {
			p := nw.Read(ReadOptions{Limit: 1000})
			plain := make([]plainRecord, len(p.Records))
			for i := range p.Records {
				plain[i] = plainRecord(p.Records[i])
			}
			if _, err := json.Marshal(plain); err != nil {
				b.Fatal(err)
			}
		}
	})
}
