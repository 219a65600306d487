package dialogs

import (
	"context"
	"errors"
	"os"
	"testing"
	"time"

	"github.com/understudy-dev/understudy/internal/errs"
	"github.com/understudy-dev/understudy/internal/errs/errstest"
	"github.com/understudy-dev/understudy/internal/leakcheck"
)

func TestMain(m *testing.M) { os.Exit(leakcheck.Main(m.Run)) }

// TestDuringStops: a watch with no dialog yields nothing and its stop
// joins its goroutine (leakcheck), whether the call's context ended first
// or not.
func TestDuringStops(t *testing.T) {
	l := New(func(func(context.Context)) bool { return false })
	same := func(id string) string { return id }
	blocking := func(*Event) error { return errors.New("blocked") }
	out, stop := l.During(t.Context(), func() string { return "" }, same, time.Millisecond, blocking)
	time.Sleep(20 * time.Millisecond)
	stop()
	select {
	case err := <-out:
		t.Errorf("no dialog, yet %v", err)
	default:
	}
	ctx, cancel := context.WithCancel(t.Context())
	_, stop = l.During(ctx, func() string { return "W1" }, same, time.Millisecond, blocking)
	cancel()
	stop()
}

// TestRequestCheckNamesTheField: Check refuses a bad request with a
// BAD_ARGUMENT naming the field, and passes good ones.
func TestRequestCheckNamesTheField(t *testing.T) {
	for _, c := range []struct {
		name  string
		r     Request
		field string
	}{
		{"read", Request{}, ""},
		{"accept", Request{Action: "accept", PromptText: "x", OneShot: true, Type: "prompt", Limit: 200}, ""},
		{"action", Request{Action: "yes"}, "action"},
		{"type", Request{Type: "modal"}, "type"},
		{"since", Request{Since: -1}, "since"},
		{"limit", Request{Limit: 201}, "limit"},
		{"prompt text", Request{Action: "dismiss", PromptText: "x"}, "promptText"},
		{"one shot", Request{Action: "off", OneShot: true}, "oneShot"},
	} {
		errstest.CheckField(t, c.name, c.r.Check(), c.field)
	}
}

// TestBlockingNamesTheDialog: DIALOG_OPEN names the tool, the dialog and
// its window, and its surface only when one is known.
func TestBlockingNamesTheDialog(t *testing.T) {
	d := &Event{Seq: 3, Type: "confirm", Message: "Sure?", WindowID: "T1"}
	var e *errs.Error
	if !errors.As(d.Blocking("tool_x", "W1", ""), &e) || e.Code != errs.DialogOpen {
		t.Fatalf("got %v", e)
	}
	if _, ok := e.Details["surface_id"]; ok || e.Details["window_id"] != "W1" || len(e.NextActions) != 2 {
		t.Errorf("details %v, next %v", e.Details, e.NextActions)
	}
	if want := `tool_x: a confirm dialog is open in window W1 ("Sure?") and its page runs nothing until it is answered`; e.Message != want {
		t.Errorf("message %q, want %q", e.Message, want)
	}
	if !errors.As(d.Blocking("tool_x", "W1", "s1"), &e) || e.Details["surface_id"] != "s1" {
		t.Errorf("surface: %v", e.Details)
	}
}
