package page

import (
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
