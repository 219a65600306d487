package tool

import (
	"context"

	"github.com/understudy-dev/understudy/internal/act"
)

// electron_type_into_editor: text into code and rich-text editors and
// terminals, read back and compared.

type editorArgs struct {
	actArgs
	Text    *string `json:"text" jsonschema:"the text to type; \\n starts a new line"`
	Replace bool    `json:"replace,omitempty" jsonschema:"select everything first, so the text replaces the editor's content"`
}

func (a *editorArgs) validate() error {
	if err := checkText("text", a.Text); err != nil {
		return err
	}
	return a.actArgs.validate()
}

func typeIntoEditor(ctx context.Context, c *Call, a *editorArgs) (*act.TextResult, error) {
	res, f, err := inputFrame(ctx, c)
	if err != nil {
		return nil, err
	}
	return targetOf(c, res, f).Editor(ctx, a.locator(), *a.Text, a.Replace, a.timeout())
}
