package tool

import (
	"context"
	"regexp"

	"github.com/understudy-dev/understudy/internal/assemble"
	"github.com/understudy-dev/understudy/internal/consolelog"
	"github.com/understudy-dev/understudy/internal/errs"
)

// Console messages and uncaught exceptions of every socket a session has
// (pages, webview guests, out-of-process frames) are kept in a bounded
// log per session (internal/consolelog); electron_console_logs reads it.

// maxConsoleMatch bounds the match pattern.
const maxConsoleMatch = 500

func registerConsole(s *Server) {
	define(s, Def{
		Name: "electron_console_logs", Title: "Read console messages", Profiles: "D", Class: classRead, Session: true,
		Effects: Effects{Does: kRead, Page: pageFree, AfterCrash: true},
		Short:   "Console messages and uncaught exceptions of every window and frame, oldest first.",
		Desc:    "Read the console messages (console.log, info, warn, error, debug, …), uncaught exceptions (type exception) and Chromium's own log entries (failed resource loads, security and deprecation reports: type is their level, source says network, security, …) of the app's windows, webview guests and frames, oldest first, each with seq, type, text, source, surface_id (where known), target_id (the page, webview or out-of-process frame it came from), url and line. type, match (a regular expression over the text), since (the next_since of an earlier call) and limit (default 200, max 1000) filter. Capture starts when the session opens, for every window and frame and for those that appear later; understudy keeps the newest 2000 per session; the same message repeated in a row is one entry with count; dropped says how many were let go (older ones, and under a flood messages that came faster than they could be read).",
	}, consoleLogs)
}

// consoleEntry is one entry of electron_console_logs's result.
type consoleEntry = consolelog.Entry

type consoleArgs struct {
	Common
	Type  string `json:"type,omitempty" jsonschema:"only this type: log, info, warning (or warn), error, debug, … or exception"`
	Match string `json:"match,omitempty" jsonschema:"only entries whose text this regular expression matches (RE2 syntax, at most 500 characters)"`
	Since int64  `json:"since,omitempty" jsonschema:"only entries whose seq is greater (next_since of an earlier call)"`
	Limit int    `json:"limit,omitempty" jsonschema:"entries to return, the newest; default 200, max 1000"`
}

func (a *consoleArgs) validate() error {
	switch {
	case len(a.Match) > maxConsoleMatch:
		return errs.BadArg("match", "the pattern is %d characters; at most %d", len(a.Match), maxConsoleMatch)
	case a.Since < 0:
		return errs.BadArg("since", "must be 0 or a seq from an earlier answer")
	case a.Limit < 0 || a.Limit > 1000:
		return errs.BadArg("limit", "must be between 1 and 1000 (default 200)")
	}
	if _, err := regexp.Compile(a.Match); err != nil {
		return errs.BadArg("match", "not a regular expression (RE2 syntax): %v", err)
	}
	return nil
}

// consoleResult is electron_console_logs's result.
type consoleResult struct {
	Entries   []consoleEntry `json:"entries"`
	NextSince int64          `json:"next_since" jsonschema:"pass as since to get only newer entries"`
	Dropped   int64          `json:"dropped" jsonschema:"entries dropped because the log was full"`
}

func consoleLogs(_ context.Context, c *Call, a *consoleArgs) (*consoleResult, error) {
	typ := a.Type
	if typ == "warn" {
		typ = "warning"
	}
	q := consolelog.Query{Type: typ, Since: a.Since, Limit: a.Limit}
	if q.Limit == 0 {
		q.Limit = 200
	}
	if a.Match != "" {
		q.Match = regexp.MustCompile(a.Match) // validated
	}
	p := assemble.Console(c.Session).Read(q) // what came before this call is in the answer
	return &consoleResult{Entries: p.Entries, NextSince: p.NextSince, Dropped: p.Dropped}, nil
}
