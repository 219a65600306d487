package tool

import (
	"context"
	"encoding/base64"
	"slices"
	"strconv"
	"strings"

	"github.com/understudy-dev/understudy/internal/errs"
	"github.com/understudy-dev/understudy/internal/files"
	"github.com/understudy-dev/understudy/internal/network"
	"github.com/understudy-dev/understudy/internal/session"
	"github.com/understudy-dev/understudy/internal/svc"
)

// networkKey names the session"s network.
var networkKey = svc.New[*network.Network]("network")

// The network tools keep stagewright's names and result fields
// (network_capture_start, network_captured, network_capture_stop,
// network_stub, network_unstub) and add HAR export and replay and network
// conditions. The work is in internal/network; see docs/network.md.

const (
	// maxStubBodyFile bounds a stub's bodyFile and a HAR read for replay.
	maxStubBodyFile = 16 << 20
	maxHARFile      = 256 << 20
)

func registerNetwork(s *Server) {
	define(s, Def{
		Name: "network_capture_start", Title: "Start network capture", Class: classAction, Session: true,
		Effects: Effects{Does: kAdd},
		Desc:    "Start recording the requests of every window, webview guest and frame of the session (including windows and frames that open later): method, url, resourceType, initiator, status, headers, redirects, failure, fromCache/fromServiceWorker, timing (timestamp, ttfbMs, durationMs), surface_id, window_id, frame_id, and bodies when captureBodies is true (text, or base64 for binary, each capped by maxBodyBytes with *Truncated flags) or \"size\" (lengths only). urls (substrings), globs, regex, methods, resourceTypes and surfaces filter what is recorded; all omitted records everything. The newest 2000 records are kept (overflowed counts older ones let go) and at most bodyBudgetBytes of bodies (default 32 MiB, the oldest bodies go first). Authorization, Cookie, Set-Cookie, Proxy-Authorization and secret-looking body fields are [redacted] in every output.",
	}, networkCaptureStart)
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
	define(s, Def{
		Name: "network_stub", Title: "Stub network requests", Class: classAction, Session: true,
		Effects: Effects{Does: kAct, Reads: []string{"bodyFile"}},
		Desc:    "Answer the requests that match (urls substrings, globs, regex; methods, resourceTypes, surfaces) in every window, webview guest and frame, including ones that open later and across navigations: fulfill (status, headers, contentType, body text, bodyBase64 or bodyFile), abort (a network error: failed, aborted, timedout, accessdenied, connectionrefused, namenotresolved, internetdisconnected, …), or continue with changes (continue: {url, method, headers, postData}). delayMs delays the answer, times expires the stub after that many uses. Stubs are tried in order, first match wins; a request no stub takes goes on unchanged. Returns the stub's id; network_unstub removes it.",
	}, networkStub)
	define(s, Def{
		Name: "network_unstub", Title: "Remove network stubs", Class: classAction, Session: true,
		Effects: Effects{Does: kSelect},
		Desc:    "Remove stubs: the one with id, the ones whose urls hold url, or all of them when both are omitted; live traffic resumes (interception ends when none remain). Idempotent: unstubbed says how many went.",
	}, networkUnstub)
	define(s, Def{
		Name: "network_export_har", Title: "Export requests as HAR", Class: classAction, Session: true,
		Effects: Effects{Does: kAdd, Writes: []string{"path"}, Secrets: true},
		Desc:    "Write the recorded requests (since and the filters of network_captured apply) to path as HAR 1.2, which Chrome DevTools imports and Playwright's routeFromHAR replays; bodies are in it when the capture kept them. Secrets are [redacted] unless reveal (needs --allow-secrets). The path must be under the allowed file roots; an existing file is replaced only with overwrite.",
	}, networkExportHAR)
	define(s, Def{
		Name: "network_replay_har", Title: "Replay requests from a HAR", Class: classAction, Session: true,
		Effects: Effects{Does: kAct, Reads: []string{"path"}},
		Desc:    "Serve the requests that match (urls, globs, regex; all when omitted) from a HAR 1.2 file (written by network_export_har, Playwright's recordHar or Chrome DevTools), by method and URL (and request body when several entries match). A request the HAR lacks is aborted (notFound: abort, the default) or goes to the network (notFound: fallback). Works in every window and frame like network_stub; returns a stub id for network_unstub.",
	}, networkReplayHAR)
	define(s, Def{
		Name: "network_conditions", Title: "Emulate network conditions", Class: classAction, Session: true,
		Effects: Effects{Does: kSelect},
		Desc:    "Emulate network conditions for one window root (windowId: a window_id from electron_windows_list) or, when omitted, for every window including later ones: offline, latencyMs (added per request), downloadKbps and uploadKbps (kilobits per second; 0 is no limit), cacheDisabled. All omitted or zero clears them. Frames and guests of the window get them too.",
	}, networkConditions)
}

