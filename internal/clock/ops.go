package clock

import (
	"context"
	"time"

	"github.com/understudy-dev/understudy/internal/errs"
)

// The clock tools' arguments (their JSON names and descriptions are the
// tools' input schemas), their checks, their result, and the Clock
// operations that answer them. internal/tool embeds the arguments and
// returns the result as it is.

// TimeArg is a time the clock is set or paused at.
type TimeArg struct {
	Time string `json:"time" jsonschema:"epoch ms or ISO-8601"`
}

// Check parses the time (field time).
func (a TimeArg) Check() error { _, err := ParseTime("time", a.Time); return err }

// at is the checked time, epoch ms.
func (a TimeArg) at() float64 { t, _ := ParseTime("time", a.Time); return t }

// InstallOptions is when an installed clock starts.
type InstallOptions struct {
	Time string `json:"time,omitempty" jsonschema:"start time, epoch ms or ISO-8601; default now"`
}

// Check parses the time when there is one (field time).
func (o InstallOptions) Check() error {
	if o.Time == "" {
		return nil
	}
	_, err := ParseTime("time", o.Time)
	return err
}

// Span is how far the clock moves.
type Span struct {
	Ms float64 `json:"ms" jsonschema:"milliseconds, 0 or more"`
}

// Check wants 0 to a year (field ms).
func (s Span) Check() error {
	if s.Ms < 0 || s.Ms > 366*24*3600*1000 {
		return errs.BadArg("ms", "must be between 0 and a year")
	}
	return nil
}

// Result is the clock after a tool's call, with what the call did.
type Result struct {
	Status
	Fired      int      `json:"fired,omitempty" jsonschema:"timers fired by this call"`
	AdvancedMs *float64 `json:"advancedMs,omitempty"`
	RanForMs   *float64 `json:"ranForMs,omitempty"`
	PausedAt   *float64 `json:"pausedAt,omitempty"`
	Fixed      *float64 `json:"fixed,omitempty"`
	SystemTime *float64 `json:"systemTime,omitempty"`
	Resumed    bool     `json:"resumed,omitempty"`
}

// InstallAt installs the clock at o.Time, or now, fixed (Install).
func (c *Clock) InstallAt(ctx context.Context, o InstallOptions) (*Result, error) {
	t := float64(time.Now().UnixMilli())
	if o.Time != "" {
		t, _ = ParseTime("time", o.Time)
	}
	st, err := c.Install(ctx, t)
	if err != nil {
		return nil, err
	}
	return &Result{Status: st}, nil
}

// Freeze sets the clock to a.Time and holds it there.
func (c *Clock) Freeze(ctx context.Context, a TimeArg) (*Result, error) {
	t := a.at()
	st, err := c.SetTime(ctx, t, Fixed)
	if err != nil {
		return nil, err
	}
	return &Result{Status: st, Fixed: &t}, nil
}

// SetSystemTime sets the clock to a.Time and lets it run with the wall
// clock.
func (c *Clock) SetSystemTime(ctx context.Context, a TimeArg) (*Result, error) {
	t := a.at()
	st, err := c.SetTime(ctx, t, Running)
	if err != nil {
		return nil, err
	}
	return &Result{Status: st, SystemTime: &t}, nil
}

// Jump moves the clock s.Ms forward, firing each due timer once, then
// holds (Advance with jump).
func (c *Clock) Jump(ctx context.Context, s Span) (*Result, error) {
	n, st, err := c.Advance(ctx, s.Ms, true)
	if err != nil {
		return nil, err
	}
	return &Result{Status: st, Fired: n, AdvancedMs: &s.Ms}, nil
}

// RunFor ticks the clock s.Ms forward, firing timers as they come due,
// repeating ones each time.
func (c *Clock) RunFor(ctx context.Context, s Span) (*Result, error) {
	n, st, err := c.Advance(ctx, s.Ms, false)
	if err != nil {
		return nil, err
	}
	return &Result{Status: st, Fired: n, RanForMs: &s.Ms}, nil
}

// PauseAt runs the clock forward to a.Time, firing the timers due up to it,
// and holds it there; a time before the clock's is BAD_ARGUMENT on time.
func (c *Clock) PauseAt(ctx context.Context, a TimeArg) (*Result, error) {
	t := a.at()
	now, ok := c.Now()
	if ok && t < now {
		return nil, errs.BadArg("time", "is before the clock's time %s; use clock_set_time to go back", time.UnixMilli(int64(now)).UTC().Format(time.RFC3339Nano))
	}
	if _, err := c.SetMode(ctx, Fixed); err != nil {
		return nil, err
	}
	now, _ = c.Now()
	n, st, err := c.Advance(ctx, max(0, t-now), false)
	if err != nil {
		return nil, err
	}
	return &Result{Status: st, Fired: n, PausedAt: &t}, nil
}

// Resume lets the clock run with the wall clock from where it is.
func (c *Clock) Resume(ctx context.Context) (*Result, error) {
	st, err := c.SetMode(ctx, Running)
	if err != nil {
		return nil, err
	}
	return &Result{Status: st, Resumed: true}, nil
}

// Report is the clock's Status as a Result.
func (c *Clock) Report(ctx context.Context) (*Result, error) {
	st, err := c.Status(ctx)
	if err != nil {
		return nil, err
	}
	return &Result{Status: st}, nil
}
