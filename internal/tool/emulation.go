package tool

import (
	"context"
	"strings"

	"github.com/understudy-dev/understudy/internal/emulation"
	"github.com/understudy-dev/understudy/internal/errs"
	"github.com/understudy-dev/understudy/internal/session"
	"github.com/understudy-dev/understudy/internal/svc"
	"github.com/understudy-dev/understudy/internal/target"
)

// emulationKey names the session"s emulation.
var emulationKey = svc.New[*emulation.Book]("emulation")

func registerEmulation(s *Server) {
	define(s, Def{
		Name: "emulation_set", Title: "Emulate device and environment", Profiles: "TD", Class: classAction, Session: true,
		Effects: Effects{Does: kSelect},
		Short:   "Emulate a device and its environment in the active window; only the fields given change.",
		Desc:    "Emulate, in the active window: viewport {width, height, deviceScaleFactor, mobile}, device (a built-in name: " + strings.Join(emulation.Devices(), ", ") + "), colorScheme, reducedMotion, forcedColors, media, timezone (IANA), locale (BCP 47), geolocation {latitude, longitude, accuracy}, cpuThrottle (slowdown factor), userAgent. Only the fields given change; the result says what the page now reports.",
	}, emulationSet)
	define(s, Def{
		Name: "emulation_reset", Title: "Reset emulation", Profiles: "TD", Class: classAction, Session: true,
		Effects: Effects{Does: kSelect},
		Short:   "Clear every emulation of the active window.",
		Desc:    "Clear every emulation of the active window: it shows itself as it is again.",
	}, emulationReset)
}

// The arguments, their check and the result are internal/emulation's
// (settings.go).
type emulationSetArgs struct {
	Common
	emulation.Settings
}

func (a *emulationSetArgs) validate() error { return a.Settings.Check() }

// emulationBook is the session's record of what each window was given.
func emulationBook(sess *session.Session) (*emulation.Book, error) {
	return session.Attach(sess, emulationKey, func(context.Context) (*emulation.Book, func() error, error) {
		b := emulation.NewBook()
		// ADR-008: a window's record goes when its target does.
		unwatch := sess.Pool.Watch(func(ch target.Change) {
			if ch.Kind == target.Destroyed {
				b.Forget(ch.Target.ID)
			}
		})
		return b, func() error { unwatch(); return nil }, nil
	})
}

func emulationSet(ctx context.Context, c *Call, a *emulationSetArgs) (*emulation.Result, error) {
	return applyEmulation(ctx, c, a.Settings.Onto)
}

func emulationReset(ctx context.Context, c *Call, _ *noArgs) (*emulation.Result, error) {
	return applyEmulation(ctx, c, emulation.Cleared)
}

// applyEmulation changes the active window's emulation (Book.Change), after
// the book forgot the windows the pool no longer knows.
func applyEmulation(ctx context.Context, c *Call, next func(emulation.State) emulation.State) (*emulation.Result, error) {
	book, err := emulationBook(c.Session)
	if err != nil {
		return nil, err
	}
	book.Prune(func(w string) bool { _, ok := c.Session.Pool.Known(w); return ok })
	id := c.Session.Surfaces.ActiveWindow()
	if id == "" {
		return nil, errs.New(errs.SurfaceClosed, "no live window is selected")
	}
	conn, err := c.Session.Pool.Conn(ctx, id)
	if err != nil {
		return nil, err
	}
	return book.Change(ctx, conn, id, next)
}

// emulatedViewport is the viewport emulated in window (a page or webview
// target id), or nil: screenshots and snapshots report it, so an agent
// knows the image and the layout are the emulated size, not the window's.
func emulatedViewport(c *Call, window string) *emulation.Viewport {
	if window == "" {
		return nil
	}
	book, err := emulationBook(c.Session)
	if err != nil {
		return nil
	}
	if vp := book.Get(window).Viewport; vp != nil {
		v := *vp
		return &v
	}
	return nil
}
