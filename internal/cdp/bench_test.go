package cdp

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/understudy-dev/understudy/internal/fixture/chromiumtest"
)

// pageWS opens a page in a fresh browser and returns its socket URL.
func pageWS(b *testing.B) string {
	br := chromiumtest.Start(b.Context(), b)
	id, err := br.NewPage(b.Context(), "about:blank")
	if err != nil {
		b.Fatal(err)
	}
	return fmt.Sprintf("ws://127.0.0.1:%d/devtools/page/%s", br.Port, id)
}

// BenchmarkEvaluateOverhead compares a trivial Runtime.evaluate through Conn
// with a bare WebSocket round trip of the same frame on the same page, in
// one run (target: Conn ≤ 1.1× bare).
func BenchmarkEvaluateOverhead(b *testing.B) {
	url := pageWS(b)
	ctx := context.Background()
	bare, _, err := websocket.Dial(ctx, url, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer bare.CloseNow()
	bare.SetReadLimit(64 << 20)
	c, err := Dial(ctx, url, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	params := json.RawMessage(`{"expression":"1","returnByValue":true}`)
	const rounds = 500
	bareRT := func(id int) time.Duration {
		t0 := time.Now()
		msg := fmt.Appendf(nil, `{"id":%d,"method":"Runtime.evaluate","params":%s}`, id, params)
		if err := bare.Write(ctx, websocket.MessageText, msg); err != nil {
			b.Fatal(err)
		}
		for {
			_, data, err := bare.Read(ctx)
			if err != nil {
				b.Fatal(err)
			}
			var f struct {
				ID int `json:"id"`
			}
			_ = json.Unmarshal(data, &f)
			if f.ID == id {
				return time.Since(t0)
			}
		}
	}
	connRT := func() time.Duration {
		t0 := time.Now()
		var out json.RawMessage
		if err := c.Call(ctx, "Runtime.evaluate", params, &out); err != nil {
			b.Fatal(err)
		}
		return time.Since(t0)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		var bs, cs []time.Duration
		for j := 0; j < rounds; j++ { // interleaved so both see the same machine
			bs = append(bs, bareRT(j+1))
			cs = append(cs, connRT())
		}
		mb, mc := med(bs), med(cs)
		b.ReportMetric(float64(mb.Microseconds())/1000, "ms-bare")
		b.ReportMetric(float64(mc.Microseconds())/1000, "ms-conn")
		b.ReportMetric(float64(mc)/float64(mb), "ratio")
	}
}

func med(ds []time.Duration) time.Duration {
	sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
	return ds[len(ds)/2]
}