// netOf returns the session's network state, creating it on first use.
func netOf(c *Call) (*network.Network, error) { return netFor(c.Server, c.Session) }

// netFor returns sess's network state, creating it on first use.
func netFor(s *Server, sess *session.Session) (*network.Network, error) {
	cfg := s.cfg
	return session.Attach(sess, networkKey, func(life context.Context) (*network.Network, func() error, error) {
		n := network.New(network.Config{Pool: sess.Pool, Surfaces: sess.Surfaces, Life: life, Seq: sess.NextSeq,
			Redactor: network.NewRedactor(cfg.RedactHeaders, cfg.RedactBodyKeys)})
		return n, n.Close, nil
	})
}

// netFilter are the match fields every network tool shares.
type netFilter struct {
	URLs          []string `json:"urls,omitempty" jsonschema:"URL substrings; a request matches when its URL contains any"`
	Globs         []string `json:"globs,omitempty" jsonschema:"URL globs (* any run of characters, ? one character), matched against the whole URL"`
	Regex         string   `json:"regex,omitempty" jsonschema:"an RE2 regular expression searched in the URL"`
	Methods       []string `json:"methods,omitempty" jsonschema:"HTTP methods (case-insensitive)"`
	ResourceTypes []string `json:"resourceTypes,omitempty" jsonschema:"resource types: document, stylesheet, image, media, font, script, xhr, fetch, websocket, other, …"`
	Surfaces      []string `json:"surfaces,omitempty" jsonschema:"surface ids (electron_surfaces_list) the request must come from"`
}

func (f netFilter) compile() (*network.Matcher, error) {
	return network.Compile(network.Match{URLs: f.URLs, Globs: f.Globs, Regex: f.Regex, Methods: f.Methods, Types: f.ResourceTypes, Surfaces: f.Surfaces}, "")
}

func (f netFilter) hasURL() bool { return len(f.URLs) > 0 || len(f.Globs) > 0 || f.Regex != "" }

type captureStartArgs struct {
	Common
	netFilter
	CaptureBodies    any      `json:"captureBodies,omitempty" jsonschema:"true: keep request and response bodies (text, or base64 for binary, capped by maxBodyBytes); \"size\": only their lengths; default false"`
	MaxBodyBytes     int      `json:"maxBodyBytes,omitempty" jsonschema:"cap of one body in bytes; default 65536, at most 4194304"`
	BodyContentTypes []string `json:"bodyContentTypes,omitempty" jsonschema:"keep bodies only of content types containing one of these (json, text/html, …); default all"`
	BodyBudgetBytes  int64    `json:"bodyBudgetBytes,omitempty" jsonschema:"bytes of bodies kept in all; default 33554432 (32 MiB); the oldest bodies go first"`
}

func (a *captureStartArgs) bodies() (string, error) {
	switch v := a.CaptureBodies.(type) {
	case nil:
		return "", nil
	case bool:
		if v {
			return "full", nil
		}
		return "", nil
	case string:
		switch v {
		case "size":
			return "size", nil
		case "true":
			return "full", nil
		case "false", "":
			return "", nil
		}
	}
	return "", errs.BadArg("captureBodies", "must be true, false or \"size\"")
}

