package network

import (
	"math"
	"slices"
	"strconv"
	"unicode/utf8"

	"github.com/understudy-dev/understudy/internal/secret"
)

// MarshalJSON encodes a record as encoding/json would encode its fields
// (same names, omitempty, order, sorted header keys, escaping), without
// reflection or the map encoder: network_captured answers up to 2,000 of
// them and the header maps dominated its time (docs/benchmarks.md).
// TestRecordJSONMatchesReflection holds it to encoding/json's output.
func (r Record) MarshalJSON() ([]byte, error) {
	return r.AppendJSON(make([]byte, 0, 1024)), nil
}

// AppendJSON appends the record's JSON to b (its cached encoding when a
// redacted read of the ring has one).
func (r *Record) AppendJSON(b []byte) []byte {
	if r.enc != nil {
		return append(b, r.enc...)
	}
	return r.appendJSON(b)
}

func (r *Record) appendJSON(b []byte) []byte {
	b = append(b, `{"seq":`...)
	b = strconv.AppendInt(b, r.Seq, 10)
	b = appendStrField(b, "id", r.ID, false)
	b = appendStrField(b, "surface_id", r.SurfaceID, true)
	b = appendStrField(b, "window_id", r.WindowID, true)
	b = appendStrField(b, "windowId", r.WindowIDCompat, true)
	b = appendStrField(b, "frame_id", r.FrameID, true)
	b = appendStrField(b, "target_id", r.TargetID, false)
	b = appendStrField(b, "method", r.Method, false)
	b = appendStrField(b, "url", r.URL, false)
	b = appendStrField(b, "resourceType", r.ResourceType, true)
	if r.Initiator != nil {
		b = append(b, `,"initiator":{"type":`...)
		b = appendString(b, r.Initiator.Type)
		b = appendStrField(b, "url", r.Initiator.URL, true)
		b = appendIntField(b, "line", int64(r.Initiator.Line))
		b = append(b, '}')
	}
	b = appendIntField(b, "status", int64(r.Status))
	b = appendStrField(b, "statusText", r.StatusText, true)
	if r.OK != nil {
		b = append(b, `,"ok":`...)
		b = strconv.AppendBool(b, *r.OK)
	}
	b = appendStrField(b, "mimeType", r.MimeType, true)
	b = appendStrField(b, "protocol", r.Protocol, true)
	b = appendStrField(b, "remoteAddress", r.RemoteAddress, true)
	b = appendHeaders(b, "requestHeaders", r.RequestHeaders)
	b = appendHeaders(b, "responseHeaders", r.ResponseHeaders)
	b = appendSecretField(b, "requestBody", r.RequestBody)
	b = appendIntField(b, "requestBodyBytes", r.RequestBodyBytes)
	b = appendBoolField(b, "requestBodyTruncated", r.RequestBodyTruncated)
	b = appendStrField(b, "requestBodyEncoding", r.RequestBodyEncoding, true)
	b = appendSecretField(b, "responseBody", r.ResponseBody)
	b = appendIntField(b, "responseBodyBytes", r.ResponseBodyBytes)
	b = appendBoolField(b, "responseBodyTruncated", r.ResponseBodyTruncated)
	b = appendStrField(b, "responseBodyEncoding", r.ResponseBodyEncoding, true)
	b = appendBoolField(b, "bodyDropped", r.BodyDropped)
	if len(r.Redirects) > 0 {
		b = append(b, `,"redirects":[`...)
		for i, h := range r.Redirects {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"url":`...)
			b = appendString(b, h.URL)
			b = append(b, `,"status":`...)
			b = strconv.AppendInt(b, int64(h.Status), 10)
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	b = appendStrField(b, "failure", r.Failure, true)
	b = appendBoolField(b, "canceled", r.Canceled)
	b = appendStrField(b, "blockedReason", r.BlockedReason, true)
	b = appendBoolField(b, "fromCache", r.FromCache)
	b = appendBoolField(b, "fromServiceWorker", r.FromServiceWorker)
	b = appendStrField(b, "stubbed", r.Stubbed, true)
	b = appendIntField(b, "transferBytes", r.TransferBytes)
	b = appendStrField(b, "timestamp", r.Timestamp, false)
	b = appendFloatField(b, "ttfbMs", r.TTFBMs)
	b = appendFloatField(b, "durationMs", r.DurationMs)
	b = appendBoolField(b, "inFlight", r.InFlight)
	return append(b, '}')
}

func appendStrField(b []byte, name, v string, omitEmpty bool) []byte {
	if omitEmpty && v == "" {
		return b
	}
	b = append(b, ',', '"')
	b = append(b, name...)
	b = append(b, '"', ':')
	return appendString(b, v)
}

// appendSecretField writes s as it encodes (omitted when empty): its
// secrets [redacted] unless shown.
func appendSecretField(b []byte, name string, s secret.String) []byte {
	if s.IsZero() {
		return b
	}
	return appendStrField(b, name, s.String(), false)
}

func appendIntField(b []byte, name string, v int64) []byte {
	if v == 0 {
		return b
	}
	b = append(b, ',', '"')
	b = append(b, name...)
	b = append(b, '"', ':')
	return strconv.AppendInt(b, v, 10)
}

func appendBoolField(b []byte, name string, v bool) []byte {
	if !v {
		return b
	}
	b = append(b, ',', '"')
	b = append(b, name...)
	return append(b, `":true`...)
}

func appendFloatField(b []byte, name string, v *float64) []byte {
	if v == nil {
		return b
	}
	b = append(b, ',', '"')
	b = append(b, name...)
	b = append(b, '"', ':')
	return appendFloat(b, *v)
}

// appendFloat formats like encoding/json (ES6 number formatting); NaN and
// infinities, which it refuses, become null.
func appendFloat(b []byte, f float64) []byte {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return append(b, "null"...)
	}
	abs := math.Abs(f)
	format := byte('f')
	if abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if format == 'e' {
		// clean up e-09 to e-9
		n := len(b)
		if n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b
}

func appendHeaders(b []byte, name string, h Headers) []byte {
	if len(h) == 0 {
		return b
	}
	var stack [32]string
	keys := stack[:0]
	for k := range h {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	b = append(b, ',', '"')
	b = append(b, name...)
	b = append(b, '"', ':', '{')
	for i, k := range keys {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(b, k)
		b = append(b, ':')
		b = appendString(b, h[k].String()) // [redacted] unless shown
	}
	return append(b, '}')
}

const hexDigits = "0123456789abcdef"

// appendString quotes s as encoding/json does with HTML escaping on:
// invalid UTF-8 becomes U+FFFD, U+2028 and U+2029 are escaped.
func appendString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
