package tool

import (
	"context"
	"time"

	"github.com/understudy-dev/understudy/internal/act"
	"github.com/understudy-dev/understudy/internal/page"
	"github.com/understudy-dev/understudy/internal/secret"
	"github.com/understudy-dev/understudy/internal/surface"
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

// inputResult is what the text tools answer: electron_type and
// electron_clear_input on a field (its value read back), and
// electron_type_into_editor (and those two on an editor or terminal).
type inputResult struct {
	onSurface
	Value    *secret.String `json:"value,omitempty" jsonschema:"what the field or editor holds now ([redacted] in a password field)"`
	Changed  *bool          `json:"changed,omitempty"`
	Altered  bool           `json:"altered,omitempty" jsonschema:"the page changed the text as it was set (a mask, a maxlength)"`
	WaitedMS *int64         `json:"waited_ms,omitempty"`
	act.Inserted
	page.RefNotes
}

func typeIntoEditor(ctx context.Context, c *Call, a *editorArgs) (*inputResult, error) {
	res, f, err := inputFrame(ctx, c)
	if err != nil {
		return nil, err
	}
	loc := a.locator()
	start := time.Now()
	kind, _, err := c.Session.Pages.EditorKind(ctx, f, loc, a.timeout())
	if err != nil {
		return nil, err
	}
	return insertIntoEditor(ctx, c, res, f, loc, kind, *a.Text, a.Replace, max(0, a.timeout()-time.Since(start)))
}

// insertIntoEditor puts text into an editor or terminal (act.IntoEditor)
// and answers as the text tools do; a terminal's text changed when its
// screen did.
func insertIntoEditor(ctx context.Context, c *Call, res *surface.Resolution, f page.Frame, loc page.Locator, kind, text string, replace bool, timeout time.Duration) (*inputResult, error) {
	in, err := targetOf(c, res, f).IntoEditor(ctx, loc, kind, text, replace, timeout)
	if err != nil {
		return nil, err
	}
	out := &inputResult{onSurface: surfaceOf(res), Inserted: *in}
	if in.Editor == page.EditorXterm {
		out.Changed = in.Echoed
	}
	return out, nil
}