func (a *captureStartArgs) validate() error {
	if _, err := a.bodies(); err != nil {
		return err
	}
	switch {
	case a.MaxBodyBytes < 0 || a.MaxBodyBytes > network.MaxBodyBytesLimit:
		return errs.BadArg("maxBodyBytes", "must be between 1 and %d", network.MaxBodyBytesLimit)
	case a.BodyBudgetBytes < 0 || a.BodyBudgetBytes > 1<<30:
		return errs.BadArg("bodyBudgetBytes", "must be between 1 and %d", 1<<30)
	}
	_, err := a.compile()
	return err
}

// CaptureStartResult is network_capture_start's answer.
type CaptureStartResult struct {
	Capturing bool     `json:"capturing"`
	URLs      []string `json:"urls,omitempty"`
	Methods   []string `json:"methods,omitempty"`
	// Targets is how many targets (windows, guests, frames) record now.
	Targets int `json:"targets"`
	// FailedTargets did not answer in time (a page stopped by a dialog,
	// say); a later change of the target retries.
	FailedTargets []network.Failure `json:"failed_targets,omitempty"`
}

func networkCaptureStart(ctx context.Context, c *Call, a *captureStartArgs) (*CaptureStartResult, error) {
	n, err := netOf(c)
	if err != nil {
		return nil, err
	}
	m, _ := a.compile()
	bodies, _ := a.bodies()
	k, fails, err := n.StartCaptureChecked(ctx, network.CaptureOptions{Match: m, Bodies: bodies, MaxBodyBytes: a.MaxBodyBytes, BodyTypes: a.BodyContentTypes, BodyBudget: a.BodyBudgetBytes})
	if err != nil {
		return nil, err
	}
	return &CaptureStartResult{Capturing: true, URLs: a.URLs, Methods: a.Methods, Targets: k, FailedTargets: fails}, nil
}

type capturedArgs struct {
	Common
	netFilter
	Since    int64 `json:"since,omitempty" jsonschema:"only records whose seq is greater (next_since of an earlier network_captured or electron_console_logs)"`
	Limit    int   `json:"limit,omitempty" jsonschema:"records to return, the newest; default 200, max 2000"`
	Clear    bool  `json:"clear,omitempty" jsonschema:"empty the buffer after reading"`
	InFlight bool  `json:"inFlight,omitempty" jsonschema:"also list requests not finished yet (inFlight:true, no seq)"`
	Reveal   bool  `json:"reveal,omitempty" jsonschema:"show secret headers and body fields; needs the server's --allow-secrets"`
}

func (a *capturedArgs) validate() error {
	switch {
	case a.Since < 0:
		return errs.BadArg("since", "must be 0 or a seq from an earlier answer")
	case a.Limit < 0 || a.Limit > 2000:
		return errs.BadArg("limit", "must be between 1 and 2000 (default 200)")
	}
	_, err := a.compile()
	return err
}

// CapturedResult is network_captured's answer.
type CapturedResult struct {
	Count  int              `json:"count"`
	Events []network.Record `json:"events"`
	// Total is how many records matched, before limit.
	Total         int   `json:"total"`
	NextSince     int64 `json:"next_since"`
	Overflowed    int64 `json:"overflowed"`
	BodiesDropped int64 `json:"bodies_dropped"`
	// Untracked counts requests not recorded because too many were in
	// flight at once.
	Untracked int64 `json:"untracked,omitempty"`
	Capturing bool  `json:"capturing"`
}

