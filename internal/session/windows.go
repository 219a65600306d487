package session

import (
	"context"
	"sync"
	"time"

	"github.com/understudy-dev/understudy/internal/capture"
	"github.com/understudy-dev/understudy/internal/errs"
	"github.com/understudy-dev/understudy/internal/nav"
	"github.com/understudy-dev/understudy/internal/page"
)

// WindowEntry is one window root of a session as the tools list it.
type WindowEntry struct {
	ID        string `json:"id"`
	Index     int    `json:"index"`
	Type      string `json:"type"`
	Title     string `json:"title"`
	URL       string `json:"url"`
	Visible   *bool  `json:"visible,omitempty"`
	Focused   *bool  `json:"focused,omitempty"`
	SurfaceID string `json:"surface_id,omitempty"`
	Active    bool   `json:"active"`
	// Dialog is the JavaScript dialog open in the window, if any: its page
	// runs nothing until it is answered.
	Dialog *DialogBrief `json:"dialog_open,omitempty"`
}

// DialogBrief names a dialog that is waiting for an answer.
type DialogBrief struct {
	Type    string `json:"type"`
	Message string `json:"message"`
}

// ListWindows reads the session's window roots and returns them with the
// active window's id. With probe it also asks each window for its
// visibility and focus (one evaluate per window, in parallel, each within
// 2 s), except a window blocked names a dialog for: its page answers
// nothing until the dialog is answered.
func (s *Session) ListWindows(ctx context.Context, probe bool, blocked func(windowID string) *DialogBrief) ([]WindowEntry, string, error) {
	wins, err := s.Pool.Windows(ctx)
	if err != nil {
		return nil, "", err
	}
	active := s.Surfaces.ActiveWindow()
	out := make([]WindowEntry, len(wins))
	for i, w := range wins {
		out[i] = WindowEntry{ID: w.ID, Index: i, Type: w.Type, Title: w.Title, URL: w.URL,
			Active: w.ID == active}
		out[i].SurfaceID, _ = s.Surfaces.SurfaceOf(w.ID)
	}
	if !probe {
		return out, active, nil
	}
	var wg sync.WaitGroup
	for i := range out {
		if blocked != nil {
			if d := blocked(out[i].ID); d != nil {
				out[i].Dialog = d
				continue
			}
		}
		wg.Add(1)
		go func(e *WindowEntry) {
			defer wg.Done()
			pctx, cancel := context.WithTimeout(ctx, 2*time.Second)
			defer cancel()
			conn, err := s.Pool.Conn(pctx, e.ID)
			if err != nil {
				return
			}
			st, err := nav.On(conn).State(pctx)
			if err != nil {
				return
			}
			vis, foc := st.Visible, st.Focused
			e.Visible, e.Focused = &vis, &foc
			if st.Title != "" {
				e.Title = st.Title
			}
		}(&out[i])
	}
	wg.Wait()
	return out, active, nil
}

// OpenedWindow is a window OpenWindow opened and saw load.
type OpenedWindow struct {
	ID      string
	URL     string // where its document is now
	Title   string
	Windows int // how many windows the app has now
}

