package capture

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/chromedp/cdproto/cdp/jsonv2"

	"github.com/understudy-dev/understudy/internal/cdp"
	"github.com/understudy-dev/understudy/internal/errs"
)

// Dialog is a JavaScript dialog (alert, confirm, prompt, beforeunload) a
// page opened (Page.javascriptDialogOpening).
type Dialog struct {
	Type          string
	Message       string
	URL           string
	DefaultPrompt string
}

// DialogClosed is a dialog's closing (Page.javascriptDialogClosed).
type DialogClosed struct {
	// Accepted is true when it was accepted (OK).
	Accepted bool
	// UserInput is what a prompt was answered with.
	UserInput string
}

// DialogEvent is a decoded dialog event of a socket: exactly one of Opened
// and Closed is set.
type DialogEvent struct {
	Opened *Dialog
	Closed *DialogClosed
}

// DecodeDialog decodes a socket's event when it is a dialog's opening or
// closing; ok is false for any other event (and for one that does not
// decode).
func DecodeDialog(ev cdp.Event) (DialogEvent, bool) {
	switch ev.Method {
	case "Page.javascriptDialogOpening":
		d, err := decodeOpening(ev.Params)
		if err != nil {
			return DialogEvent{}, false
		}
		return DialogEvent{Opened: d}, true
	case "Page.javascriptDialogClosed":
		var p struct {
			Result    bool   `json:"result"`
			UserInput string `json:"userInput"`
		}
		_ = json.Unmarshal(ev.Params, &p)
		return DialogEvent{Closed: &DialogClosed{Accepted: p.Result, UserInput: p.UserInput}}, true
	}
	return DialogEvent{}, false
}

func decodeOpening(raw []byte) (*Dialog, error) {
	var p struct {
		Type          string `json:"type"`
		Message       string `json:"message"`
		URL           string `json:"url"`
		DefaultPrompt string `json:"defaultPrompt"`
	}
	if err := json.Unmarshal(raw, &p); err != nil {
		return nil, err
	}
	return &Dialog{Type: p.Type, Message: p.Message, URL: p.URL, DefaultPrompt: p.DefaultPrompt}, nil
}

// ErrDialogGone is wrapped by HandleDialog's error when the browser refused
// the answer: the dialog was closed meanwhile (the page went away).
var ErrDialogGone = errors.New("no dialog to answer")

// HandleDialog answers the dialog open on conn: accept (OK, with
// promptText for a prompt when not empty) or dismiss.
// A nil conn (a socket that has none) has nothing to answer either.
func HandleDialog(ctx context.Context, conn *cdp.Conn, accept bool, promptText string) error {
	if conn == nil {
		return ErrDialogGone
	}
	p := map[string]any{"accept": accept}
	if accept && promptText != "" {
		p["promptText"] = promptText
	}
	err := conn.Call(ctx, "Page.handleJavaScriptDialog", p, nil)
	var pe *cdp.ProtocolError
	if errors.As(err, &pe) {
		return errors.Join(ErrDialogGone, err)
	}
	return err
}

// DialogWatch watches sockets for a dialog opening.
type DialogWatch struct {
	chans []<-chan jsonv2.Value
	stops []func()
}

// WatchDialogs starts watching a window's socket and, when not nil and
// not the same, a frame's socket, for a dialog opening; Stop ends it.
func WatchDialogs(window, frame *cdp.Conn) *DialogWatch {
	w := &DialogWatch{}
	if frame == window {
		frame = nil
	}
	for _, c := range []*cdp.Conn{window, frame} {
		if c == nil {
			continue
		}
		ch, stop := c.Subscribe("Page.javascriptDialogOpening")
		w.chans, w.stops = append(w.chans, ch), append(w.stops, stop)
	}
	return w
}

// Stop ends the watch.
func (w *DialogWatch) Stop() {
	for _, s := range w.stops {
		s()
	}
}

// Wait returns the first dialog that opens, or (nil, err) when done
// delivers err first, or OPERATION_TIMEOUT when ctx ends first.
func (w *DialogWatch) Wait(ctx context.Context, done <-chan error) (*Dialog, error) {
	var a, b <-chan jsonv2.Value
	if len(w.chans) > 0 {
		a = w.chans[0]
	}
	if len(w.chans) > 1 {
		b = w.chans[1]
	}
	var raw jsonv2.Value
	select {
	case err := <-done:
		return nil, err
	case raw = <-a:
	case raw = <-b:
	case <-ctx.Done():
		return nil, errs.FromContext(ctx, errs.OperationTimeout, "waiting for the action or a dialog")
	}
	d, err := decodeOpening([]byte(raw))
	if err != nil {
		return nil, errs.Wrap(errs.Internal, err, "decoding a dialog event")
	}
	return d, nil
}