// appendJSON encodes the answer as encoding/json would (the records
// encode themselves, see network.Record.AppendJSON).
func (r *CapturedResult) appendJSON(b []byte) []byte {
	size := 256
	for i := range r.Events {
		e := &r.Events[i]
		size += 512 + len(e.URL) + e.RequestBody.Len() + e.ResponseBody.Len() + 64*(len(e.RequestHeaders)+len(e.ResponseHeaders))
	}
	b = slices.Grow(b, size)
	b = append(b, `{"count":`...)
	b = strconv.AppendInt(b, int64(r.Count), 10)
	b = append(b, `,"events":`...)
	if r.Events == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i := range r.Events {
			if i > 0 {
				b = append(b, ',')
			}
			b = r.Events[i].AppendJSON(b)
		}
		b = append(b, ']')
	}
	b = append(b, `,"total":`...)
	b = strconv.AppendInt(b, int64(r.Total), 10)
	b = append(b, `,"next_since":`...)
	b = strconv.AppendInt(b, r.NextSince, 10)
	b = append(b, `,"overflowed":`...)
	b = strconv.AppendInt(b, r.Overflowed, 10)
	b = append(b, `,"bodies_dropped":`...)
	b = strconv.AppendInt(b, r.BodiesDropped, 10)
	if r.Untracked != 0 {
		b = append(b, `,"untracked":`...)
		b = strconv.AppendInt(b, r.Untracked, 10)
	}
	b = append(b, `,"capturing":`...)
	b = strconv.AppendBool(b, r.Capturing)
	return append(b, '}')
}

func networkCaptured(_ context.Context, c *Call, a *capturedArgs) (*CapturedResult, error) {
	n, err := netOf(c)
	if err != nil {
		return nil, err
	}
	if !n.Capturing() && n.Stats().Records == 0 {
		return nil, errs.New(errs.NotCapturing, "no network capture is running")
	}
	m, _ := a.compile()
	limit := a.Limit
	if limit == 0 {
		limit = 200
	}
	p := n.Read(network.ReadOptions{Since: a.Since, Limit: limit, Match: m, Clear: a.Clear, Reveal: a.Reveal, InFlight: a.InFlight})
	if p.Records == nil {
		p.Records = []network.Record{}
	}
	return &CapturedResult{Count: len(p.Records), Events: p.Records, Total: p.Total, NextSince: p.NextSince, Overflowed: p.Overflowed,
		BodiesDropped: p.BodiesDropped, Untracked: p.Lost, Capturing: n.Capturing()}, nil
}

type captureStopArgs struct {
	Common
}

// CaptureStopResult is network_capture_stop's answer.
type CaptureStopResult struct {
	Stopped bool `json:"stopped"`
	// Events is how many records the buffer held.
	Events int `json:"events"`
}

func networkCaptureStop(ctx context.Context, c *Call, _ *captureStopArgs) (*CaptureStopResult, error) {
	n, err := netOf(c)
	if err != nil {
		return nil, err
	}
	p, err := n.StopCapture(ctx)
	if err != nil && errs.CodeOf(err) == errs.NotCapturing {
		return nil, err
	}
	// A target that could not drop the Network domain still records
	// nothing: capture is off here.
	return &CaptureStopResult{Stopped: true, Events: p.Total}, nil
}

type continueArgs struct {
	URL      string            `json:"url,omitempty" jsonschema:"send the request to this URL instead"`
	Method   string            `json:"method,omitempty" jsonschema:"use this method instead"`
	Headers  map[string]string `json:"headers,omitempty" jsonschema:"headers to set (an empty value removes the header)"`
	PostData *string           `json:"postData,omitempty" jsonschema:"send this body instead"`
}

type stubArgs struct {
	Common
	netFilter
	Status      int               `json:"status,omitempty" jsonschema:"fulfil with this status (100-599, default 200)"`
	Headers     map[string]string `json:"headers,omitempty" jsonschema:"response headers of the fulfilled response"`
	ContentType string            `json:"contentType,omitempty" jsonschema:"Content-Type of the fulfilled response"`
	Body        *string           `json:"body,omitempty" jsonschema:"response body text"`
	BodyBase64  string            `json:"bodyBase64,omitempty" jsonschema:"response body as base64 (binary)"`
	BodyFile    string            `json:"bodyFile,omitempty" jsonschema:"absolute path of a file (under the allowed roots) whose bytes are the response body, at most 16 MiB"`
	Abort       string            `json:"abort,omitempty" jsonschema:"fail the request with this network error instead: failed, aborted, timedout, accessdenied, connectionclosed, connectionreset, connectionrefused, connectionaborted, connectionfailed, namenotresolved, internetdisconnected, addressunreachable, blockedbyclient, blockedbyresponse"`
	Continue    *continueArgs     `json:"continue,omitempty" jsonschema:"send the request on to the network, changed"`
	DelayMs     int               `json:"delayMs,omitempty" jsonschema:"wait this long before answering (at most 60000)"`
	Times       int               `json:"times,omitempty" jsonschema:"remove the stub after this many requests; default unlimited"`
}

