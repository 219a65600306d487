// Package consolelog is a session's console log: the console messages,
// uncaught exceptions, Chromium's own log entries and renderer crashes of
// every socket of a session's pool (pages, webview guests, out-of-process
// frames), decoded off the socket readers by a worker and kept in a bounded
// ring with flood control (Log), and the capture that enables Runtime, Page
// and Log on every renderer target as it appears, so that messages and
// dialogs are recorded before any tool acted in a window (Capture). It
// holds state and goroutines; a read of the log as callers give it
// (Request, its Check, Result, Log.Answer) is electron_console_logs's
// arguments and result (ADR-045): internal/assemble attaches a Log and a
// Capture to each session, internal/tool reads the Log for
// electron_console_logs and the trace. Every goroutine it starts runs in a
// group its caller owns (the Log's spawn function, the Capture's Close).
package consolelog
