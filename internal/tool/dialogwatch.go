package tool

import (
	"context"

	capt "github.com/understudy-dev/understudy/internal/capture"

	"github.com/understudy-dev/understudy/internal/assemble"
	"github.com/understudy-dev/understudy/internal/dialogs"
	"github.com/understudy-dev/understudy/internal/surface"
)

// Input that opens a JavaScript dialog: the page stops until it is
// answered, so the tool answers at once with dialog_opened.

// dialogOpened is a JavaScript dialog that input opened (dialogs.Opened).
type dialogOpened = dialogs.Opened

// watchDialogs runs input that may open a JavaScript dialog. The page then
// stops until the dialog is answered, and so does the reply to the input
// event that opened it: when a dialog opens, watchDialogs returns it at
// once and leaves the input call to end with the tool call.
func watchDialogs(ctx context.Context, c *Call, res *surface.Resolution, run func() error) (*dialogOpened, error) {
	w := capt.WatchDialogs(res.InputRoot, res.Eval)
	defer w.Stop()
	done := make(chan error, 1)
	c.Go(func() { done <- run() }) // joined by the dispatcher when the call ends
	d, err := w.Wait(ctx, done)
	if d == nil {
		return nil, err
	}
	return dialogNote(c, &dialogOpened{Type: d.Type, Message: d.Message, URL: d.URL, DefaultPrompt: d.DefaultPrompt,
		Note: "the page shows this dialog and waits for an answer (electron_dialog_handler); until then it runs no script"}), nil
}

// dialogNote says in the dialog's note whether the armed policy of
// electron_dialog_handler answered it already.
func dialogNote(c *Call, d *dialogOpened) *dialogOpened {
	if e := assemble.Dialogs(c.Session).Find(d.Type, d.Message); e != nil && e.By == "policy" {
		d.Note = "electron_dialog_handler's armed policy " + e.Answer + " it"
	}
	return d
}
