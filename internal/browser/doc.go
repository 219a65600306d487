// Package browser starts, finds and stops the processes understudy drives:
// Chromium browsers and Electron apps that expose the Chrome DevTools
// Protocol on loopback.
//
// The entry points are three. [Launch] starts an executable in its own
// process group and learns its DevTools endpoint (from the
// "DevTools listening on" line, or the DevToolsActivePort file of the
// user-data-dir it owns) and, for a dev launch, the Node inspector URL of
// Electron's main process; the returned [Process] is stopped with
// [Process.Stop] (Browser.close, then SIGTERM, then SIGKILL of the group) or
// [Process.Kill], and leaves no process of its group behind. [Resolve] turns
// a port or a cdpUrl given to attach into an [Endpoint], loopback only; and
// [Discover] probes loopback ports for endpoints. [GetVersion] and
// [ListTargets] read /json/version and /json/list of an endpoint. A
// [Registry] holds the processes a server launched so that it can end them
// all when it exits.
//
// Every failure an agent can see carries a code from internal/errs. Nothing
// here speaks the protocol over a WebSocket: callers pass Browser.close to
// Stop as a function; see internal/cdp for connections.
package browser