func (a *stubArgs) validate() error {
	if !a.hasURL() {
		return errs.BadArg("urls", "name the requests to stub: urls, globs or regex (\"*\" in globs takes every request)")
	}
	fulfil := a.Status != 0 || len(a.Headers) > 0 || a.ContentType != "" || a.Body != nil || a.BodyBase64 != "" || a.BodyFile != ""
	bodies := 0
	for _, set := range []bool{a.Body != nil, a.BodyBase64 != "", a.BodyFile != ""} {
		if set {
			bodies++
		}
	}
	switch {
	case a.Abort != "" && (fulfil || a.Continue != nil):
		return errs.BadArg("abort", "abort cannot go with a fulfilled response (status, headers, contentType, body…) or continue")
	case a.Continue != nil && fulfil:
		return errs.BadArg("continue", "continue cannot go with a fulfilled response (status, headers, contentType, body…)")
	case a.Abort != "":
		if _, ok := network.AbortReason(a.Abort); !ok {
			return errs.BadArg("abort", "%q is not a network error; one of %s", a.Abort, strings.Join(network.AbortNames(), ", "))
		}
	case a.Status != 0 && (a.Status < 100 || a.Status > 599):
		return errs.BadArg("status", "must be between 100 and 599")
	case bodies > 1:
		return errs.BadArg("body", "pass one of body, bodyBase64 and bodyFile")
	case a.DelayMs < 0 || a.DelayMs > 60000:
		return errs.BadArg("delayMs", "must be between 0 and 60000")
	case a.Times < 0:
		return errs.BadArg("times", "must be 0 (unlimited) or more")
	}
	if a.BodyBase64 != "" {
		if _, err := base64.StdEncoding.DecodeString(a.BodyBase64); err != nil {
			return errs.BadArg("bodyBase64", "not base64: %v", err)
		}
	}
	if a.Continue != nil && a.Continue.URL != "" && !strings.Contains(a.Continue.URL, "://") {
		return errs.BadArg("continue.url", "must be an absolute URL")
	}
	for k := range a.Headers {
		if strings.TrimSpace(k) == "" || strings.ContainsAny(k, ":\r\n") {
			return errs.BadArg("headers", "%q is not a header name", k)
		}
	}
	_, err := a.compile()
	return err
}

// StubResult is network_stub's answer.
type StubResult struct {
	Stubbed bool   `json:"stubbed"`
	ID      string `json:"id"`
	Action  string `json:"action"`
	Abort   string `json:"abort,omitempty"`
	// Targets is how many targets intercept now.
	Targets       int               `json:"targets"`
	FailedTargets []network.Failure `json:"failed_targets,omitempty"`
}

func networkStub(ctx context.Context, c *Call, a *stubArgs) (*StubResult, error) {
	m, _ := a.compile()
	s := &network.Stub{Match: m, Status: a.Status, Headers: a.Headers, ContentType: a.ContentType, Abort: strings.ToLower(a.Abort), DelayMs: a.DelayMs, Times: a.Times}
	switch {
	case a.Body != nil:
		s.Body = []byte(*a.Body)
	case a.BodyBase64 != "":
		s.Body, _ = base64.StdEncoding.DecodeString(a.BodyBase64)
	case a.BodyFile != "":
		path, err := c.Server.files.CheckRead(ctx, "bodyFile", a.BodyFile)
		if err != nil {
			return nil, err
		}
		if s.Body, err = network.ReadBounded(path, maxStubBodyFile, "bodyFile"); err != nil {
			return nil, err
		}
	}
	if a.Continue != nil {
		s.Continue = &network.Continue{URL: a.Continue.URL, Method: a.Continue.Method, Headers: a.Continue.Headers, PostData: a.Continue.PostData}
	}
	n, err := netOf(c)
	if err != nil {
		return nil, err
	}
	id, k, fails, err := n.AddStubChecked(ctx, s)
	if err != nil {
		return nil, err
	}
	return &StubResult{Stubbed: true, ID: id, Action: s.Action(), Abort: s.Abort, Targets: k, FailedTargets: fails}, nil
}

