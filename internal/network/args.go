package network

import (
	"encoding/base64"
	"strings"

	"github.com/understudy-dev/understudy/internal/errs"
	"github.com/understudy-dev/understudy/internal/target"
)

// The arguments of the network tools: their JSON names and descriptions
// (the tools' input schemas) and their checks. The tool layer embeds them
// beside its shared pieces (the session id, reveal).

const (
	// MaxStubBodyFile bounds a stub's bodyFile.
	MaxStubBodyFile = 16 << 20
	// MaxHARFile bounds a HAR read for replay.
	MaxHARFile = 256 << 20
)

// Filter are the match fields every network tool shares.
type Filter struct {
	URLs          []string `json:"urls,omitempty" jsonschema:"URL substrings; a request matches when its URL contains any"`
	Globs         []string `json:"globs,omitempty" jsonschema:"URL globs (* any run of characters, ? one character), matched against the whole URL"`
	Regex         string   `json:"regex,omitempty" jsonschema:"an RE2 regular expression searched in the URL"`
	Methods       []string `json:"methods,omitempty" jsonschema:"HTTP methods (case-insensitive)"`
	ResourceTypes []string `json:"resourceTypes,omitempty" jsonschema:"resource types: document, stylesheet, image, media, font, script, xhr, fetch, websocket, other, …"`
	Surfaces      []string `json:"surfaces,omitempty" jsonschema:"surface ids (electron_surfaces_list) the request must come from"`
}

// Compile is the filter's [Matcher]; a bad glob, regex or resource type
// is a BAD_ARGUMENT naming its field.
func (f Filter) Compile() (*Matcher, error) {
	return Compile(Match{URLs: f.URLs, Globs: f.Globs, Regex: f.Regex, Methods: f.Methods, Types: f.ResourceTypes, Surfaces: f.Surfaces}, "")
}

// HasURL says whether the filter names URLs (urls, globs or regex).
func (f Filter) HasURL() bool { return len(f.URLs) > 0 || len(f.Globs) > 0 || f.Regex != "" }

// CaptureArgs are what starting a capture asks.
type CaptureArgs struct {
	Filter
	CaptureBodies    any      `json:"captureBodies,omitempty" jsonschema:"true: keep request and response bodies (text, or base64 for binary, capped by maxBodyBytes); \"size\": only their lengths; default false"`
	MaxBodyBytes     int      `json:"maxBodyBytes,omitempty" jsonschema:"cap of one body in bytes; default 65536, at most 4194304"`
	BodyContentTypes []string `json:"bodyContentTypes,omitempty" jsonschema:"keep bodies only of content types containing one of these (json, text/html, …); default all"`
	BodyBudgetBytes  int64    `json:"bodyBudgetBytes,omitempty" jsonschema:"bytes of bodies kept in all; default 33554432 (32 MiB); the oldest bodies go first"`
}

