package network

import (
	"context"
	"encoding/base64"
	"strings"
	"unicode/utf8"
)

type bodyJob struct {
	rec *Record
	key pkey
}

// bodyWorker reads bodies of finished requests, one at a time, until jobs
// is closed, then records them.
func (n *Network) bodyWorker(jobs chan bodyJob) {
	for j := range jobs {
		n.readBodies(j)
		n.mu.Lock()
		n.addLocked(j.rec)
		n.mu.Unlock()
	}
}

func (n *Network) readBodies(j bodyJob) {
	ctx, cancel := context.WithTimeout(n.life, enableTimeout)
	defer cancel()
	r := j.rec
	conn, err := n.cfg.Pool.Conn(ctx, j.key.target)
	if err != nil {
		return
	}
	n.mu.Lock()
	mode, max, types := n.opts.Bodies, n.opts.MaxBodyBytes, n.opts.BodyTypes
	n.mu.Unlock()
	if r.RequestBodyTruncated && r.RequestBody.IsZero() && mode == "full" {
		var pd struct {
			PostData string `json:"postData"`
		}
		if conn.Call(ctx, "Network.getRequestPostData", map[string]any{"requestId": j.key.id}, &pd) == nil {
			r.RequestBodyTruncated = false
			n.mu.Lock()
			n.takeRequestBody(r, pd.PostData, false)
			n.mu.Unlock()
		}
	}
	if r.Status == 204 || r.Status == 304 || r.Method == "HEAD" || (r.Status >= 100 && r.Status < 200) {
		return
	}
	if mode == "size" {
		r.ResponseBodyBytes = r.TransferBytes
		return
	}
	if !bodyType(types, r.MimeType) {
		return
	}
	var body struct {
		Body          string `json:"body"`
		Base64Encoded bool   `json:"base64Encoded"`
	}
	if err := conn.Call(ctx, "Network.getResponseBody", map[string]any{"requestId": j.key.id}, &body); err != nil {
		// Chromium keeps at most resourceBuffer of one response: a larger
		// one was never buffered, so it never reaches us.
		r.ResponseBodyTruncated = true
		r.ResponseBodyBytes = r.TransferBytes
		return
	}
	raw := []byte(body.Body)
	if body.Base64Encoded {
		// decode at most what we keep (plus a block) so a large body is not
		// held twice
		enc := body.Body
		need := base64.StdEncoding.EncodedLen(max + 3)
		cut := false
		if len(enc) > need {
			enc, cut = enc[:need-need%4], true
		}
		dec, err := base64.StdEncoding.DecodeString(enc)
		if err != nil {
			return
		}
		raw = dec
		r.ResponseBodyBytes = int64(base64.StdEncoding.DecodedLen(len(body.Body)))
		text, encName, c := capBody(raw, max, r.MimeType)
		r.ResponseBody, r.ResponseBodyEncoding, r.ResponseBodyTruncated = n.red.body(text, encName, r.MimeType), encName, c || cut
		return
	}
	r.ResponseBodyBytes = int64(len(raw))
	text, encName, c := capBody(raw, max, r.MimeType)
	r.ResponseBody, r.ResponseBodyEncoding, r.ResponseBodyTruncated = n.red.body(text, encName, r.MimeType), encName, c
}

// bodyType reports whether bodies of this content type are kept.
func bodyType(types []string, ct string) bool {
	if len(types) == 0 {
		return true
	}
	ct = strings.ToLower(ct)
	for _, t := range types {
		if strings.Contains(ct, strings.ToLower(t)) {
			return true
		}
	}
	return false
}

// textual reports whether a content type is text.
func textual(ct string) bool {
	ct = strings.ToLower(ct)
	for _, s := range []string{"text/", "json", "xml", "javascript", "ecmascript", "x-www-form-urlencoded", "svg", "css", "html", "csv", "yaml", "graphql"} {
		if strings.Contains(ct, s) {
			return true
		}
	}
	return false
}

// capBody keeps at most max bytes: text (cut on a rune boundary) for a
// textual type that is valid UTF-8, else base64.
func capBody(b []byte, max int, ct string) (text, encoding string, truncated bool) {
	if len(b) > max {
		b, truncated = b[:max], true
	}
	if (textual(ct) || ct == "") && utf8.Valid(trimRune(b, truncated)) {
		b = trimRune(b, truncated)
		return string(b), "", truncated
	}
	return base64.StdEncoding.EncodeToString(b), "base64", truncated
}

// trimRune drops a rune cut in half at the end of a truncated body.
func trimRune(b []byte, cut bool) []byte {
	if !cut {
		return b
	}
	for i := 0; i < utf8.UTFMax && len(b) > 0; i++ {
		if utf8.Valid(b) {
			return b
		}
		b = b[:len(b)-1]
	}
	return b
}
