package network

import (
	"fmt"
	"maps"
	"strconv"
	"time"

	"github.com/understudy-dev/understudy/internal/secret"
)

// Record is one request as captured, from its start to its end (finished,
// failed, or still in flight when read). Field names follow stagewright's
// network plugin (method, url, resourceType, status, ok, requestHeaders,
// …, windowId) where it has them; seq, surface_id, window_id, frame_id and
// target_id follow electron_console_logs, so the two share cursors and
// surfaces.
type Record struct {
	Seq       int64  `json:"seq"`
	ID        string `json:"id"`
	SurfaceID string `json:"surface_id,omitempty"`
	WindowID  string `json:"window_id,omitempty"`
	// WindowIDCompat is stagewright's windowId (the same value).
	WindowIDCompat string     `json:"windowId,omitempty"`
	FrameID        string     `json:"frame_id,omitempty"`
	TargetID       string     `json:"target_id"`
	Method         string     `json:"method"`
	URL            string     `json:"url"`
	ResourceType   string     `json:"resourceType,omitempty"`
	Initiator      *Initiator `json:"initiator,omitempty"`
	Status         int        `json:"status,omitempty"`
	StatusText     string     `json:"statusText,omitempty"`
	OK             *bool      `json:"ok,omitempty"`
	MimeType       string     `json:"mimeType,omitempty"`
	Protocol       string     `json:"protocol,omitempty"`
	RemoteAddress  string     `json:"remoteAddress,omitempty"`

	// Headers and bodies are secret.Strings from where they are read
	// (ADR-041): secret headers and the secret fields of a body encode as
	// [redacted] unless shown.
	RequestHeaders  Headers `json:"requestHeaders,omitempty"`
	ResponseHeaders Headers `json:"responseHeaders,omitempty"`

	RequestBody           secret.String `json:"requestBody,omitzero"`
	RequestBodyBytes      int64         `json:"requestBodyBytes,omitempty"`
	RequestBodyTruncated  bool          `json:"requestBodyTruncated,omitempty"`
	RequestBodyEncoding   string        `json:"requestBodyEncoding,omitempty"`
	ResponseBody          secret.String `json:"responseBody,omitzero"`
	ResponseBodyBytes     int64         `json:"responseBodyBytes,omitempty"`
	ResponseBodyTruncated bool          `json:"responseBodyTruncated,omitempty"`
	ResponseBodyEncoding  string        `json:"responseBodyEncoding,omitempty"`
	// BodyDropped: the body budget let this record's bodies go.
	BodyDropped bool `json:"bodyDropped,omitempty"`

	Redirects         []Redirect `json:"redirects,omitempty"`
	Failure           string     `json:"failure,omitempty"`
	Canceled          bool       `json:"canceled,omitempty"`
	BlockedReason     string     `json:"blockedReason,omitempty"`
	FromCache         bool       `json:"fromCache,omitempty"`
	FromServiceWorker bool       `json:"fromServiceWorker,omitempty"`
	// Stubbed is the id of the stub that answered the request.
	Stubbed string `json:"stubbed,omitempty"`
	// TransferBytes is what came over the wire (encoded), when known.
	TransferBytes int64 `json:"transferBytes,omitempty"`
	// Timestamp is when the request started (RFC 3339, UTC).
	Timestamp  string   `json:"timestamp"`
	TTFBMs     *float64 `json:"ttfbMs,omitempty"`
	DurationMs *float64 `json:"durationMs,omitempty"`
	// InFlight: not finished when read.
	InFlight bool `json:"inFlight,omitempty"`

	wall  time.Time
	mono  float64 // Network timestamp of the start, seconds
	sendS float64 // request time of the response timing, seconds
	sent  float64 // sendEnd, ms after sendS
	body  int64   // bytes of bodies kept
	// enc is the record's JSON (secrets not shown), cached in the ring the
	// first time a read encodes it (records without bodies only; dropped
	// with them).
	enc []byte
}

// Initiator says what started a request.
type Initiator struct {
	Type string `json:"type"`
	URL  string `json:"url,omitempty"`
	Line int    `json:"line,omitempty"`
}

// Redirect is one hop a request took before its final URL.
type Redirect struct {
	URL    string `json:"url"`
	Status int    `json:"status"`
}

// Wall returns when the request started.
func (r *Record) Wall() time.Time { return r.wall }

// Headers are a request's or a response's headers by name. A secret
// header's value (Authorization, Cookie, Set-Cookie, Proxy-Authorization,
// the operator's --redact-header names) is a secret.String made where the
// header is read.
type Headers map[string]secret.String

// Get is the value of the header named (any case), "" when absent: for
// code that must use it (a content type, a location), never for output.
func (h Headers) Get(name string) string {
	for k, v := range h {
		if equalFold(k, name) {
			return v.Reveal()
		}
	}
	return ""
}

// shown returns a copy of h whose secrets encode as their values.
func (h Headers) shown() Headers {
	if h == nil {
		return nil
	}
	out := make(Headers, len(h))
	for k, v := range h {
		out[k] = v.Shown(true)
	}
	return out
}

// Shown returns r for a call allowed to reveal (--allow-secrets and
// reveal:true): a copy whose secret headers and body fields encode as
// their values. It is the only way a record's secrets reach an output.
func (r Record) Shown() Record {
	r.RequestHeaders, r.ResponseHeaders = r.RequestHeaders.shown(), r.ResponseHeaders.shown()
	r.RequestBody, r.ResponseBody = r.RequestBody.Shown(true), r.ResponseBody.Shown(true)
	r.enc = nil
	return r
}

// clone returns r with maps of its own (the reader goroutine merges into
// a record in flight).
func (r Record) clone() Record {
	r.RequestHeaders, r.ResponseHeaders = maps.Clone(r.RequestHeaders), maps.Clone(r.ResponseHeaders)
	return r
}

func headerValue(h map[string]string, name string) string {
	for k, v := range h {
		if equalFold(k, name) {
			return v
		}
	}
	return ""
}

func equalFold(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		x, y := a[i], b[i]
		if 'A' <= x && x <= 'Z' {
			x += 'a' - 'A'
		}
		if 'A' <= y && y <= 'Z' {
			y += 'a' - 'A'
		}
		if x != y {
			return false
		}
	}
	return true
}

// Line is the record in one line, as a trace step lists it: method,
// status (or the failure), URL, then the resource type and time, the stub
// that answered it and the surface where known.
func (r *Record) Line() string {
	status := strconv.Itoa(r.Status)
	switch {
	case r.Failure != "":
		status = "failed: " + r.Failure
	case r.Status == 0:
		status = "-"
	}
	line := r.Method + " " + status + " " + r.URL
	if r.ResourceType != "" {
		line += " (" + r.ResourceType
		if r.DurationMs != nil {
			line += fmt.Sprintf(", %.0f ms", *r.DurationMs)
		}
		line += ")"
	}
	if r.Stubbed != "" {
		line += " stubbed by " + r.Stubbed
	}
	if r.SurfaceID != "" {
		line += " [" + r.SurfaceID + "]"
	}
	return line
}
