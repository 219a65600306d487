package nav

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"

	"github.com/understudy-dev/understudy/internal/cdp"
)

// Window is the page target behind one socket.
type Window struct{ conn *cdp.Conn }

// On returns the Window on conn.
func On(conn *cdp.Conn) Window { return Window{conn: conn} }

// eval evaluates expr in the main frame's default context and decodes its
// value (by value) into v (nil: ignored).
func (w Window) eval(ctx context.Context, expr string, await bool, v any) error {
	params := map[string]any{"expression": expr}
	if await {
		params["awaitPromise"] = true
	}
	if v == nil {
		return w.conn.Call(ctx, "Runtime.evaluate", params, nil)
	}
	params["returnByValue"] = true
	out := struct {
		Result struct {
			Value any `json:"value"`
		} `json:"result"`
	}{}
	out.Result.Value = v
	return w.conn.Call(ctx, "Runtime.evaluate", params, &out)
}

// BringToFront makes the window the front one and waits two animation
// frames, so it has painted once it is in front.
//
// The two commands go out together and cost one round trip (through a
// Selenium Grid's proxy each one is dear): the target takes them in
// order, and the frames waited for come once the window is shown (a
// hidden page's animation frames wait until it is).
func (w Window) BringToFront(ctx context.Context) error {
	front, err := w.conn.Start(ctx, "Page.bringToFront", nil)
	if err != nil {
		return err
	}
	painted := w.eval(ctx, "new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))", true, nil)
	if err := front.Wait(ctx, nil); err != nil {
		return err
	}
	return painted
}

// Location is the window's main document's URL and title.
type Location struct {
	URL   string
	Title string
}

// Location reads the main document's URL and title.
func (w Window) Location(ctx context.Context) (Location, error) {
	var v []string
	if err := w.eval(ctx, "[location.href, document.title]", false, &v); err != nil {
		return Location{}, err
	}
	if len(v) != 2 {
		return Location{}, errors.New("nav: unexpected location answer")
	}
	return Location{URL: v[0], Title: v[1]}, nil
}

// State is what the window's document says about itself.
type State struct {
	Visible bool   // document.visibilityState is "visible"
	Focused bool   // document.hasFocus()
	Title   string // document.title
}

// State reads the document's visibility, focus and title.
func (w Window) State(ctx context.Context) (State, error) {
	var v []any
	if err := w.eval(ctx, "[document.visibilityState, document.hasFocus(), document.title]", false, &v); err != nil {
		return State{}, err
	}
	if len(v) != 3 {
		return State{}, errors.New("nav: unexpected state answer")
	}
	foc, _ := v[1].(bool)
	title, _ := v[2].(string)
	return State{Visible: v[0] == "visible", Focused: foc, Title: title}, nil
}

// MainDocument says whether the main frame's default context holds the
// document at url past loading: "ready", "loading" or "other document".
// An answer proves the context exists.
func (w Window) MainDocument(ctx context.Context, url string) (string, error) {
	lit, err := json.Marshal(url)
	if err != nil {
		return "", err
	}
	expr := "document.readyState === 'loading' ? 'loading' : (location.href === " + string(lit) + " ? 'ready' : 'other document')"
	var v string
	if err := w.eval(ctx, expr, false, &v); err != nil {
		return "", err
	}
	return v, nil
}

// DescribeAt describes the element the top document has at a point of the
// viewport (tag#id "label"), or "nothing".
func (w Window) DescribeAt(ctx context.Context, x, y float64) (string, error) {
	expr := "((x, y) => { const e = document.elementFromPoint(x, y); if (!e) return 'nothing'; " +
		"const n = e.getAttribute('aria-label') || e.getAttribute('title') || (e.innerText || '').trim().slice(0, 40); " +
		"return e.localName + (e.id ? '#' + e.id : '') + (n ? ' \"' + n + '\"' : ''); })(" + num(x) + ", " + num(y) + ")"
	var v string
	if err := w.eval(ctx, expr, false, &v); err != nil {
		return "", err
	}
	return v, nil
}

// num is a float as a JavaScript number literal.
func num(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

// Loaded reports the main document's URL and whether it finished loading
// (document.readyState is "complete").
func (w Window) Loaded(ctx context.Context) (string, bool, error) {
	var v []any
	if err := w.eval(ctx, "[location.href, document.readyState === 'complete']", false, &v); err != nil {
		return "", false, err
	}
	if len(v) != 2 {
		return "", false, errors.New("nav: unexpected readiness answer")
	}
	u, _ := v[0].(string)
	done, _ := v[1].(bool)
	return u, done, nil
}
