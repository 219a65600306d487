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
	}, withClock((*clock.Clock).InstallAt))
	defineOpt(s, Def{
		Name: "clock_set_time", Title: "Freeze the clock at a time", Class: classAction, Session: true,
		Effects: Effects{Does: kSelect},
		Desc:    "Freeze the clock at time (epoch ms or ISO-8601): Date.now() returns it and no timer fires until clock_advance.",
	}, withClock((*clock.Clock).Freeze))
	defineOpt(s, Def{
		Name: "clock_set_system_time", Title: "Set the running clock's time", Class: classAction, Session: true,
		Effects: Effects{Does: kAct},
		Desc:    "Set the clock to time and let it run with the wall clock (timers fire as real time passes).",
	}, withClock((*clock.Clock).SetSystemTime))
	defineOpt(s, Def{
		Name: "clock_advance", Title: "Advance the clock", Class: classAction, Session: true,
		Effects: Effects{Does: kAct},
		Desc:    "Jump the clock ms forward, firing every timer due on the way in due order across all documents (a repeating timer fires at most once), then hold.",
	}, withClock((*clock.Clock).Jump))
	defineOpt(s, Def{
		Name: "clock_run_for", Title: "Run the clock for a while", Class: classAction, Session: true,
		Effects: Effects{Does: kAct},
		Desc:    "Tick the clock ms forward, firing every timer as it comes due, repeating timers each time (across all documents, in order).",
	}, withClock((*clock.Clock).RunFor))
	defineOpt(s, Def{
		Name: "clock_pause", Title: "Pause the clock at a time", Class: classAction, Session: true,
		Effects: Effects{Does: kSelect},
		Desc:    "Run the clock forward to time (firing the timers due up to it), then hold it there.",
	}, withClock((*clock.Clock).PauseAt))
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

// withClock is a handler that runs op on the session's fake clock with
// the call's option.
func withClock[A any](op func(*clock.Clock, context.Context, A) (*clock.Result, error)) func(context.Context, *Call, *A) (*clock.Result, error) {
	return func(ctx context.Context, c *Call, a *A) (*clock.Result, error) {
		return onClock(c, func(k *clock.Clock) (*clock.Result, error) { return op(k, ctx, *a) })
	}
}

// onClock runs op on the session's clock (session.Clock, created on first
// use).
func onClock(c *Call, op func(k *clock.Clock) (*clock.Result, error)) (*clock.Result, error) {
	k, err := c.Session.Clock()
	if err != nil {
		return nil, err
	}
	return op(k)
}

func clockResume(ctx context.Context, c *Call, _ *noArgs) (*clock.Result, error) {
	return onClock(c, func(k *clock.Clock) (*clock.Result, error) { return k.Resume(ctx) })
}

func clockStatus(ctx context.Context, c *Call, _ *noArgs) (*clock.Result, error) {
	return onClock(c, func(k *clock.Clock) (*clock.Result, error) { return k.Report(ctx) })
}
