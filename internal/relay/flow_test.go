package relay

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/understudy-dev/understudy/internal/cdp"
)

func TestQueueLanesAndLimits(t *testing.T) {
	var drops atomic.Uint64
	q := newOutQueue(3, 6, 1<<20, &drops)
	msg := func(s string) []byte { return []byte(s) }
	for _, s := range []string{"n1", "n2"} {
		if !q.push(msg(s), true) {
			t.Fatal("overflow")
		}
	}
	q.push(msg("r1"), false)
	q.push(msg("n3"), true) // 3 queued: dropped
	q.push(msg("e1"), false)
	if n, d := q.stats(); n != 4 || d != 1 || drops.Load() != 1 {
		t.Fatalf("queued %d dropped %d (%d), want 4 and 1", n, d, drops.Load())
	}
	// The priority lane first, each lane in order.
	var got []string
	for b := q.pop(); b != nil; b = q.pop() {
		got = append(got, string(b))
	}
	if strings.Join(got, ",") != "r1,e1,n1,n2" {
		t.Errorf("order %v, want r1,e1,n1,n2", got)
	}
	// Past the hard limit: overflow, and nothing more is queued.
	for i := 0; i < 6; i++ {
		if !q.push(msg("e"), false) {
			t.Fatalf("overflow at %d", i)
		}
	}
	if q.push(msg("r"), false) {
		t.Error("no overflow past the hard limit")
	}
	if q.push(msg("r"), false) || q.push(msg("n"), true) {
		t.Error("a queue that overflowed took more")
	}
	// Bytes: droppable events go at a quarter of the byte limit, anything
	// at the limit overflows.
	q = newOutQueue(100, 400, 1000, nil)
	q.push(make([]byte, 200), false)
	if !q.push(make([]byte, 100), true) {
		t.Fatal("overflow")
	}
	if n, d := q.stats(); n != 1 || d != 1 {
		t.Errorf("queued %d dropped %d, want a droppable event dropped past a quarter of the bytes", n, d)
	}
	if !q.push(make([]byte, 700), false) || q.push(make([]byte, 200), false) {
		t.Error("the byte limit does not overflow")
	}
}

// floodSession connects a client through the relay to the fake page and
// returns its raw socket and the page session.
func floodSession(t *testing.T, r *Relay) (*websocket.Conn, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	ws, _, err := websocket.Dial(ctx, r.WSURL(), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ws.CloseNow() })
	ws.SetReadLimit(64 << 20)
	if err := ws.Write(ctx, websocket.MessageText, []byte(`{"id":1,"method":"Target.setAutoAttach","params":{"autoAttach":true,"waitForDebuggerOnStart":false,"flatten":true}}`)); err != nil {
		t.Fatal(err)
	}
	sid := ""
	for {
		_, b, err := ws.Read(ctx)
		if err != nil {
			t.Fatal(err)
		}
		var f rawFrame
		_ = json.Unmarshal(b, &f)
		if f.Method == "Target.attachedToTarget" {
			sid = decode[attachedEvent](t, f.Params).SessionID
		}
		if f.ID == 1 {
			break
		}
	}
	if sid == "" {
		t.Fatal("the fake page was not attached")
	}
	return ws, sid
}

