package tool

import (
	"context"

	"github.com/understudy-dev/understudy/internal/files"
	"github.com/understudy-dev/understudy/internal/network"
	"github.com/understudy-dev/understudy/internal/session"
)

// The network tools keep stagewright's names and result fields
// (network_capture_start, network_captured, network_capture_stop,
// network_stub, network_unstub) and add HAR export and replay and network
// conditions. The work is in internal/network; see docs/network.md.

func registerNetwork(s *Server) {
	defineOpt(s, Def{
		Name: "network_capture_start", Title: "Start network capture", Class: classAction, Session: true,
		Effects: Effects{Does: kAdd},
		Desc:    "Start recording the requests of every window, webview guest and frame of the session (including windows and frames that open later): method, url, resourceType, initiator, status, headers, redirects, failure, fromCache/fromServiceWorker, timing (timestamp, ttfbMs, durationMs), surface_id, window_id, frame_id, and bodies when captureBodies is true (text, or base64 for binary, each capped by maxBodyBytes with *Truncated flags) or \"size\" (lengths only). urls (substrings), globs, regex, methods, resourceTypes and surfaces filter what is recorded; all omitted records everything. The newest 2000 records are kept (overflowed counts older ones let go) and at most bodyBudgetBytes of bodies (default 32 MiB, the oldest bodies go first). Authorization, Cookie, Set-Cookie, Proxy-Authorization and secret-looking body fields are [redacted] in every output.",
	}, onNetwork((*network.Network).CaptureStart))
	define(s, Def{
		Name: "network_captured", Title: "Read captured requests", Class: classRead, Session: true,
		Effects: Effects{Does: kRead, Secrets: true},
		Desc:    "Read the recorded requests, oldest first: events (each with seq, surface_id, window_id, method, url, status, ok, headers, timing, …), count, next_since, overflowed and bodies_dropped. since (a next_since of this tool or of electron_console_logs: both count on one clock), limit (default 200, max 2000), urls/globs/regex/methods/resourceTypes/surfaces filter; inFlight adds requests not finished yet; clear empties the buffer after reading; reveal shows secrets only when the server runs with --allow-secrets.",
	}, networkCaptured)
	define(s, Def{
		Name: "network_capture_stop", Title: "Stop network capture", Class: classAction, Session: true,
		Effects: Effects{Does: kAdd},
		Desc:    "Stop recording requests and clear the buffer; events says how many records it held. Interception by stubs goes on.",
	}, networkCaptureStop)
	defineOpt(s, Def{
		Name: "network_stub", Title: "Stub network requests", Class: classAction, Session: true,
		Effects: Effects{Does: kAct, Reads: []string{"bodyFile"}},
		Desc:    "Answer the requests that match (urls substrings, globs, regex; methods, resourceTypes, surfaces) in every window, webview guest and frame, including ones that open later and across navigations: fulfill (status, headers, contentType, body text, bodyBase64 or bodyFile), abort (a network error: failed, aborted, timedout, accessdenied, connectionrefused, namenotresolved, internetdisconnected, …), or continue with changes (continue: {url, method, headers, postData}). delayMs delays the answer, times expires the stub after that many uses. Stubs are tried in order, first match wins; a request no stub takes goes on unchanged. Returns the stub's id; network_unstub removes it.",
	}, networkStub)
	defineOpt(s, Def{
		Name: "network_unstub", Title: "Remove network stubs", Class: classAction, Session: true,
		Effects: Effects{Does: kSelect},
		Desc:    "Remove stubs: the one with id, the ones whose urls hold url, or all of them when both are omitted; live traffic resumes (interception ends when none remain). Idempotent: unstubbed says how many went.",
	}, onNetwork((*network.Network).Unstub))
	define(s, Def{
		Name: "network_export_har", Title: "Export requests as HAR", Class: classAction, Session: true,
		Effects: Effects{Does: kAdd, Writes: []string{"path"}, Secrets: true},
		Desc:    "Write the recorded requests (since and the filters of network_captured apply) to path as HAR 1.2, which Chrome DevTools imports and Playwright's routeFromHAR replays; bodies are in it when the capture kept them. Secrets are [redacted] unless reveal (needs --allow-secrets). The path must be under the allowed file roots; an existing file is replaced only with overwrite.",
	}, networkExportHAR)
	defineOpt(s, Def{
		Name: "network_replay_har", Title: "Replay requests from a HAR", Class: classAction, Session: true,
		Effects: Effects{Does: kAct, Reads: []string{"path"}},
		Desc:    "Serve the requests that match (urls, globs, regex; all when omitted) from a HAR 1.2 file (written by network_export_har, Playwright's recordHar or Chrome DevTools), by method and URL (and request body when several entries match). A request the HAR lacks is aborted (notFound: abort, the default) or goes to the network (notFound: fallback). Works in every window and frame like network_stub; returns a stub id for network_unstub.",
	}, networkReplayHAR)
	defineOpt(s, Def{
		Name: "network_conditions", Title: "Emulate network conditions", Class: classAction, Session: true,
		Effects: Effects{Does: kSelect},
		Desc:    "Emulate network conditions for one window root (windowId: a window_id from electron_windows_list) or, when omitted, for every window including later ones: offline, latencyMs (added per request), downloadKbps and uploadKbps (kilobits per second; 0 is no limit), cacheDisabled. All omitted or zero clears them. Frames and guests of the window get them too.",
	}, networkConditions)
}

