package cdp

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// FuzzDecodeEnvelope: the one-pass read agrees with a full decode wherever
// that succeeds.
func FuzzDecodeEnvelope(f *testing.F) {
	for _, s := range []string{
		`{"id":1,"result":{}}`,
		`{"method":"Page.loadEventFired","params":{"timestamp":1},"sessionId":"AB"}`,
		`{"id":2,"error":{"code":-32601,"message":"x"}}`,
		`{"method":"Runtime.consoleAPICalled","params":{"args":[{"type":"string","value":"a\\\"}{"}]}}`,
		`{"ID":3,"result":{}}`, `{"id":4,"result":{},"id":5}`, ` {"id" : 6 , "result" : [1,{"a":"]"}] } `,
		`{"i\u0064":7,"result":{}}`, `{"id":8,"result":{},"result":[]}`, `{"id":9,"error":null,"result":null}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		fast, ok := frameOf(b)
		if !ok {
			return
		}
		var full Frame
		if json.Unmarshal(b, &full) == nil && (fast.ID != full.ID || fast.Method != full.Method ||
			fast.SessionID != full.SessionID || string(fast.Params) != string(full.Params) ||
			string(fast.Result) != string(full.Result) || (fast.Error == nil) != (full.Error == nil) ||
			(full.Error != nil && *fast.Error != *full.Error)) {
			t.Fatalf("envelope %+v, full decode %+v of %q", fast, full, b)
		}
	})
}

// TestEventFloodNeverDelaysReplies: the peer floods events of a method whose
// subscriber never reads while calls go back and forth. Every reply comes
// promptly, the subscriber's queue stays at its bound, and what it let go
// is counted.
func TestEventFloodNeverDelaysReplies(t *testing.T) {
	const flood = 20000
	pad := strings.Repeat("x", 1024)
	floodDone := make(chan struct{})
	replies := make(chan []byte) // replies the flooding writer slips in between events
	url, _ := fakeServer(t, func(ctx context.Context, ws *websocket.Conn, f Frame) {
		switch f.Method {
		case "Flood.start":
			send(ctx, ws, map[string]any{"id": f.ID, "result": map[string]any{}})
			for i := 0; i < flood; i++ {
				select {
				case b := <-replies:
					_ = ws.Write(ctx, websocket.MessageText, b)
				default:
				}
				send(ctx, ws, map[string]any{"method": "Runtime.consoleAPICalled", "params": map[string]any{"n": i, "pad": pad}})
				if i%200 == 199 {
					// Bursts, as a page's timer ticks come: what this test
					// measures is the subscriber, not how many frames the
					// kernel's socket buffers hold ahead of a reply.
					time.Sleep(2 * time.Millisecond)
				}
			}
			close(floodDone)
		default:
			b, _ := json.Marshal(map[string]any{"id": f.ID, "result": map[string]any{"ok": true}})
			select {
			case replies <- b:
			case <-floodDone:
				_ = ws.Write(ctx, websocket.MessageText, b)
			}
		}
	})
	ctx := context.Background()
	c, err := Dial(ctx, url, &Options{CallTimeout: 10 * time.Second, SubscriptionQueue: 100})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	events, stop := c.Subscribe("Runtime.consoleAPICalled") // never read during the flood
	defer stop()
	if err := c.Call(ctx, "Flood.start", nil, nil); err != nil {
		t.Fatal(err)
	}
	var worst time.Duration
	calls := 0
	for flooding := true; flooding || calls < 20; calls++ {
		select {
		case <-floodDone:
			flooding = false
		default:
		}
		t0 := time.Now()
		var out struct {
			OK bool `json:"ok"`
		}
		if err := c.Call(ctx, "Ping", nil, &out); err != nil || !out.OK {
			t.Fatalf("call %d during the flood: %v %v", calls, out, err)
		}
		worst = max(worst, time.Since(t0))
	}
	// Generous (a loaded, shared machine; -race): the reader only has the
	// frames before the reply to read, at most a burst or two.
	if worst > 2*time.Second {
		t.Errorf("slowest of %d replies during a %d-event flood took %s", calls, flood, worst)
	}
	// Everything sent has been read once a later reply came.
	var out struct {
		OK bool `json:"ok"`
	}
	if err := c.Call(ctx, "Ping", nil, &out); err != nil {
		t.Fatal(err)
	}
	dropped := c.Stats().DroppedEvents
	got := 0
	for drained := false; !drained; {
		select {
		case <-events:
			got++
		case <-time.After(200 * time.Millisecond):
			drained = true
		}
	}
	// The queue holds 100; the pump may hold one more on its way out.
	if got < 100 || got > 101 || int64(got)+dropped != flood {
		t.Fatalf("subscriber got %d, dropped %d, of %d sent (queue 100)", got, dropped, flood)
	}
	t.Logf("%d calls during the flood, slowest %s; subscriber got %d, dropped %d", calls, worst, got, dropped)
}
