package relay

import (
	"context"
	"testing"
	"time"
)

// TestWindowCloseIsThePagesOwn records what docs/relay.md says the relay
// does not prevent: a client's Runtime.evaluate "window.close()" closes an
// app window whose history has one entry (a page can close itself; the
// relay cannot tell the script that does it, see "window.close() in the
// app's window").
func TestWindowCloseIsThePagesOwn(t *testing.T) {
	h := startHostile(t, "/second.html")
	c := dialRaw(t, h.r.WSURL())
	sid, _ := autoAttach(t, c, h.page)
	if got := evalString(t, c, sid, "String(history.length)"); got != "1" {
		t.Fatalf("history.length = %s, want 1", got)
	}
	c.send(sid, "Runtime.evaluate", map[string]any{"expression": "window.close()"})
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		ts, err := h.b.List(ctx)
		cancel()
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for _, x := range ts {
			found = found || x.ID == h.page
		}
		if !found {
			t.Log("window.close() from a client closed the app's window, as docs/relay.md says")
			return
		}
		time.Sleep(200 * time.Millisecond)
	}
	t.Fatal("the app's window is still open after window.close(): docs/relay.md's account of window.close() is out of date")
}
