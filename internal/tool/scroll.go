package tool

import (
	"context"

	"github.com/understudy-dev/understudy/internal/act"
)

// electron_scroll and electron_scroll_into_view.

type scrollArgs struct {
	optElementArgs
	act.WheelArgs
}

func (a *scrollArgs) validate() error {
	return checked(func() error { return a.WheelArgs.Check(a.has()) }, a.optElementArgs.validate)
}

func scroll(ctx context.Context, c *Call, a *scrollArgs) (*act.ScrollResult, error) {
	if a.Dx == 0 && a.Dy == 0 {
		r, err := scrollIntoView(ctx, c, &scrollIntoViewArgs{Common: a.Common, RevealArgs: act.RevealArgs{Ref: a.Ref, Selector: a.Selector, TimeoutMs: a.TimeoutMs, AllowChanged: a.AllowChanged}})
		if err != nil {
			return nil, err
		}
		v := r.Revealed
		return &act.ScrollResult{OnSurface: r.OnSurface, InView: v.InView, BBox: v.BBox, WaitedMS: &v.WaitedMS, Ref: v.Ref, Role: v.Role, Name: v.Name,
			ScrolledPages: v.ScrolledPages, RefNotes: r.RefNotes}, nil
	}
	res, f, err := inputFrame(ctx, c)
	if err != nil {
		return nil, err
	}
	return targetOf(c, res, f).Wheel(ctx, a.keys(), a.Dx, a.Dy)
}

// scrollIntoViewArgs are electron_scroll_into_view's arguments.
type scrollIntoViewArgs struct {
	Common
	act.RevealArgs
}

func scrollIntoView(ctx context.Context, c *Call, a *scrollIntoViewArgs) (*act.RevealResult, error) {
	res, f, err := frameOf(ctx, c)
	if err != nil {
		return nil, err
	}
	return targetOf(c, res, f).Reveal(ctx, a.RevealArgs)
}
