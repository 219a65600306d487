package consolelog

import (
	"regexp"

	"github.com/understudy-dev/understudy/internal/errs"
)

// maxMatch bounds a request's match pattern.
const maxMatch = 500

// Request is a read of the log as callers give it: electron_console_logs's
// arguments (their JSON names and descriptions are the tool's).
type Request struct {
	Type  string `json:"type,omitempty" jsonschema:"only this type: log, info, warning (or warn), error, debug, … or exception"`
	Match string `json:"match,omitempty" jsonschema:"only entries whose text this regular expression matches (RE2 syntax, at most 500 characters)"`
	Since int64  `json:"since,omitempty" jsonschema:"only entries whose seq is greater (next_since of an earlier call)"`
	Limit int    `json:"limit,omitempty" jsonschema:"entries to return, the newest; default 200, max 1000"`
}

// Check answers BAD_ARGUMENT naming the field that is out of bounds.
func (r *Request) Check() error {
	switch {
	case len(r.Match) > maxMatch:
		return errs.BadArg("match", "the pattern is %d characters; at most %d", len(r.Match), maxMatch)
	case r.Since < 0:
		return errs.BadArg("since", "must be 0 or a seq from an earlier answer")
	case r.Limit < 0 || r.Limit > 1000:
		return errs.BadArg("limit", "must be between 1 and 1000 (default 200)")
	}
	if _, err := regexp.Compile(r.Match); err != nil {
		return errs.BadArg("match", "not a regular expression (RE2 syntax): %v", err)
	}
	return nil
}

// Result is the answer to a Request.
type Result struct {
	Entries   []Entry `json:"entries"`
	NextSince int64   `json:"next_since" jsonschema:"pass as since to get only newer entries"`
	Dropped   int64   `json:"dropped" jsonschema:"entries dropped because the log was full"`
}

// Answer reads the log for a checked request: warn is warning, the limit
// defaults to 200. What came before the call is in the answer.
func (l *Log) Answer(r Request) *Result {
	typ := r.Type
	if typ == "warn" {
		typ = "warning"
	}
	q := Query{Type: typ, Since: r.Since, Limit: r.Limit}
	if q.Limit == 0 {
		q.Limit = 200
	}
	if r.Match != "" {
		q.Match = regexp.MustCompile(r.Match) // checked
	}
	p := l.Read(q)
	return &Result{Entries: p.Entries, NextSince: p.NextSince, Dropped: p.Dropped}
}