// networkKey names the session's network (session.NetworkKey).
var networkKey = session.NetworkKey

// onNetwork is a handler that runs op on the session's network state.
func onNetwork[A, R any](op func(*network.Network, context.Context, *A) (R, error)) func(context.Context, *Call, *A) (R, error) {
	return func(ctx context.Context, c *Call, a *A) (R, error) {
		n, err := netOf(c)
		if err != nil {
			var none R
			return none, err
		}
		return op(n, ctx, a)
	}
}

// netOf returns the session's network state, creating it on first use.
func netOf(c *Call) (*network.Network, error) {
	return c.Session.Network(c.Server.cfg.RedactHeaders, c.Server.cfg.RedactBodyKeys)
}

type capturedArgs struct {
	Common
	network.CapturedArgs
	Reveal bool `json:"reveal,omitempty" jsonschema:"show secret headers and body fields; needs the server's --allow-secrets"`
}

// A network.CapturedResult encodes itself without reflection (2,000
// records); the envelope takes that path only while it is a jsonAppender.
var _ jsonAppender = (*network.CapturedResult)(nil)

func networkCaptured(_ context.Context, c *Call, a *capturedArgs) (*network.CapturedResult, error) {
	n, err := netOf(c)
	if err != nil {
		return nil, err
	}
	return n.Captured(&a.CapturedArgs, a.Reveal)
}

type captureStopArgs struct {
	Common
}

func networkCaptureStop(ctx context.Context, c *Call, _ *captureStopArgs) (*network.CaptureStopResult, error) {
	n, err := netOf(c)
	if err != nil {
		return nil, err
	}
	return n.CaptureStop(ctx)
}

func networkStub(ctx context.Context, c *Call, a *network.StubArgs) (*network.StubResult, error) {
	s, err := a.Stub(func(p string) (string, error) { return c.Server.files.CheckRead(ctx, "bodyFile", p) })
	if err != nil {
		return nil, err
	}
	n, err := netOf(c)
	if err != nil {
		return nil, err
	}
	return n.StubRequests(ctx, s)
}

func (a *capturedArgs) reveals() bool  { return a.Reveal }
func (a *exportHARArgs) reveals() bool { return a.Reveal }

type exportHARArgs struct {
	Common
	network.ExportHARArgs
	Reveal bool `json:"reveal,omitempty" jsonschema:"keep secret headers and body fields; needs --allow-secrets"`
}

func networkExportHAR(ctx context.Context, c *Call, a *exportHARArgs) (*network.ExportHARResult, error) {
	n, err := netOf(c)
	if err != nil {
		return nil, err
	}
	path, err := c.Server.files.CheckWrite(ctx, "path", a.Path, a.Overwrite)
	if err != nil {
		return nil, err
	}
	// reveal was allowed at the dispatcher (gateArgs); the records' own
	// type redacts the rest.
	data, count, err := n.ExportHAR(&a.ExportHARArgs, a.Reveal, c.Server.cfg.Version)
	if err != nil {
		return nil, err
	}
	if path, err = c.Server.files.Write(ctx, files.Out{Field: "path", Path: path, Overwrite: a.Overwrite}, data); err != nil {
		return nil, err
	}
	return &network.ExportHARResult{Path: path, Entries: count, Bytes: len(data)}, nil
}

func networkReplayHAR(ctx context.Context, c *Call, a *network.ReplayHARArgs) (*network.ReplayHARResult, error) {
	arch, err := network.LoadHAR(a.Path, "path", func(p string) (string, error) { return c.Server.files.CheckRead(ctx, "path", p) })
	if err != nil {
		return nil, err
	}
	n, err := netOf(c)
	if err != nil {
		return nil, err
	}
	return n.ReplayHAR(ctx, a, arch)
}

func networkConditions(ctx context.Context, c *Call, a *network.ConditionsArgs) (*network.ConditionsResult, error) {
	if err := a.CheckWindow(c.Session.Pool); err != nil {
		return nil, err
	}
	n, err := netOf(c)
	if err != nil {
		return nil, err
	}
	return n.ApplyConditions(ctx, a)
}
