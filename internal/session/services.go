package session

import (
	"context"

	"github.com/understudy-dev/understudy/internal/cdp"
	"github.com/understudy-dev/understudy/internal/clock"
	"github.com/understudy-dev/understudy/internal/emulation"
	"github.com/understudy-dev/understudy/internal/errs"
	"github.com/understudy-dev/understudy/internal/mainproc"
	"github.com/understudy-dev/understudy/internal/network"
	"github.com/understudy-dev/understudy/internal/surface"
	"github.com/understudy-dev/understudy/internal/svc"
	"github.com/understudy-dev/understudy/internal/target"
)

// The keys of the app-state services a session holds from their first use.
var (
	NetworkKey   = svc.New[*network.Network]("network")
	ClockKey     = svc.New[*clock.Clock]("clock")
	EmulationKey = svc.New[*emulation.Book]("emulation")
)

// Network returns the session's network state, creating it on first use
// with the operator's secret headers and body fields.
func (s *Session) Network(redactHeaders, redactBodyKeys []string) (*network.Network, error) {
	return Attach(s, NetworkKey, func(life context.Context) (*network.Network, func() error, error) {
		n := network.New(network.Config{Pool: s.Pool, Surfaces: s.Surfaces, Life: life, Seq: s.NextSeq,
			Redactor: network.NewRedactor(redactHeaders, redactBodyKeys)})
		return n, n.Close, nil
	})
}

// Clock returns the session's fake clock, creating it on first use.
func (s *Session) Clock() (*clock.Clock, error) {
	return Attach(s, ClockKey, func(life context.Context) (*clock.Clock, func() error, error) {
		k := clock.New(life, s.Pool)
		return k, k.Close, nil
	})
}

// Emulation returns the session's record of what each window was given.
func (s *Session) Emulation() (*emulation.Book, error) {
	return Attach(s, EmulationKey, func(context.Context) (*emulation.Book, func() error, error) {
		b := emulation.NewBook()
		// ADR-008: a window's record goes when its target does.
		unwatch := s.Pool.Watch(func(ch target.Change) {
			if ch.Kind == target.Destroyed {
				b.Forget(ch.Target.ID)
			}
		})
		return b, func() error { unwatch(); return nil }, nil
	})
}

// Emulate changes the active window's emulation (Book.Change), after the
// book forgot the windows the pool no longer knows.
func (s *Session) Emulate(ctx context.Context, next func(emulation.State) emulation.State) (*emulation.Result, error) {
	book, err := s.Emulation()
	if err != nil {
		return nil, err
	}
	book.Prune(func(w string) bool { _, ok := s.Pool.Known(w); return ok })
	id, conn, err := s.activeWindowConn(ctx)
	if err != nil {
		return nil, err
	}
	return book.Change(ctx, conn, id, next)
}

// EmulatedViewport is the viewport emulated in window (a page or webview
// target id), or nil: screenshots and snapshots report it, so an agent
// knows the image and the layout are the emulated size, not the window's.
func (s *Session) EmulatedViewport(window string) *emulation.Viewport {
	if window == "" {
		return nil
	}
	book, err := s.Emulation()
	if err != nil {
		return nil
	}
	if vp := book.Get(window).Viewport; vp != nil {
		v := *vp
		return &v
	}
	return nil
}

// Inspector is the session's main-process inspector URL, or
// TRANSPORT_UNSUPPORTED saying how to get one.
func (s *Session) Inspector() (string, error) {
	if s.InspectorURL != "" {
		return s.InspectorURL, nil
	}
	return "", errs.New(errs.TransportUnsupported, "session %s has no main-process inspector (launch with main, attach with inspectorPort, or electron_inject)", s.ID)
}

// MainConn is the session's connection to its main-process inspector,
// opened on first use.
func (s *Session) MainConn(ctx context.Context) (*cdp.Conn, error) {
	url, err := s.Inspector()
	if err != nil {
		return nil, err
	}
	return Attach(s, mainproc.ConnKey, mainproc.Opener(ctx, url))
}

// Instrument is the session's main-process instrumentation (its own
// inspector connection and lease; restored when the session closes).
func (s *Session) Instrument(ctx context.Context) (*mainproc.Instrument, error) {
	url, err := s.Inspector()
	if err != nil {
		return nil, err
	}
	return Attach(s, mainproc.InstrumentKey, mainproc.NewInstrument(ctx, url))
}

// SurfaceListing lists the session's surfaces (surface.Registry.Listing)
// with the kinds of the roots the main process tells, when the session has
// its inspector (mainproc.ClassifyRoots); without one the roots stay as
// CDP saw them (ADR-029: other).
func (s *Session) SurfaceListing(ctx context.Context) (*surface.Listing, error) {
	l, err := s.Surfaces.Listing(ctx)
	if err != nil {
		return nil, err
	}
	if s.InspectorURL == "" || len(l.Roots()) == 0 {
		return l, nil
	}
	if conn, err := s.MainConn(ctx); err == nil {
		mainproc.ClassifyRoots(ctx, conn, l)
	}
	return l, nil
}
