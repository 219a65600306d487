// Package assemble builds a session from a browser, its targets and the
// services a session holds: it launches an app or browser (a dev launch
// with its Electron binary, the fuse check and the optional launch-time
// instrumentation shim), or connects to a running one (on loopback, off
// loopback as the operator allowed, or the user's own Chrome found by its
// DevToolsActivePort); it opens the pool of target sockets and the surface
// registry, hangs the session's services on it by their typed keys
// (internal/svc: the dialog log, the console log and its capture, the
// downloads), waits for a renderer and selects the first window. It does
// not publish the session: the caller completes it, publishes it, and
// closes it on any error before that. It owns the arguments of a launch,
// an attach and a probe for endpoints (LaunchArgs, AttachArgs,
// DiscoverArgs: their JSON names, descriptions and Check), keeps a
// launch's arguments in the session for a relaunch and finds them again
// (LaunchArgs.Keep, RelaunchArgs), and makes room for a new session by
// cleaning up ended ones (ReplaceDead). A launch or an attach answers
// Launched (ReadyResult, Attached.Result); Windows lists the window roots
// with the dialog that blocks each (OpenDialog). internal/tool calls it.
package assemble
