package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/understudy-dev/understudy/internal/cdp"
)

// page is the harness's own CDP connection to the shared tab. It resets the
// page between timed calls (scroll, #status, reload) and checks that a click
// did what it should; it is never on the clock.
type page struct {
	conn *cdp.Conn
}

func dialPage(ctx context.Context, cdpPort int, targetID string) (*page, error) {
	url := "ws://127.0.0.1:" + strconv.Itoa(cdpPort) + "/devtools/page/" + targetID
	c, err := cdp.Dial(ctx, url, nil)
	if err != nil {
		return nil, err
	}
	return &page{conn: c}, nil
}

func (p *page) close() { _ = p.conn.Close() }

// eval runs expr in the page and decodes its value into out (if not nil).
func (p *page) eval(ctx context.Context, expr string, out any) error {
	var res cdp.Evaluated
	err := p.conn.Call(ctx, "Runtime.evaluate", map[string]any{
		"expression": expr, "returnByValue": true, "awaitPromise": true,
	}, &res)
	if err != nil {
		return err
	}
	if text, threw := res.Threw(); threw {
		return fmt.Errorf("page: %s: %s", expr, text)
	}
	if out == nil || len(res.Result.Value) == 0 {
		return nil
	}
	return json.Unmarshal(res.Result.Value, out)
}

// ready reports a loaded large.html with its 300 rows.
const readyJS = `!window.__benchOld && document.readyState === 'complete' && document.querySelectorAll('#items-body tr').length === 300`

// reload reloads the tab and waits until the new document is complete.
func (p *page) reload(ctx context.Context) error {
	if err := p.eval(ctx, "window.__benchOld = true", nil); err != nil {
		return err
	}
	if err := p.conn.Call(ctx, "Page.reload", map[string]any{}, nil); err != nil {
		return err
	}
	return p.waitReady(ctx)
}

func (p *page) waitReady(ctx context.Context) error {
	deadline := time.Now().Add(15 * time.Second)
	for {
		var ok bool
		err := p.eval(ctx, readyJS, &ok)
		if err == nil && ok {
			return nil
		}
		if time.Now().After(deadline) {
			if err == nil {
				err = errors.New("page not ready after 15s")
			}
			return err
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// resetForClick sets #status to Idle, scrolls to the top when scroll is set,
// and reports whether row's Edit button is outside the viewport, once the
// page has rendered the reset.
func (p *page) resetForClick(ctx context.Context, row int, scroll bool) (offscreen bool, err error) {
	// The answer comes once the page has rendered the reset (two animation
	// frames), as a page an agent looks at has: the click does not start
	// in the frame that scrolled.
	js := fmt.Sprintf(`(async () => {
		if (%t) window.scrollTo(0, 0);
		document.querySelector('#status').textContent = 'Idle';
		const r = document.querySelector('#edit-%d').getBoundingClientRect();
		await new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)));
		return r.top > window.innerHeight || r.bottom < 0;
	})()`, scroll, row)
	err = p.eval(ctx, js, &offscreen)
	return offscreen, err
}

func (p *page) status(ctx context.Context) (string, error) {
	var s string
	err := p.eval(ctx, "document.querySelector('#status').textContent", &s)
	return s, err
}
