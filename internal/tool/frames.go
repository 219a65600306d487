package tool

import (
	"context"

	"github.com/understudy-dev/understudy/internal/page"
	"github.com/understudy-dev/understudy/internal/surface"
)

// frameOf resolves the active surface to what the page package needs.
func frameOf(ctx context.Context, c *Call) (*surface.Resolution, page.Frame, error) {
	res, err := resolve(ctx, c)
	if err != nil {
		return nil, page.Frame{}, err
	}
	return res, frameAt(res), nil
}

// waitFrame resolves the active surface (or the ref's own) for a wait, again
// after every navigation.
func waitFrame(c *Call) page.FrameFunc {
	return func(ctx context.Context) (page.Frame, error) {
		_, f, err := frameOf(ctx, c)
		return f, err
	}
}

// frameAt is what the page package needs to act in a resolved surface.
func frameAt(res *surface.Resolution) page.Frame {
	return res.Frame()
}

// elementArgs name one element of the active surface.
type elementArgs struct {
	Common
	Ref      int    `json:"ref,omitempty" jsonschema:"a ref from electron_snapshot or electron_find of the active surface"`
	Selector string `json:"selector,omitempty" jsonschema:"a CSS selector in the active surface's document"`
}

func (a *elementArgs) validate() error { return a.locator().Check() }

func (a *elementArgs) locator() page.Locator { return page.Locator{Ref: a.Ref, Selector: a.Selector} }

// inFrame runs op in the frame of the active surface (or the ref's own).
func inFrame[T any](ctx context.Context, c *Call, op func(page.Frame) (T, error)) (T, error) {
	_, f, err := frameOf(ctx, c)
	if err != nil {
		var zero T
		return zero, err
	}
	return op(f)
}

// checked is the first failure of checks, run in order.
func checked(checks ...func() error) error {
	for _, check := range checks {
		if err := check(); err != nil {
			return err
		}
	}
	return nil
}

// revealSecret is the opt-in to see a password field's value.
type revealSecret struct {
	Reveal bool `json:"reveal,omitempty" jsonschema:"show a password (needs --allow-secrets)"`
}

func (r *revealSecret) reveals() bool { return r.Reveal }

// resolve resolves the active surface for a renderer operation and names
// any automatic fallback in the result.
func resolve(ctx context.Context, c *Call) (*surface.Resolution, error) {
	if c.surface != "" { // the ref's own surface (routeRef)
		return c.Session.Surfaces.ResolveID(ctx, c.surface)
	}
	return c.Session.Surfaces.Resolve(ctx)
}
