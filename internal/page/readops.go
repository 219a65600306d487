package page

import (
	"context"
	"time"
)

// The element reads and the find as whole operations (docs/adr/045): each
// answers its result type, with the surface it read in.

// ReadExists answers whether the element l exists in f.
func (s *Store) ReadExists(ctx context.Context, f Frame, l Locator) (*ExistsResult, error) {
	v, err := s.Exists(ctx, f, l)
	if err != nil {
		return nil, err
	}
	return &ExistsResult{SurfaceID: f.SurfaceID, Exists: v}, nil
}

// ReadText answers the visible text of the element l.
func (s *Store) ReadText(ctx context.Context, f Frame, l Locator) (*TextResult, error) {
	t, err := s.GetText(ctx, f, l)
	if err != nil {
		return nil, err
	}
	return &TextResult{SurfaceID: f.SurfaceID, TextRead: t}, nil
}

// ReadValue answers the value of the form control l: a password field's
// value redacted unless reveal.
func (s *Store) ReadValue(ctx context.Context, f Frame, l Locator, reveal bool) (*ValueResult, error) {
	v, err := s.GetValue(ctx, f, l)
	if err != nil {
		return nil, err
	}
	return v.Result(f.SurfaceID, reveal), nil
}

// ReadAttribute answers the attribute a of the element l (null when
// absent): a password field's value redacted unless reveal.
func (s *Store) ReadAttribute(ctx context.Context, f Frame, l Locator, a *AttributeName, reveal bool) (*AttributeResult, error) {
	v, err := s.GetAttribute(ctx, f, l, a.Name)
	if err != nil {
		return nil, err
	}
	if v != nil {
		*v = v.Shown(reveal)
	}
	return &AttributeResult{SurfaceID: f.SurfaceID, Name: a.Name, Value: v}, nil
}

// ReadState answers the state flags of the element l.
func (s *Store) ReadState(ctx context.Context, f Frame, l Locator) (*StateResult, error) {
	v, err := s.GetState(ctx, f, l)
	if err != nil {
		return nil, err
	}
	return &StateResult{SurfaceID: f.SurfaceID, State: v}, nil
}

// ReadBBox answers the box of the element l.
func (s *Store) ReadBBox(ctx context.Context, f Frame, l Locator) (*BBoxResult, error) {
	v, err := s.GetBBox(ctx, f, l)
	if err != nil {
		return nil, err
	}
	return &BBoxResult{SurfaceID: f.SurfaceID, BBox: v}, nil
}

// ReadStyle answers the computed properties q of the element l.
func (s *Store) ReadStyle(ctx context.Context, f Frame, l Locator, q *StyleQuery) (*StyleResult, error) {
	v, err := s.GetComputedStyle(ctx, f, l, q.Properties)
	if err != nil {
		return nil, err
	}
	return &StyleResult{SurfaceID: f.SurfaceID, Style: v}, nil
}

// ReadFocused answers the element that has the focus in f.
func (s *Store) ReadFocused(ctx context.Context, f Frame) (*FocusedResult, error) {
	el, err := s.FocusedElement(ctx, f)
	if err != nil {
		return nil, err
	}
	return &FocusedResult{SurfaceID: f.SurfaceID, Element: el}, nil
}

// Found is a find's answer: the matches, and how far the virtualized lists
// were scrolled (a find of one surface) or which surfaces could not be
// searched (a find of a window's every surface).
type Found struct {
	*FindResult
	ScrolledPages *int `json:"scrolled_pages,omitempty" jsonschema:"with scroll: how many pages the virtualized lists were scrolled"`
	// Skipped names, in a find of every surface, the surfaces that could
	// not be searched (no document yet, or gone during the call).
	Skipped []string `json:"skipped_surfaces,omitempty"`
}

// FindScrolling finds q in f; with sc.Scroll, when nothing rendered
// matches, it scrolls the virtualized lists until a match renders (for
// sc's time, or seekDefault when none was given) and finds again.
func (s *Store) FindScrolling(ctx context.Context, f Frame, q FindQuery, sc *FindScroll, seekDefault time.Duration) (*Found, error) {
	r, err := s.Find(ctx, f, q)
	if err != nil {
		return nil, err
	}
	if !sc.Scroll || r.Count > 0 {
		return &Found{FindResult: r}, nil
	}
	sk, err := s.Seek(ctx, f, q.Seek(), sc.ScrollLimit(seekDefault))
	if err != nil {
		return nil, err
	}
	if r, err = s.Find(ctx, f, q); err != nil {
		return nil, err
	}
	return &Found{FindResult: r, ScrolledPages: &sk.Steps}, nil
}
