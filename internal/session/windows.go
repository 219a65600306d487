package session

import (
	"context"
	"sync"
	"time"

	"github.com/understudy-dev/understudy/internal/nav"
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
