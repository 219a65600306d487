package cdp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	cdpproto "github.com/chromedp/cdproto/cdp"
	cdpruntime "github.com/chromedp/cdproto/runtime"
	"github.com/coder/websocket"

	"github.com/understudy-dev/understudy/internal/errs"
)

var _ cdpproto.Session = (*Conn)(nil)
var _ cdpproto.Session = (*Session)(nil)

// fakeServer is a scripted CDP peer: handle gets each incoming frame and the
// socket to answer on.
func fakeServer(t *testing.T, handle func(ctx context.Context, ws *websocket.Conn, f Frame)) (url string, kill func()) {
	t.Helper()
	var mu sync.Mutex
	var conns []*websocket.Conn
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ws, err := websocket.Accept(w, r, nil)
		if err != nil {
			return
		}
		mu.Lock()
		conns = append(conns, ws)
		mu.Unlock()
		ctx := r.Context()
		for {
			_, b, err := ws.Read(ctx)
			if err != nil {
				return
			}
			f, err := DecodeFrame(b)
			if err != nil {
				continue
			}
			go handle(ctx, ws, f)
		}
	}))
	t.Cleanup(srv.Close)
	return "ws" + strings.TrimPrefix(srv.URL, "http"), func() {
		mu.Lock()
		defer mu.Unlock()
		for _, c := range conns {
			_ = c.CloseNow()
		}
	}
}

// pendingCalls is how many calls wait for a reply.
func pendingCalls(c *Conn) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.pending)
}

func send(ctx context.Context, ws *websocket.Conn, v any) {
	b, _ := json.Marshal(v)
	_ = ws.Write(ctx, websocket.MessageText, b)
}

func TestConcurrentCallsMatchedByID(t *testing.T) {
	url, _ := fakeServer(t, func(ctx context.Context, ws *websocket.Conn, f Frame) {
		var p struct{ N int }
		_ = json.Unmarshal(f.Params, &p)
		// Answer in reverse order of arrival: larger N answers sooner.
		time.Sleep(time.Duration(20-p.N) * time.Millisecond)
		send(ctx, ws, map[string]any{"id": f.ID, "sessionId": f.SessionID, "result": map[string]any{"n": p.N, "s": f.SessionID}})
	})
	ctx := context.Background()
	c, err := Dial(ctx, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	var wg sync.WaitGroup
	for i := 0; i < 20; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			sess := ""
			var s cdpproto.Session = c
			if i%2 == 1 {
				sess = "child"
				s = c.Session("child")
			}
			var out struct {
				N int    `json:"n"`
				S string `json:"s"`
			}
			if err := s.Call(ctx, "Test.echo", map[string]int{"N": i}, &out); err != nil {
				t.Error(err)
				return
			}
			if out.N != i || out.S != sess {
				t.Errorf("call %d got %+v", i, out)
			}
		}(i)
	}
	wg.Wait()
}