type unstubArgs struct {
	Common
	ID  string `json:"id,omitempty" jsonschema:"the id network_stub or network_replay_har returned"`
	URL string `json:"url,omitempty" jsonschema:"remove the stubs whose urls list holds exactly this entry"`
}

// UnstubResult is network_unstub's answer.
type UnstubResult struct {
	Unstubbed int      `json:"unstubbed"`
	IDs       []string `json:"ids"`
	// Remaining is how many stubs are still active.
	Remaining int `json:"remaining"`
}

func networkUnstub(ctx context.Context, c *Call, a *unstubArgs) (*UnstubResult, error) {
	n, err := netOf(c)
	if err != nil {
		return nil, err
	}
	ids, err := n.RemoveStubs(ctx, a.ID, a.URL)
	if err != nil {
		return nil, errs.Wrap(errs.CodeOf(err), err, "ending interception")
	}
	if ids == nil {
		ids = []string{}
	}
	return &UnstubResult{Unstubbed: len(ids), IDs: ids, Remaining: len(n.Stubs())}, nil
}

func (a *capturedArgs) reveals() bool  { return a.Reveal }
func (a *exportHARArgs) reveals() bool { return a.Reveal }

type exportHARArgs struct {
	Common
	netFilter
	Path      string `json:"path" jsonschema:"where to write the HAR (absolute, or relative to the artifacts folder), under the allowed file roots"`
	Overwrite bool   `json:"overwrite,omitempty" jsonschema:"replace an existing file this server did not write"`
	Since     int64  `json:"since,omitempty" jsonschema:"only records whose seq is greater"`
	Reveal    bool   `json:"reveal,omitempty" jsonschema:"keep secret headers and body fields; needs --allow-secrets"`
}

func (a *exportHARArgs) validate() error {
	if a.Path == "" {
		return errs.BadArg("path", "required")
	}
	if a.Since < 0 {
		return errs.BadArg("since", "must be 0 or a seq from an earlier answer")
	}
	_, err := a.compile()
	return err
}

// ExportHARResult is network_export_har's answer.
type ExportHARResult struct {
	Path    string `json:"path"`
	Entries int    `json:"entry_count"`
	Bytes   int    `json:"bytes"`
}

func networkExportHAR(ctx context.Context, c *Call, a *exportHARArgs) (*ExportHARResult, error) {
	n, err := netOf(c)
	if err != nil {
		return nil, err
	}
	m, _ := a.compile()
	path, err := c.Server.files.CheckWrite(ctx, "path", a.Path, a.Overwrite)
	if err != nil {
		return nil, err
	}
	// reveal was allowed at the dispatcher (gateArgs); the records' own
	// type redacts the rest.
	p := n.Read(network.ReadOptions{Since: a.Since, Match: m, Reveal: a.Reveal})
	data, count, err := network.HAR(p.Records, c.Server.cfg.Version)
	if err != nil {
		return nil, err
	}
	if path, err = c.Server.files.Write(ctx, files.Out{Field: "path", Path: path, Overwrite: a.Overwrite}, data); err != nil {
		return nil, err
	}
	return &ExportHARResult{Path: path, Entries: count, Bytes: len(data)}, nil
}

type replayHARArgs struct {
	Common
	netFilter
	Path     string `json:"path" jsonschema:"absolute path of a HAR 1.2 file under the allowed file roots"`
	NotFound string `json:"notFound,omitempty" jsonschema:"a matching request the HAR lacks: abort (default) or fallback (to the network)"`
}

func (a *replayHARArgs) validate() error {
	if a.Path == "" {
		return errs.BadArg("path", "required")
	}
	if a.NotFound != "" && a.NotFound != "abort" && a.NotFound != "fallback" {
		return errs.BadArg("notFound", "must be abort or fallback")
	}
	_, err := a.compile()
	return err
}

