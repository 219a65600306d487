package tool

import (
	"context"

	"github.com/understudy-dev/understudy/internal/clock"
)

func registerClock(s *Server) {
	defineOpt(s, Def{
		Name: "clock_install", Title: "Install the fake clock", Class: classAction, Session: true,
		Effects: Effects{Does: kAdd},
		Desc:    "Install one fake clock in every document of the session (pages, frames, cross-site OOPIFs, webview guests, and later documents of those windows): Date, performance.now, setTimeout/setInterval, requestAnimationFrame, requestIdleCallback. Starts fixed at time (epoch ms or ISO-8601; default now). Timers set before the install stay real.",
	}, clockInstall)
	defineOpt(s, Def{
		Name: "clock_set_time", Title: "Freeze the clock at a time", Class: classAction, Session: true,
		Effects: Effects{Does: kSelect},
		Desc:    "Freeze the clock at time (epoch ms or ISO-8601): Date.now() returns it and no timer fires until clock_advance.",
	}, clockSetTime)
	defineOpt(s, Def{
		Name: "clock_set_system_time", Title: "Set the running clock's time", Class: classAction, Session: true,
		Effects: Effects{Does: kAct},
		Desc:    "Set the clock to time and let it run with the wall clock (timers fire as real time passes).",
	}, clockSetSystemTime)
	defineOpt(s, Def{
		Name: "clock_advance", Title: "Advance the clock", Class: classAction, Session: true,
		Effects: Effects{Does: kAct},
		Desc:    "Jump the clock ms forward, firing every timer due on the way in due order across all documents (a repeating timer fires at most once), then hold.",
	}, clockAdvance)
	defineOpt(s, Def{
		Name: "clock_run_for", Title: "Run the clock for a while", Class: classAction, Session: true,
		Effects: Effects{Does: kAct},
		Desc:    "Tick the clock ms forward, firing every timer as it comes due, repeating timers each time (across all documents, in order).",
	}, clockRunFor)
	defineOpt(s, Def{
		Name: "clock_pause", Title: "Pause the clock at a time", Class: classAction, Session: true,
		Effects: Effects{Does: kSelect},
		Desc:    "Run the clock forward to time (firing the timers due up to it), then hold it there.",
	}, clockPause)
	define(s, Def{
		Name: "clock_resume", Title: "Resume the clock", Class: classAction, Session: true,
		Effects: Effects{Does: kAct},
		Desc:    "Let the clock run with the wall clock again from where it is.",
	}, clockResume)
	define(s, Def{
		Name: "clock_status", Title: "Clock status", Class: classRead, Session: true,
		Effects: Effects{Does: kRead},
		Desc:    "Whether the clock is installed, its mode (fixed or running), its time, and how many documents and pending timers it governs.",
	}, clockStatus)
}

// The arguments, checks and result are internal/clock's (ops.go).

// onClock runs op on the session's clock (session.Clock, created on first
// use).
func onClock(c *Call, op func(k *clock.Clock) (*clock.Result, error)) (*clock.Result, error) {
	k, err := c.Session.Clock()
	if err != nil {
		return nil, err
	}
	return op(k)
}

func clockInstall(ctx context.Context, c *Call, a *clock.InstallOptions) (*clock.Result, error) {
	return onClock(c, func(k *clock.Clock) (*clock.Result, error) { return k.InstallAt(ctx, *a) })
}

func clockSetTime(ctx context.Context, c *Call, a *clock.TimeArg) (*clock.Result, error) {
	return onClock(c, func(k *clock.Clock) (*clock.Result, error) { return k.Freeze(ctx, *a) })
}

func clockSetSystemTime(ctx context.Context, c *Call, a *clock.TimeArg) (*clock.Result, error) {
	return onClock(c, func(k *clock.Clock) (*clock.Result, error) { return k.SetSystemTime(ctx, *a) })
}

func clockAdvance(ctx context.Context, c *Call, a *clock.Span) (*clock.Result, error) {
	return onClock(c, func(k *clock.Clock) (*clock.Result, error) { return k.Jump(ctx, *a) })
}

func clockRunFor(ctx context.Context, c *Call, a *clock.Span) (*clock.Result, error) {
	return onClock(c, func(k *clock.Clock) (*clock.Result, error) { return k.RunFor(ctx, *a) })
}

func clockPause(ctx context.Context, c *Call, a *clock.TimeArg) (*clock.Result, error) {
	return onClock(c, func(k *clock.Clock) (*clock.Result, error) { return k.PauseAt(ctx, *a) })
}

func clockResume(ctx context.Context, c *Call, _ *noArgs) (*clock.Result, error) {
	return onClock(c, func(k *clock.Clock) (*clock.Result, error) { return k.Resume(ctx) })
}

func clockStatus(ctx context.Context, c *Call, _ *noArgs) (*clock.Result, error) {
	return onClock(c, func(k *clock.Clock) (*clock.Result, error) { return k.Report(ctx) })
}
