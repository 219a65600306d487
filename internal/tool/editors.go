package tool

import (
	"context"

	"github.com/understudy-dev/understudy/internal/act"
)

// electron_type_into_editor: text into code and rich-text editors and
// terminals, read back and compared.

type editorArgs struct {
	actArgs
	act.EditorText
}

func (a *editorArgs) validate() error { return checked(a.EditorText.Check, a.actArgs.validate) }

func typeIntoEditor(ctx context.Context, c *Call, a *editorArgs) (*act.TextResult, error) {
	res, f, err := inputFrame(ctx, c)
	if err != nil {
		return nil, err
	}
	return targetOf(c, res, f).Editor(ctx, a.locator(), *a.Text, a.Replace, a.timeout())
}