// OpenWindow opens a browser window at url and waits, up to timeout, until
// it is listed and its document has loaded. While a hold is registered (a
// network capture, stubs, the clock: ADR-033) the window opens blank and
// goes to url once the hold let it go, and its history then starts at
// url: Chromium attaches a window Target.createTarget opens at a URL after
// that document committed, too late for the hold.
func (s *Session) OpenWindow(ctx context.Context, url string, timeout time.Duration) (*OpenedWindow, error) {
	held := s.Pool.Holding()
	first := url
	if held {
		first = "about:blank"
	}
	id, err := nav.OpenWindow(ctx, s.Pool.Browser(), first)
	if err != nil {
		return nil, err
	}
	deadline := time.Now().Add(timeout)
	if held {
		if err := s.goFirst(ctx, id, url, time.Until(deadline)); err != nil {
			return nil, err
		}
	}
	out := &OpenedWindow{ID: id}
	for {
		wins, err := s.Pool.Windows(ctx)
		if err != nil {
			return nil, err
		}
		found := false
		for _, w := range wins {
			found = found || w.ID == id
		}
		if found {
			out.Windows = len(wins)
			break
		}
		if time.Now().After(deadline) {
			return nil, errs.New(errs.WaitTimeout, "the new window %s is not listed yet", id).With("window_id", id)
		}
		if err := sleep(ctx, 50*time.Millisecond); err != nil {
			return nil, err
		}
	}
	conn, err := s.Pool.Conn(ctx, id)
	if err != nil {
		return nil, err
	}
	win := nav.On(conn)
	for {
		u, done, err := win.Loaded(ctx)
		if err == nil && done && (u != "about:blank" || url == "about:blank") {
			out.URL = u
			break
		}
		if time.Now().After(deadline) {
			return nil, errs.New(errs.WaitTimeout, "the new window %s did not finish loading", id).With("window_id", id).With("url", u)
		}
		if err := sleep(ctx, 50*time.Millisecond); err != nil {
			return nil, err
		}
	}
	if held {
		// Its history starts at the URL, as if it had opened there.
		if err := win.ForgetOtherEntries(ctx); err != nil {
			return nil, err
		}
	}
	if loc, err := win.Location(ctx); err == nil {
		out.URL, out.Title = loc.URL, loc.Title
	}
	return out, nil
}

// goFirst sends a window opened blank to its URL once the pool's hold let
// it go.
func (s *Session) goFirst(ctx context.Context, id, url string, timeout time.Duration) error {
	wait, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	if err := s.Pool.Settle(wait, id); err != nil {
		return err
	}
	conn, err := s.Pool.Conn(ctx, id)
	if err != nil {
		return err
	}
	if _, err := nav.On(conn).Navigate(ctx, url, nav.NoWait, timeout); err != nil {
		return nav.URLArgError(url, err)
	}
	return nil
}

// CloseWindow closes a window and waits, up to 10 s, until it is no longer
// listed; it returns how many windows are left.
func (s *Session) CloseWindow(ctx context.Context, id string) (int, error) {
	if err := nav.CloseWindow(ctx, s.Pool.Browser(), id); err != nil {
		return 0, err
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		wins, err := s.Pool.Windows(ctx)
		if err != nil {
			return 0, err
		}
		gone := true
		for _, w := range wins {
			gone = gone && w.ID != id
		}
		if gone {
			return len(wins), nil
		}
		if time.Now().After(deadline) {
			return 0, errs.New(errs.WaitTimeout, "%s is still listed after the close", id).With("window_id", id)
		}
		if err := sleep(ctx, 50*time.Millisecond); err != nil {
			return 0, err
		}
	}
}

// sleep waits d, or OPERATION_TIMEOUT when ctx ends first.
func sleep(ctx context.Context, d time.Duration) error {
	if !page.Pause(ctx, d) {
		return errs.FromContext(ctx, errs.OperationTimeout, "waiting")
	}
	return nil
}

// ActiveWindowPNG is a PNG of the active surface's window, taken under a
// shared hold of the session within 5 s; nil when it cannot be taken (the
// session ends, no window, a failed shot).
func (s *Session) ActiveWindowPNG() []byte {
	ctx, cancel := context.WithTimeout(s.Context(), 5*time.Second)
	defer cancel()
	hold, err := s.Acquire(ctx, "trace screenshot", Shared)
	if err != nil {
		return nil
	}
	defer hold.Release()
	res, err := s.Surfaces.Resolve(ctx)
	if err != nil || res.InputRoot == nil {
		return nil
	}
	data, err := capture.NewShooter(res.InputRoot).Shot(ctx, capture.ShotOptions{Format: "png"})
	if err != nil {
		return nil
	}
	return data
}
