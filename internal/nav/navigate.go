package nav

import (
	"context"
	"errors"
	"time"

	"github.com/understudy-dev/understudy/internal/cdp"
	"github.com/understudy-dev/understudy/internal/errs"
)

// WaitUntil is the page event a navigation waits for.
type WaitUntil int

const (
	// Load waits for the load event.
	Load WaitUntil = iota
	// DOMContentLoaded waits for DOMContentLoaded.
	DOMContentLoaded
	// NoWait returns once the browser has started the navigation.
	NoWait
)

// Event is the protocol event w waits for, as named in messages.
func (w WaitUntil) Event() string {
	if w == DOMContentLoaded {
		return "Page.domContentEventFired"
	}
	return "Page.loadEventFired"
}

// Navigation is how a navigation went.
type Navigation struct {
	// SameDocument is true for a fragment or history navigation: no new
	// document was loaded (and none was waited for).
	SameDocument bool
	// Waited is true when the wait event fired.
	Waited bool
}

// ErrRefused is wrapped by Navigate's error when the browser refused the
// URL itself (an invalid URL): the argument is wrong.
var ErrRefused = errors.New("the browser refused the URL")

// RefusedError is the browser's refusal of a URL.
type RefusedError struct{ Message string }

func (e *RefusedError) Error() string { return "the browser refused the URL: " + e.Message }

// Unwrap makes errors.Is(err, ErrRefused) true.
func (e *RefusedError) Unwrap() error { return ErrRefused }

// FailedError is a navigation the browser started and reports failed
// (errorText: net::ERR_NAME_NOT_RESOLVED...).
type FailedError struct{ Text string }

func (e *FailedError) Error() string { return "navigation failed: " + e.Text }

// URLArgError names the url argument in a navigation to url the browser
// refused (BAD_ARGUMENT: the argument is wrong, not the server) or that
// failed; any other error is returned as it is.
func URLArgError(url string, err error) error {
	var refused *RefusedError
	var failed *FailedError
	switch {
	case errors.As(err, &refused):
		// The browser refused the URL itself ("Cannot navigate to
		// invalid URL").
		return errs.BadArg("url", "the browser refused %s: %s; pass an absolute URL with its scheme (https://example.com)", errs.Quote(url), refused.Message)
	case errors.As(err, &failed):
		return errs.New(errs.BadArgument, "url: navigation failed: %s", failed.Text).With("field", "url")
	}
	return err
}

// Navigate loads url in the window and waits for until (up to timeout;
// WAIT_TIMEOUT past it, OPERATION_TIMEOUT when ctx ends first).
func (w Window) Navigate(ctx context.Context, url string, until WaitUntil, timeout time.Duration) (*Navigation, error) {
	event := until.Event()
	if err := w.conn.Call(ctx, "Page.enable", nil, nil); err != nil {
		return nil, err
	}
	events, cancel := w.conn.Subscribe(event)
	defer cancel()
	var nav struct {
		FrameID   string `json:"frameId"`
		LoaderID  string `json:"loaderId"`
		ErrorText string `json:"errorText"`
	}
	if err := w.conn.Call(ctx, "Page.navigate", map[string]any{"url": url}, &nav); err != nil {
		var pe *cdp.ProtocolError
		if errors.As(err, &pe) {
			return nil, &RefusedError{Message: pe.Message}
		}
		return nil, err
	}
	if nav.ErrorText != "" {
		return nil, &FailedError{Text: nav.ErrorText}
	}
	out := &Navigation{SameDocument: nav.LoaderID == ""}
	if until == NoWait || nav.LoaderID == "" {
		return out, nil
	}
	t := time.NewTimer(timeout)
	defer t.Stop()
	select {
	case <-events:
		out.Waited = true
		return out, nil
	case <-t.C:
		return nil, errs.New(errs.WaitTimeout, "%s did not fire within the timeout", event).With("url", url)
	case <-ctx.Done():
		return nil, errs.FromContext(ctx, errs.OperationTimeout, "waiting for "+event)
	}
}
