package tool

import (
	"context"

	"github.com/understudy-dev/understudy/internal/assemble"
	"github.com/understudy-dev/understudy/internal/consolelog"
)

// Console messages and uncaught exceptions of every socket a session has
// (pages, webview guests, out-of-process frames) are kept in a bounded
// log per session (internal/consolelog); electron_console_logs reads it.

func registerConsole(s *Server) {
	defineOpt(s, Def{
		Name: "electron_console_logs", Title: "Read console messages", Profiles: "D", Class: classRead, Session: true,
		Effects: Effects{Does: kRead, Page: pageFree, AfterCrash: true},
		Short:   "Console messages and uncaught exceptions of every window and frame, oldest first.",
		Desc:    "Read the console messages (console.log, info, warn, error, debug, …), uncaught exceptions (type exception) and Chromium's own log entries (failed resource loads, security and deprecation reports: type is their level, source says network, security, …) of the app's windows, webview guests and frames, oldest first, each with seq, type, text, source, surface_id (where known), target_id (the page, webview or out-of-process frame it came from), url and line. type, match (a regular expression over the text), since (the next_since of an earlier call) and limit (default 200, max 1000) filter. Capture starts when the session opens, for every window and frame and for those that appear later; understudy keeps the newest 2000 per session; the same message repeated in a row is one entry with count; dropped says how many were let go (older ones, and under a flood messages that came faster than they could be read).",
	}, consoleLogs)
}

func consoleLogs(_ context.Context, c *Call, a *consolelog.Request) (*consolelog.Result, error) {
	return assemble.Console(c.Session).Answer(*a), nil
}
