package tool

import (
	"context"
	"strings"

	"github.com/understudy-dev/understudy/internal/emulation"
)

func registerEmulation(s *Server) {
	defineOpt(s, Def{
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

func emulationSet(ctx context.Context, c *Call, a *emulation.Settings) (*emulation.Result, error) {
	return c.Session.Emulate(ctx, a.Onto)
}

func emulationReset(ctx context.Context, c *Call, _ *noArgs) (*emulation.Result, error) {
	return c.Session.Emulate(ctx, emulation.Cleared)
}

// emulatedViewport is the viewport emulated in window, or nil
// (Session.EmulatedViewport).
func emulatedViewport(c *Call, window string) *emulation.Viewport {
	return c.Session.EmulatedViewport(window)
}