func TestSlowClientIsDisconnected(t *testing.T) {
	r := startRelayWith(t, Options{Upstream: startFake(t).endpoint(), QueueLimit: 10, Allow: []string{"Fake.flood"}}, nil)
	ws, sid := floodSession(t, r)
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	// 400 events that may not be dropped, of 64 KiB each: more than the
	// socket buffers hold, so the queue grows while the client reads
	// nothing.
	cmd := `{"id":2,"method":"Fake.flood","params":{"n":400,"size":65536,"method":"Page.lifecycleEvent"},"sessionId":"` + sid + `"}`
	if err := ws.Write(ctx, websocket.MessageText, []byte(cmd)); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(60 * time.Second)
	for r.Stats().SlowDisconnects == 0 {
		if time.Now().After(deadline) {
			t.Fatal("the relay did not disconnect a client that reads nothing")
		}
		time.Sleep(20 * time.Millisecond)
	}
	var err error
	for err == nil {
		_, _, err = ws.Read(ctx)
	}
	var ce websocket.CloseError
	if errors.As(err, &ce) {
		if ce.Code != websocket.StatusPolicyViolation || !strings.Contains(ce.Reason, "fell behind") {
			t.Errorf("close %d %q, want 1008 with a reason", ce.Code, ce.Reason)
		}
	} else {
		t.Logf("the close frame did not arrive (%v); the relay dropped the connection", err)
	}
	// Other clients are unaffected.
	c := dialRaw(t, r.WSURL())
	c.call("", "Browser.getVersion", nil)
}

func TestFloodDropsEventsButNotRepliesOrOthers(t *testing.T) {
	fake := startFake(t)
	r := startRelayWith(t, Options{Upstream: fake.endpoint(), QueueLimit: 50, Allow: []string{"Fake.*"}}, nil)
	ws, sid := floodSession(t, r)
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	const n = 500
	// 32 MiB of events: more than the socket buffers between the relay
	// and the client hold, so the queue fills while the client reads
	// nothing.
	cmd := `{"id":2,"method":"Fake.flood","params":{"n":500,"size":65536,"method":"Network.dataReceived"},"sessionId":"` + sid + `"}`
	if err := ws.Write(ctx, websocket.MessageText, []byte(cmd)); err != nil {
		t.Fatal(err)
	}
	// Read nothing until the fake has sent it all and the relay has read
	// it: then the queue holds the newest bulk events, the Page event and
	// the reply.
	deadline := time.Now().Add(60 * time.Second)
	for fake.floods.Load() == 0 || r.Stats().DroppedEvents == 0 {
		if time.Now().After(deadline) {
			t.Fatalf("the flood did not end in a drop (floods %d, dropped %d)", fake.floods.Load(), r.Stats().DroppedEvents)
		}
		time.Sleep(10 * time.Millisecond)
	}
	time.Sleep(300 * time.Millisecond)
	network, reply, page, lastNetwork := 0, -1, -1, -1
	for i := 0; reply < 0 || page < 0 || r.Stats().DroppedEvents+uint64(network) < n; i++ {
		rctx, rcancel := context.WithTimeout(ctx, 5*time.Second)
		_, b, err := ws.Read(rctx)
		rcancel()
		if err != nil {
			t.Fatalf("read %d: %v (network %d, dropped %d)", i, err, network, r.Stats().DroppedEvents)
		}
		env, err := cdp.ScanEnvelope(b)
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case env.Method == "Network.dataReceived":
			network++
			lastNetwork = i
		case env.Method == "Page.frameNavigated":
			page = i
		case env.IsReply() && env.ID == 2:
			reply = i
		}
	}
	dropped := r.Stats().DroppedEvents
	if dropped == 0 || uint64(network)+dropped != n {
		t.Errorf("got %d network events and dropped %d, want some dropped and %d in all", network, dropped, n)
	}
	if reply > lastNetwork || page > lastNetwork {
		t.Errorf("the reply (%d) or the Page event (%d) waited behind the network flood (last at %d)", reply, page, lastNetwork)
	}
}

func TestCloseEndsClientsWithGoingAway(t *testing.T) {
	r := startRelay(t, startFake(t).endpoint())
	c := dialRaw(t, r.WSURL())
	c.call("", "Browser.getVersion", nil)
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	err := c.waitClosed()
	var ce websocket.CloseError
	if !errors.As(err, &ce) || ce.Code != websocket.StatusGoingAway {
		t.Errorf("after Close: %v, want status 1001", err)
	}
	if r.Err() != nil {
		t.Errorf("Err after Close: %v", r.Err())
	}
}
