package network

import "time"

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

	RequestHeaders  map[string]string `json:"requestHeaders,omitempty"`
	ResponseHeaders map[string]string `json:"responseHeaders,omitempty"`

	RequestBody           string `json:"requestBody,omitempty"`
	RequestBodyBytes      int64  `json:"requestBodyBytes,omitempty"`
	RequestBodyTruncated  bool   `json:"requestBodyTruncated,omitempty"`
	RequestBodyEncoding   string `json:"requestBodyEncoding,omitempty"`
	ResponseBody          string `json:"responseBody,omitempty"`
	ResponseBodyBytes     int64  `json:"responseBodyBytes,omitempty"`
	ResponseBodyTruncated bool   `json:"responseBodyTruncated,omitempty"`
	ResponseBodyEncoding  string `json:"responseBodyEncoding,omitempty"`
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
	// enc is the record's redacted JSON, cached in the ring the first time
	// a read encodes it (records without bodies only; dropped with them).
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

// redacted returns a copy of r for output.
func (r Record) redacted(red *Redactor) Record {
	r.RequestHeaders = red.Headers(r.RequestHeaders)
	r.ResponseHeaders = red.Headers(r.ResponseHeaders)
	if r.RequestBodyEncoding == "" {
		r.RequestBody = red.Body(r.RequestBody, headerValue(r.RequestHeaders, "content-type"))
	}
	if r.ResponseBodyEncoding == "" {
		r.ResponseBody = red.Body(r.ResponseBody, r.MimeType)
	}
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
