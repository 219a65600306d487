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

type emulationSetArgs struct {
	Common
	Viewport      *emulation.Viewport    `json:"viewport,omitempty" jsonschema:"the emulated screen: width and height in CSS pixels, deviceScaleFactor (0 = the screen's), mobile"`
	Device        string                 `json:"device,omitempty" jsonschema:"a built-in device name (sets viewport and user agent)"`
	ColorScheme   string                 `json:"colorScheme,omitempty" jsonschema:"light, dark or no-preference"`
	ReducedMotion string                 `json:"reducedMotion,omitempty" jsonschema:"reduce or no-preference"`
	ForcedColors  string                 `json:"forcedColors,omitempty" jsonschema:"active or none"`
	Media         string                 `json:"media,omitempty" jsonschema:"screen or print"`
	Timezone      string                 `json:"timezone,omitempty" jsonschema:"an IANA timezone ID like Europe/Berlin"`
	Locale        string                 `json:"locale,omitempty" jsonschema:"a BCP 47 locale like de-DE"`
	Geolocation   *emulation.Geolocation `json:"geolocation,omitempty" jsonschema:"latitude, longitude and accuracy (meters)"`
	CPUThrottle   float64                `json:"cpuThrottle,omitempty" jsonschema:"CPU slowdown factor, 1 = none"`
	UserAgent     string                 `json:"userAgent,omitempty" jsonschema:"the user agent string"`
}

func (a *emulationSetArgs) change() emulation.State {
	return emulation.State{Viewport: a.Viewport, Device: a.Device, ColorScheme: a.ColorScheme, ReducedMotion: a.ReducedMotion,
		ForcedColors: a.ForcedColors, Media: a.Media, Timezone: a.Timezone, Locale: a.Locale, Geolocation: a.Geolocation,
		CPUThrottle: a.CPUThrottle, UserAgent: a.UserAgent}
}

func (a *emulationSetArgs) validate() error {
	c := a.change()
	if c == (emulation.State{}) {
		return errs.BadArg("viewport", "pass at least one field to emulate (or call emulation_reset)")
	}
	return c.Validate()
}

type emulationResult struct {
	WindowID string              `json:"window_id"`
	Emulated emulation.State     `json:"emulated" jsonschema:"every emulation the window has now"`
	Observed *emulation.Observed `json:"observed" jsonschema:"what the window's document reports now"`
}

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

func emulationSet(ctx context.Context, c *Call, a *emulationSetArgs) (*emulationResult, error) {
	return applyEmulation(ctx, c, func(prev emulation.State) emulation.State { return emulation.Merge(prev, a.change()) })
}

func emulationReset(ctx context.Context, c *Call, _ *noArgs) (*emulationResult, error) {
	return applyEmulation(ctx, c, func(emulation.State) emulation.State { return emulation.State{} })
}

func applyEmulation(ctx context.Context, c *Call, next func(emulation.State) emulation.State) (*emulationResult, error) {
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
	s, obs, err := book.Change(ctx, conn, id, next)
	if err != nil {
		return nil, err
	}
	return &emulationResult{WindowID: id, Emulated: s, Observed: obs}, nil
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
