package tool

import (
	"context"
	"time"

	"github.com/understudy-dev/understudy/internal/clock"
	"github.com/understudy-dev/understudy/internal/errs"
	"github.com/understudy-dev/understudy/internal/session"
	"github.com/understudy-dev/understudy/internal/svc"
)

// clockKey names the session"s clock.
var clockKey = svc.New[*clock.Clock]("clock")

func registerClock(s *Server) {
	define(s, Def{
		Name: "clock_install", Title: "Install the fake clock", Class: classAction, Session: true,
		Effects: Effects{Does: kAdd},
		Desc:    "Install one fake clock in every document of the session (pages, frames, cross-site OOPIFs, webview guests, and later documents of those windows): Date, performance.now, setTimeout/setInterval, requestAnimationFrame, requestIdleCallback. Starts fixed at time (epoch ms or ISO-8601; default now). Timers set before the install stay real.",
	}, clockInstall)
	define(s, Def{
		Name: "clock_set_time", Title: "Freeze the clock at a time", Class: classAction, Session: true,
		Effects: Effects{Does: kSelect},
		Desc:    "Freeze the clock at time (epoch ms or ISO-8601): Date.now() returns it and no timer fires until clock_advance.",
	}, clockSetTime)
	define(s, Def{
		Name: "clock_set_system_time", Title: "Set the running clock's time", Class: classAction, Session: true,
		Effects: Effects{Does: kAct},
		Desc:    "Set the clock to time and let it run with the wall clock (timers fire as real time passes).",
	}, clockSetSystemTime)
	define(s, Def{
		Name: "clock_advance", Title: "Advance the clock", Class: classAction, Session: true,
		Effects: Effects{Does: kAct},
		Desc:    "Jump the clock ms forward, firing every timer due on the way in due order across all documents (a repeating timer fires at most once), then hold.",
	}, clockAdvance)
	define(s, Def{
		Name: "clock_run_for", Title: "Run the clock for a while", Class: classAction, Session: true,
		Effects: Effects{Does: kAct},
		Desc:    "Tick the clock ms forward, firing every timer as it comes due, repeating timers each time (across all documents, in order).",
	}, clockRunFor)
	define(s, Def{
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

func clockOf(sess *session.Session) (*clock.Clock, error) {
	return session.Attach(sess, clockKey, func(life context.Context) (*clock.Clock, func() error, error) {
		k := clock.New(life, sess.Pool)
		return k, k.Close, nil
	})
}

type clockTimeArgs struct {
	Common
	Time string `json:"time" jsonschema:"epoch ms or ISO-8601"`
}

func (a *clockTimeArgs) validate() error { _, err := clock.ParseTime("time", a.Time); return err }

type clockInstallArgs struct {
	Common
	Time string `json:"time,omitempty" jsonschema:"start time, epoch ms or ISO-8601; default now"`
}

func (a *clockInstallArgs) validate() error {
	if a.Time == "" {
		return nil
	}
	_, err := clock.ParseTime("time", a.Time)
	return err
}

type clockMsArgs struct {
	Common
	Ms float64 `json:"ms" jsonschema:"milliseconds, 0 or more"`
}

func (a *clockMsArgs) validate() error {
	if a.Ms < 0 || a.Ms > 366*24*3600*1000 {
		return errs.BadArg("ms", "must be between 0 and a year")
	}
	return nil
}

type clockResult struct {
	clock.Status
	Fired      int      `json:"fired,omitempty" jsonschema:"timers fired by this call"`
	AdvancedMs *float64 `json:"advancedMs,omitempty"`
	RanForMs   *float64 `json:"ranForMs,omitempty"`
	PausedAt   *float64 `json:"pausedAt,omitempty"`
	Fixed      *float64 `json:"fixed,omitempty"`
	SystemTime *float64 `json:"systemTime,omitempty"`
	Resumed    bool     `json:"resumed,omitempty"`
}

func clockInstall(ctx context.Context, c *Call, a *clockInstallArgs) (*clockResult, error) {
	k, err := clockOf(c.Session)
	if err != nil {
		return nil, err
	}
	t := float64(time.Now().UnixMilli())
	if a.Time != "" {
		t, _ = clock.ParseTime("time", a.Time)
	}
	st, err := k.Install(ctx, t)
	if err != nil {
		return nil, err
	}
	return &clockResult{Status: st}, nil
}

func clockSetTime(ctx context.Context, c *Call, a *clockTimeArgs) (*clockResult, error) {
	k, err := clockOf(c.Session)
	if err != nil {
		return nil, err
	}
	t, _ := clock.ParseTime("time", a.Time)
	st, err := k.SetTime(ctx, t, clock.Fixed)
	if err != nil {
		return nil, err
	}
	return &clockResult{Status: st, Fixed: &t}, nil
}

func clockSetSystemTime(ctx context.Context, c *Call, a *clockTimeArgs) (*clockResult, error) {
	k, err := clockOf(c.Session)
	if err != nil {
		return nil, err
	}
	t, _ := clock.ParseTime("time", a.Time)
	st, err := k.SetTime(ctx, t, clock.Running)
	if err != nil {
		return nil, err
	}
	return &clockResult{Status: st, SystemTime: &t}, nil
}

func clockAdvance(ctx context.Context, c *Call, a *clockMsArgs) (*clockResult, error) {
	k, err := clockOf(c.Session)
	if err != nil {
		return nil, err
	}
	n, st, err := k.Advance(ctx, a.Ms, true)
	if err != nil {
		return nil, err
	}
	return &clockResult{Status: st, Fired: n, AdvancedMs: &a.Ms}, nil
}

func clockRunFor(ctx context.Context, c *Call, a *clockMsArgs) (*clockResult, error) {
	k, err := clockOf(c.Session)
	if err != nil {
		return nil, err
	}
	n, st, err := k.Advance(ctx, a.Ms, false)
	if err != nil {
		return nil, err
	}
	return &clockResult{Status: st, Fired: n, RanForMs: &a.Ms}, nil
}

func clockPause(ctx context.Context, c *Call, a *clockTimeArgs) (*clockResult, error) {
	k, err := clockOf(c.Session)
	if err != nil {
		return nil, err
	}
	t, _ := clock.ParseTime("time", a.Time)
	now, ok := k.Now()
	if ok && t < now {
		return nil, errs.BadArg("time", "is before the clock's time %s; use clock_set_time to go back", time.UnixMilli(int64(now)).UTC().Format(time.RFC3339Nano))
	}
	if _, err := k.SetMode(ctx, clock.Fixed); err != nil {
		return nil, err
	}
	now, _ = k.Now()
	n, st, err := k.Advance(ctx, max(0, t-now), false)
	if err != nil {
		return nil, err
	}
	return &clockResult{Status: st, Fired: n, PausedAt: &t}, nil
}

func clockResume(ctx context.Context, c *Call, _ *noArgs) (*clockResult, error) {
	k, err := clockOf(c.Session)
	if err != nil {
		return nil, err
	}
	st, err := k.SetMode(ctx, clock.Running)
	if err != nil {
		return nil, err
	}
	return &clockResult{Status: st, Resumed: true}, nil
}

func clockStatus(ctx context.Context, c *Call, _ *noArgs) (*clockResult, error) {
	k, err := clockOf(c.Session)
	if err != nil {
		return nil, err
	}
	st, err := k.Status(ctx)
	if err != nil {
		return nil, err
	}
	return &clockResult{Status: st}, nil
}