// bodies reads captureBodies: "" none, "full" or "size".
func (a *CaptureArgs) bodies() (string, error) {
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

// Check refuses arguments a capture cannot start with, naming the field.
func (a *CaptureArgs) Check() error {
	if _, err := a.bodies(); err != nil {
		return err
	}
	switch {
	case a.MaxBodyBytes < 0 || a.MaxBodyBytes > MaxBodyBytesLimit:
		return errs.BadArg("maxBodyBytes", "must be between 1 and %d", MaxBodyBytesLimit)
	case a.BodyBudgetBytes < 0 || a.BodyBudgetBytes > 1<<30:
		return errs.BadArg("bodyBudgetBytes", "must be between 1 and %d", 1<<30)
	}
	_, err := a.Compile()
	return err
}

// CapturedArgs are what reading the recorded requests asks (reveal is
// the caller's: it is gated before).
type CapturedArgs struct {
	Filter
	Since    int64 `json:"since,omitempty" jsonschema:"only records whose seq is greater (next_since of an earlier network_captured or electron_console_logs)"`
	Limit    int   `json:"limit,omitempty" jsonschema:"records to return, the newest; default 200, max 2000"`
	Clear    bool  `json:"clear,omitempty" jsonschema:"empty the buffer after reading"`
	InFlight bool  `json:"inFlight,omitempty" jsonschema:"also list requests not finished yet (inFlight:true, no seq)"`
}

// Check refuses a negative since, a limit out of range and a bad filter.
func (a *CapturedArgs) Check() error {
	switch {
	case a.Since < 0:
		return errs.BadArg("since", "must be 0 or a seq from an earlier answer")
	case a.Limit < 0 || a.Limit > 2000:
		return errs.BadArg("limit", "must be between 1 and 2000 (default 200)")
	}
	_, err := a.Compile()
	return err
}

// ContinueArgs change a request a stub sends on to the network.
type ContinueArgs struct {
	URL      string            `json:"url,omitempty" jsonschema:"send the request to this URL instead"`
	Method   string            `json:"method,omitempty" jsonschema:"use this method instead"`
	Headers  map[string]string `json:"headers,omitempty" jsonschema:"headers to set (an empty value removes the header)"`
	PostData *string           `json:"postData,omitempty" jsonschema:"send this body instead"`
}

// StubArgs are a stub as asked: its filter and what it answers.
type StubArgs struct {
	Filter
	Status      int               `json:"status,omitempty" jsonschema:"fulfil with this status (100-599, default 200)"`
	Headers     map[string]string `json:"headers,omitempty" jsonschema:"response headers of the fulfilled response"`
	ContentType string            `json:"contentType,omitempty" jsonschema:"Content-Type of the fulfilled response"`
	Body        *string           `json:"body,omitempty" jsonschema:"response body text"`
	BodyBase64  string            `json:"bodyBase64,omitempty" jsonschema:"response body as base64 (binary)"`
	BodyFile    string            `json:"bodyFile,omitempty" jsonschema:"absolute path of a file (under the allowed roots) whose bytes are the response body, at most 16 MiB"`
	Abort       string            `json:"abort,omitempty" jsonschema:"fail the request with this network error instead: failed, aborted, timedout, accessdenied, connectionclosed, connectionreset, connectionrefused, connectionaborted, connectionfailed, namenotresolved, internetdisconnected, addressunreachable, blockedbyclient, blockedbyresponse"`
	Continue    *ContinueArgs     `json:"continue,omitempty" jsonschema:"send the request on to the network, changed"`
	DelayMs     int               `json:"delayMs,omitempty" jsonschema:"wait this long before answering (at most 60000)"`
	Times       int               `json:"times,omitempty" jsonschema:"remove the stub after this many requests; default unlimited"`
}

// Check refuses a stub without URLs, one that mixes fulfil, abort and
// continue, and any bad field, naming it.
func (a *StubArgs) Check() error {
	if !a.HasURL() {
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
		if _, ok := AbortReason(a.Abort); !ok {
			return errs.BadArg("abort", "%q is not a network error; one of %s", a.Abort, strings.Join(AbortNames(), ", "))
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
	_, err := a.Compile()
	return err
}

// Stub builds the checked arguments' stub. A bodyFile is read through
// check (which resolves it under the allowed roots), at most
// [MaxStubBodyFile] bytes.
func (a *StubArgs) Stub(check func(path string) (string, error)) (*Stub, error) {
	m, _ := a.Compile()
	s := &Stub{Match: m, Status: a.Status, Headers: a.Headers, ContentType: a.ContentType, Abort: strings.ToLower(a.Abort), DelayMs: a.DelayMs, Times: a.Times}
	switch {
	case a.Body != nil:
		s.Body = []byte(*a.Body)
	case a.BodyBase64 != "":
		s.Body, _ = base64.StdEncoding.DecodeString(a.BodyBase64)
	case a.BodyFile != "":
		path, err := check(a.BodyFile)
		if err != nil {
			return nil, err
		}
		if s.Body, err = ReadBounded(path, MaxStubBodyFile, "bodyFile"); err != nil {
			return nil, err
		}
	}
	if a.Continue != nil {
		s.Continue = &Continue{URL: a.Continue.URL, Method: a.Continue.Method, Headers: a.Continue.Headers, PostData: a.Continue.PostData}
	}
	return s, nil
}

// UnstubArgs name the stubs to remove: by id, by a urls entry, or all.
type UnstubArgs struct {
	ID  string `json:"id,omitempty" jsonschema:"the id network_stub or network_replay_har returned"`
	URL string `json:"url,omitempty" jsonschema:"remove the stubs whose urls list holds exactly this entry"`
}

// ExportHARArgs are what writing a HAR asks (reveal is the caller's).
type ExportHARArgs struct {
	Filter
	Path      string `json:"path" jsonschema:"where to write the HAR (absolute, or relative to the artifacts folder), under the allowed file roots"`
	Overwrite bool   `json:"overwrite,omitempty" jsonschema:"replace an existing file this server did not write"`
	Since     int64  `json:"since,omitempty" jsonschema:"only records whose seq is greater"`
}

// Check refuses a missing path, a negative since and a bad filter.
func (a *ExportHARArgs) Check() error {
	if a.Path == "" {
		return errs.BadArg("path", "required")
	}
	if a.Since < 0 {
		return errs.BadArg("since", "must be 0 or a seq from an earlier answer")
	}
	_, err := a.Compile()
	return err
}

// ReplayHARArgs are what serving requests from a HAR asks.
type ReplayHARArgs struct {
	Filter
	Path     string `json:"path" jsonschema:"absolute path of a HAR 1.2 file under the allowed file roots"`
	NotFound string `json:"notFound,omitempty" jsonschema:"a matching request the HAR lacks: abort (default) or fallback (to the network)"`
}

// Check refuses a missing path, a notFound other than abort or fallback
// and a bad filter.
func (a *ReplayHARArgs) Check() error {
	if a.Path == "" {
		return errs.BadArg("path", "required")
	}
	if a.NotFound != "" && a.NotFound != "abort" && a.NotFound != "fallback" {
		return errs.BadArg("notFound", "must be abort or fallback")
	}
	_, err := a.Compile()
	return err
}

// LoadHAR reads and parses the HAR at path (a .har, a zip, or a .har with
// side files next to it), at most [MaxHARFile] bytes a file; check
// resolves every path read under the allowed roots, and errors name
// field.
func LoadHAR(path, field string, check func(path string) (string, error)) (*Archive, error) {
	path, err := check(path)
	if err != nil {
		return nil, err
	}
	data, err := ReadBounded(path, MaxHARFile, field)
	if err != nil {
		return nil, err
	}
	data, open, err := HARSource(path, data, MaxHARFile, field, check)
	if err != nil {
		return nil, err
	}
	return ParseHARFiles(data, open)
}

// ConditionsArgs are network conditions as asked, for one window root or
// every window.
type ConditionsArgs struct {
	WindowID      string  `json:"windowId,omitempty" jsonschema:"the window root (a window_id of electron_windows_list); omitted: every window, including later ones"`
	Offline       bool    `json:"offline,omitempty" jsonschema:"fail every request as offline"`
	LatencyMs     float64 `json:"latencyMs,omitempty" jsonschema:"latency added to each request, in ms"`
	DownloadKbps  float64 `json:"downloadKbps,omitempty" jsonschema:"download limit in kilobits per second; 0 no limit"`
	UploadKbps    float64 `json:"uploadKbps,omitempty" jsonschema:"upload limit in kilobits per second; 0 no limit"`
	CacheDisabled bool    `json:"cacheDisabled,omitempty" jsonschema:"bypass the HTTP cache"`
}

// Check refuses negative or too large values, naming the field.
func (a *ConditionsArgs) Check() error {
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

// CheckWindow refuses a windowId the pool does not know (SURFACE_NOT_FOUND
// naming windowId); none is every window.
func (a *ConditionsArgs) CheckWindow(p *target.Pool) error {
	if a.WindowID != "" {
		if _, ok := p.Known(a.WindowID); !ok {
			return errs.New(errs.SurfaceNotFound, "no window %q; pass a window_id of electron_windows_list", a.WindowID).With("field", "windowId")
		}
	}
	return nil
}

// Conditions are the conditions asked.
func (a *ConditionsArgs) Conditions() Conditions {
	return Conditions{Offline: a.Offline, LatencyMs: a.LatencyMs, DownloadKbps: a.DownloadKbps, UploadKbps: a.UploadKbps, CacheDisabled: a.CacheDisabled}
}