// ReplayHARResult is network_replay_har's answer.
type ReplayHARResult struct {
	ID            string            `json:"id"`
	Entries       int               `json:"entry_count"`
	NotFound      string            `json:"notFound"`
	Targets       int               `json:"targets"`
	FailedTargets []network.Failure `json:"failed_targets,omitempty"`
}

func networkReplayHAR(ctx context.Context, c *Call, a *replayHARArgs) (*ReplayHARResult, error) {
	path, err := c.Server.files.CheckRead(ctx, "path", a.Path)
	if err != nil {
		return nil, err
	}
	data, err := network.ReadBounded(path, maxHARFile, "path")
	if err != nil {
		return nil, err
	}
	check := func(p string) (string, error) { return c.Server.files.CheckRead(ctx, "path", p) }
	data, open, err := network.HARSource(path, data, maxHARFile, "path", check)
	if err != nil {
		return nil, err
	}
	arch, err := network.ParseHARFiles(data, open)
	if err != nil {
		return nil, err
	}
	m, _ := a.compile()
	nf := a.NotFound
	if nf == "" {
		nf = "abort"
	}
	n, err := netOf(c)
	if err != nil {
		return nil, err
	}
	id, k, fails, err := n.AddStubChecked(ctx, &network.Stub{Match: m, HAR: arch, NotFound: nf})
	if err != nil {
		return nil, err
	}
	return &ReplayHARResult{ID: id, Entries: arch.Count, NotFound: nf, Targets: k, FailedTargets: fails}, nil
}

type conditionsArgs struct {
	Common
	WindowID      string  `json:"windowId,omitempty" jsonschema:"the window root (a window_id of electron_windows_list); omitted: every window, including later ones"`
	Offline       bool    `json:"offline,omitempty" jsonschema:"fail every request as offline"`
	LatencyMs     float64 `json:"latencyMs,omitempty" jsonschema:"latency added to each request, in ms"`
	DownloadKbps  float64 `json:"downloadKbps,omitempty" jsonschema:"download limit in kilobits per second; 0 no limit"`
	UploadKbps    float64 `json:"uploadKbps,omitempty" jsonschema:"upload limit in kilobits per second; 0 no limit"`
	CacheDisabled bool    `json:"cacheDisabled,omitempty" jsonschema:"bypass the HTTP cache"`
}

func (a *conditionsArgs) validate() error {
	switch {
	case a.LatencyMs < 0 || a.LatencyMs > 60000:
		return errs.BadArg("latencyMs", "must be between 0 and 60000")
	case a.DownloadKbps < 0:
		return errs.BadArg("downloadKbps", "must be 0 (no limit) or more")
	case a.UploadKbps < 0:
		return errs.BadArg("uploadKbps", "must be 0 (no limit) or more")
	}
	return nil
}

// ConditionsResult is network_conditions's answer.
type ConditionsResult struct {
	WindowID      string             `json:"windowId,omitempty"`
	Conditions    network.Conditions `json:"conditions"`
	Cleared       bool               `json:"cleared"`
	Targets       int                `json:"targets"`
	FailedTargets []network.Failure  `json:"failed_targets,omitempty"`
}

func networkConditions(ctx context.Context, c *Call, a *conditionsArgs) (*ConditionsResult, error) {
	if a.WindowID != "" {
		if _, ok := c.Session.Pool.Known(a.WindowID); !ok {
			return nil, errs.New(errs.SurfaceNotFound, "no window %q; pass a window_id of electron_windows_list", a.WindowID).With("field", "windowId")
		}
	}
	n, err := netOf(c)
	if err != nil {
		return nil, err
	}
	cond := network.Conditions{Offline: a.Offline, LatencyMs: a.LatencyMs, DownloadKbps: a.DownloadKbps, UploadKbps: a.UploadKbps, CacheDisabled: a.CacheDisabled}
	k, fails, err := n.SetConditionsChecked(ctx, a.WindowID, cond)
	if err != nil {
		return nil, err
	}
	return &ConditionsResult{WindowID: a.WindowID, Conditions: cond, Cleared: cond.Zero(), Targets: k, FailedTargets: fails}, nil
}
