// Package grid is a client of a Selenium Grid 4 (ADR-027): it creates a W3C
// WebDriver session (POST /session with the caller's capabilities), reads
// the session's DevTools endpoint from its se:cdp capability, and deletes
// the session (DELETE /session/ID), which frees the grid's slot. It speaks
// WebDriver's JSON over HTTP only; the DevTools socket is the target pool's
// (internal/target in flat mode, ADR-025). The grid's errors become coded
// errors carrying the grid's own message: GRID_NO_SLOT, GRID_SESSION_FAILED,
// GRID_UNREACHABLE. CheckTarget checks a grid URL and capabilities as a
// caller gives them; AlwaysMatch builds the session's capabilities.
package grid