// Started calls are all on the wire before any reply is awaited: the fake
// answers nothing until it holds three frames, then answers in reverse.
func TestStartPipelines(t *testing.T) {
	var mu sync.Mutex
	var held []Frame
	url, _ := fakeServer(t, func(ctx context.Context, ws *websocket.Conn, f Frame) {
		mu.Lock()
		held = append(held, f)
		if len(held) < 3 {
			mu.Unlock()
			return
		}
		all := held
		held = nil
		mu.Unlock()
		for i := len(all) - 1; i >= 0; i-- {
			if all[i].Method == "Test.fail" {
				send(ctx, ws, map[string]any{"id": all[i].ID, "sessionId": all[i].SessionID, "error": map[string]any{"code": -32000, "message": "no"}})
				continue
			}
			send(ctx, ws, map[string]any{"id": all[i].ID, "sessionId": all[i].SessionID, "result": map[string]any{"m": all[i].Method, "s": all[i].SessionID}})
		}
	})
	ctx := context.Background()
	c, err := Dial(ctx, url, &Options{CallTimeout: 2 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	a, err := c.Start(ctx, "Test.a", nil)
	if err != nil {
		t.Fatal(err)
	}
	b, err := c.Session("child").Start(ctx, "Test.b", map[string]int{"n": 1})
	if err != nil {
		t.Fatal(err)
	}
	f, err := c.Start(ctx, "Test.fail", nil)
	if err != nil {
		t.Fatal(err)
	}
	type out struct {
		M string `json:"m"`
		S string `json:"s"`
	}
	var oa, ob out
	if err := a.Wait(ctx, &oa); err != nil || oa != (out{"Test.a", ""}) {
		t.Fatalf("a: %+v %v", oa, err)
	}
	if err := b.Wait(ctx, &ob); err != nil || ob != (out{"Test.b", "child"}) {
		t.Fatalf("b: %+v %v", ob, err)
	}
	if err := f.Wait(ctx, nil); err == nil || !strings.Contains(err.Error(), "no") {
		t.Fatalf("fail: %v", err)
	}
	// A call nobody answers times out in Wait; the connection stays usable.
	p, err := c.Start(ctx, "Test.never", nil)
	if err != nil {
		t.Fatal(err)
	}
	short, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
	defer cancel()
	if err := p.Wait(short, nil); errs.CodeOf(err) != errs.CDPTimeout {
		t.Fatalf("unanswered: %v", err)
	}
	if n := pendingCalls(c); n != 0 {
		t.Fatalf("%d calls still pending after the timeout", n)
	}
}

func TestTimeoutAndProtocolError(t *testing.T) {
	url, _ := fakeServer(t, func(ctx context.Context, ws *websocket.Conn, f Frame) {
		switch f.Method {
		case "Test.never":
		case "Test.fail":
			send(ctx, ws, map[string]any{"id": f.ID, "error": map[string]any{"code": -32000, "message": "nope"}})
		}
	})
	c, err := Dial(context.Background(), url, &Options{CallTimeout: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	err = c.Call(context.Background(), "Test.never", nil, nil)
	if errs.CodeOf(err) != errs.CDPTimeout {
		t.Fatalf("want CDP_TIMEOUT, got %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Millisecond)
	defer cancel()
	if err := c.Call(ctx, "Test.never", nil, nil); errs.CodeOf(err) != errs.CDPTimeout {
		t.Fatalf("deadline: want CDP_TIMEOUT, got %v", err)
	}
	var pe *ProtocolError
	if err := c.Call(context.Background(), "Test.fail", nil, nil); !errors.As(err, &pe) || pe.Message != "nope" {
		t.Fatalf("want protocol error, got %v", err)
	}
	if n := pendingCalls(c); n != 0 {
		t.Fatalf("%d pending calls left behind", n)
	}
}

func TestDisconnectFailsPendingAtOnce(t *testing.T) {
	started := make(chan struct{}, 10)
	url, kill := fakeServer(t, func(ctx context.Context, ws *websocket.Conn, f Frame) { started <- struct{}{} })
	c, err := Dial(context.Background(), url, &Options{CallTimeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	events, cancel := c.Subscribe("Test.event")
	defer cancel()
	errc := make(chan error, 5)
	for i := 0; i < 5; i++ {
		go func() { errc <- c.Call(context.Background(), "Test.hang", nil, nil) }()
	}
	for i := 0; i < 5; i++ {
		<-started
	}
	t0 := time.Now()
	kill()
	for i := 0; i < 5; i++ {
		if err := <-errc; errs.CodeOf(err) != errs.CDPDisconnected {
			t.Fatalf("want CDP_DISCONNECTED, got %v", err)
		}
	}
	if d := time.Since(t0); d > 2*time.Second {
		t.Fatalf("pending calls failed after %s", d)
	}
	if _, ok := <-events; ok {
		t.Fatal("subscription not closed on disconnect")
	}
	if err := c.Call(context.Background(), "Test.after", nil, nil); errs.CodeOf(err) != errs.CDPDisconnected {
		t.Fatalf("call after disconnect: %v", err)
	}
	<-c.Done()
}

func TestSubscribeUnsubscribeNoLeak(t *testing.T) {
	url, _ := fakeServer(t, func(ctx context.Context, ws *websocket.Conn, f Frame) {
		for i := 0; i < 3; i++ {
			send(ctx, ws, map[string]any{"method": "Test.tick", "params": map[string]int{"i": i}})
			send(ctx, ws, map[string]any{"method": "Test.tick", "sessionId": "s1", "params": map[string]int{"i": 100 + i}})
		}
		send(ctx, ws, map[string]any{"id": f.ID, "result": map[string]any{}})
	})
	c, err := Dial(context.Background(), url, nil)
	if err != nil {
		t.Fatal(err)
	}
	before := runtime.NumGoroutine()
	var raw []string
	var rawMu sync.Mutex
	c.opts.OnEvent = nil
	for round := 0; round < 20; round++ {
		root, cancelRoot := c.Subscribe("Test.tick")
		child, cancelChild := c.Session("s1").Subscribe("Test.tick")
		if err := c.Call(context.Background(), "Test.go", nil, nil); err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 3; i++ {
			var a, b struct{ I int }
			_ = json.Unmarshal(<-root, &a)
			_ = json.Unmarshal(<-child, &b)
			if a.I != i || b.I != 100+i {
				t.Fatalf("round %d: got %d/%d", round, a.I, b.I)
			}
		}
		cancelRoot()
		cancelChild()
		cancelChild() // idempotent
	}
	rawMu.Lock()
	_ = raw
	rawMu.Unlock()
	deadline := time.Now().Add(2 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before {
		t.Fatalf("goroutines: %d before, %d after", before, n)
	}
	c.Close()
}

func TestTypedCallThroughCdproto(t *testing.T) {
	url, _ := fakeServer(t, func(ctx context.Context, ws *websocket.Conn, f Frame) {
		send(ctx, ws, map[string]any{"id": f.ID, "result": map[string]any{"result": map[string]any{"type": "number", "value": 2, "description": "2"}}})
	})
	c, err := Dial(context.Background(), url, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	res, err := cdpproto.Call(context.Background(), c, cdpruntime.Evaluate, cdpruntime.EvaluateParams{Expression: "1+1", ReturnByValue: new(true)})
	if err != nil {
		t.Fatal(err)
	}
	if string(res.Result.Value) != "2" {
		t.Fatalf("value %s", res.Result.Value)
	}
}

func FuzzDecodeFrame(f *testing.F) {
	for _, s := range []string{
		`{"id":1,"result":{}}`,
		`{"method":"Page.loadEventFired","params":{"timestamp":1},"sessionId":"AB"}`,
		`{"id":2,"error":{"code":-32601,"message":"x"}}`,
		`{}`, `[]`, `null`, `{"id":"x"}`, `{"id":1e400}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		fr, err := DecodeFrame(b)
		if err != nil {
			return
		}
		if fr.ID <= 0 && fr.Method == "" {
			t.Fatalf("accepted a frame with neither id nor method: %q", b)
		}
	})
}

// TestProtocolErrorKinds: Chromium's messages map to one sentinel each, so
// callers classify with errors.Is and never read the text themselves.
func TestProtocolErrorKinds(t *testing.T) {
	for _, c := range []struct {
		msg  string
		want error
	}{
		{"Execution context was destroyed.", ErrContextLost},
		{"Inspected target navigated or closed", ErrContextLost},
		{"Cannot find context with specified id", ErrContextLost},
		{"Cannot find default execution context", ErrContextLost},
		{"Frame with the given id was not found.", ErrNotFound},
		{"No frame for given id found", ErrNotFound},
		{"No node found at given location", ErrNotFound},
		{"No node with given id found", ErrNotFound},
		{"Could not compute box model.", ErrNoBoxModel},
		{"Internal error", nil},
		{"'Foo.bar' wasn't found", nil},
	} {
		var err error = fmt.Errorf("wrapped: %w", &ProtocolError{Code: -32000, Message: c.msg})
		for _, k := range []error{ErrContextLost, ErrNotFound, ErrNoBoxModel} {
			if got := errors.Is(err, k); got != (k == c.want) {
				t.Errorf("%q: errors.Is(%v) = %v", c.msg, k, got)
			}
		}
		if KindOf(c.msg) != c.want {
			t.Errorf("KindOf(%q) = %v, want %v", c.msg, KindOf(c.msg), c.want)
		}
	}
}

// A caller whose context ends while its frame is being written gives up its
// own call only: the socket, shared by every caller, stays open. (The
// WebSocket library closes a connection whose write context ends mid-write;
// a dialog that cancels a typing call once ended the window's socket so.)
func TestCancelledCallKeepsTheSocket(t *testing.T) {
	url, _ := fakeServer(t, func(ctx context.Context, ws *websocket.Conn, f Frame) {
		send(ctx, ws, map[string]any{"id": f.ID, "result": map[string]any{}})
	})
	c, err := Dial(context.Background(), url, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	big := map[string]string{"pad": strings.Repeat("x", 30<<10)} // under the fake's read limit
	var wg sync.WaitGroup
	for i := range 400 {
		wg.Go(func() {
			ctx, cancel := context.WithTimeout(context.Background(), time.Duration(i%40)*25*time.Microsecond)
			defer cancel()
			_ = c.Call(ctx, "Test.echo", big, nil)
		})
	}
	wg.Wait()
	if err := c.Err(); err != nil {
		t.Fatalf("the socket ended after cancelled calls: %v", err)
	}
	if err := c.Call(context.Background(), "Test.echo", nil, nil); err != nil {
		t.Fatalf("a call after the cancelled ones: %v", err)
	}
}
