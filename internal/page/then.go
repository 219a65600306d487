package page

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"time"

	"github.com/understudy-dev/understudy/internal/errs"
)

// ThenPlan is a parsed "then" of an action: what to wait for once the
// action is done and verified, and whether to answer with what changed on
// the surface (since:'last').
type ThenPlan struct {
	Cond    *Condition // nil: only the diff
	What    string     // the condition as given, for messages
	Diff    bool
	Timeout time.Duration
}

// ParseThen reads a "then" value: text=T, selector=S, gone=S or url=U (one
// of them), timeout=MS, diff, joined by ";". BAD_ARGUMENT on "then" names
// what is wrong.
func ParseThen(spec string) (*ThenPlan, error) {
	p := &ThenPlan{Timeout: DefaultActionTimeout}
	for _, part := range strings.Split(spec, ";") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		if part == "diff" {
			p.Diff = true
			continue
		}
		key, val, ok := strings.Cut(part, "=")
		if !ok || val == "" {
			return nil, errs.BadArg("then", "%q is not text=…, selector=…, gone=…, url=…, timeout=MS or diff", part)
		}
		if key != "timeout" && p.Cond != nil {
			return nil, errs.BadArg("then", "one condition to wait for (text, selector, gone or url), not two")
		}
		switch key {
		case "text":
			p.Cond = &Condition{Kind: CondText, Match: &TextMatch{Op: MatchContains, Value: val, Field: "then"}}
		case "selector", "gone":
			state := StateVisible
			if key == "gone" {
				state = StateHidden
			}
			p.Cond = &Condition{Kind: CondSelector, Locator: Locator{Selector: val}, State: state}
		case "url":
			p.Cond = &Condition{Kind: CondURL, Match: &TextMatch{Op: MatchContains, Value: val, Field: "then"}}
		case "timeout":
			ms, err := strconv.Atoi(val)
			if err != nil || ms <= 0 || time.Duration(ms)*time.Millisecond > MaxActionTimeout {
				return nil, errs.BadArg("then", "timeout must be a number of ms from 1 to %d", MaxActionTimeout.Milliseconds())
			}
			p.Timeout = time.Duration(ms) * time.Millisecond
			continue
		default:
			return nil, errs.BadArg("then", "%q is not text, selector, gone, url, timeout or diff", key)
		}
		p.What = part
	}
	if p.Cond == nil && !p.Diff {
		return nil, errs.BadArg("then", "says nothing to wait for or return: give text=…, selector=…, gone=…, url=… or diff")
	}
	if p.Cond != nil && p.Cond.Match != nil {
		if err := p.Cond.Match.Check(); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// ThenResult is what "then" adds to an action's answer.
type ThenResult struct {
	Met      bool   `json:"met" jsonschema:"the condition held (true when only diff was asked)"`
	WaitedMS int64  `json:"waited_ms"`
	Diff     string `json:"diff,omitempty" jsonschema:"the surface's text snapshot since your last snapshot or find (since:'last')"`
}

// RunThen waits for the plan's condition in the surface frame resolves and
// reads the diff, after the action name answered v. A condition that does
// not hold, or a failure on the way, is the action's answer in
// details.result (see ActedThen).
func (s *Store) RunThen(ctx context.Context, frame FrameFunc, name string, p *ThenPlan, v any) (*ThenResult, error) {
	start := time.Now()
	out := &ThenResult{Met: true}
	if p.Cond != nil {
		w, err := s.Wait(ctx, frame, *p.Cond, p.Timeout)
		if err != nil {
			return nil, ActedThen(name, v, err)
		}
		if !w.Met {
			e := errs.New(errs.ExpectationFailed, "%s was done; then %s did not hold within %d ms (last seen: %s)", name, p.What, p.Timeout.Milliseconds(), Clip(string(w.Actual), 200))
			return nil, ActedThen(name, v, e)
		}
	}
	out.WaitedMS = time.Since(start).Milliseconds()
	if p.Diff {
		f, err := frame(ctx)
		if err != nil {
			return nil, ActedThen(name, v, err)
		}
		snap, err := s.Snapshot(ctx, f, SnapshotOptions{Since: "last", Format: "text"})
		if err != nil {
			return nil, ActedThen(name, v, err)
		}
		out.Diff = snap.Text
	}
	return out, nil
}

// ActedThen is a failure of the "then" part of the action name: the action
// happened, its answer v is in details.result and the agent is told not to
// repeat it.
func ActedThen(name string, v any, err error) error {
	out := errs.CopyOf(err, "then")
	if b, jerr := json.Marshal(v); jerr == nil {
		out.Details["result"] = json.RawMessage(b)
	}
	out.Details["acted"] = true
	out.Hint = "The " + name + " itself was done and verified (details.result): do not repeat it. What it was to cause did not happen in time: look at the page (electron_snapshot) and decide."
	return out
}
