package network

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/url"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/understudy-dev/understudy/internal/errs"
	"github.com/understudy-dev/understudy/internal/secret"
)

// HAR 1.2 (http://www.softwareishard.com/blog/har-12-spec/), the parts we
// write and read.

type harLog struct {
	Log harBody `json:"log"`
}

type harBody struct {
	Version string     `json:"version"`
	Creator harCreator `json:"creator"`
	Pages   []any      `json:"pages"`
	Entries []harEntry `json:"entries"`
}

type harCreator struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

type harEntry struct {
	StartedDateTime string      `json:"startedDateTime"`
	Time            float64     `json:"time"`
	Request         harRequest  `json:"request"`
	Response        harResponse `json:"response"`
	Cache           struct{}    `json:"cache"`
	Timings         harTimings  `json:"timings"`
	ServerIPAddress string      `json:"serverIPAddress,omitempty"`
	ResourceType    string      `json:"_resourceType,omitempty"`
	SurfaceID       string      `json:"_surfaceId,omitempty"`
}

type harNV struct {
	Name  string        `json:"name"`
	Value secret.String `json:"value"`
}

type harRequest struct {
	Method      string       `json:"method"`
	URL         string       `json:"url"`
	HTTPVersion string       `json:"httpVersion"`
	Cookies     []harNV      `json:"cookies"`
	Headers     []harNV      `json:"headers"`
	QueryString []harNV      `json:"queryString"`
	PostData    *harPostData `json:"postData,omitempty"`
	HeadersSize int          `json:"headersSize"`
	BodySize    int64        `json:"bodySize"`
}

type harPostData struct {
	MimeType string        `json:"mimeType"`
	Params   []harNV       `json:"params"`
	Text     secret.String `json:"text"`
}

type harResponse struct {
	Status      int        `json:"status"`
	StatusText  string     `json:"statusText"`
	HTTPVersion string     `json:"httpVersion"`
	Cookies     []harNV    `json:"cookies"`
	Headers     []harNV    `json:"headers"`
	Content     harContent `json:"content"`
	RedirectURL string     `json:"redirectURL"`
	HeadersSize int        `json:"headersSize"`
	BodySize    int64      `json:"bodySize"`
}

type harContent struct {
	Size     int64         `json:"size"`
	MimeType string        `json:"mimeType"`
	Text     secret.String `json:"text,omitzero"`
	Encoding string        `json:"encoding,omitempty"`
}

type harTimings struct {
	Blocked float64 `json:"blocked"`
	DNS     float64 `json:"dns"`
	Connect float64 `json:"connect"`
	Send    float64 `json:"send"`
	Wait    float64 `json:"wait"`
	Receive float64 `json:"receive"`
	SSL     float64 `json:"ssl"`
}

func nvList(h Headers, skip ...string) []harNV {
	keys := make([]string, 0, len(h))
	for k := range h {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := []harNV{}
	for _, k := range keys {
		if anyFold(skip, k) {
			continue
		}
		// a header Chromium folded from several lines holds them joined by \n
		v := h[k]
		for _, line := range strings.Split(v.Reveal(), "\n") {
			out = append(out, harNV{k, v.Part(line)})
		}
	}
	return out
}

func httpVersion(p string) string {
	switch strings.ToLower(p) {
	case "h2":
		return "HTTP/2.0"
	case "h3", "http/3":
		return "HTTP/3"
	case "http/1.0":
		return "HTTP/1.0"
	}
	return "HTTP/1.1"
}

// HAR returns records as a HAR 1.2 document, their secrets [redacted]
// unless the records are Shown (ADR-041). A
// redirected request becomes one entry per hop. Bodies are in it when the
// capture kept them; a response's content-encoding and content-length go,
// since the body written is the decoded one.
func HAR(records []Record, version string) ([]byte, int, error) {
	doc := harLog{Log: harBody{Version: "1.2", Creator: harCreator{"understudy", version}, Pages: []any{}, Entries: []harEntry{}}}
	for _, r := range records {
		if r.InFlight {
			continue
		}
		hops := append([]Redirect(nil), r.Redirects...)
		urls := make([]string, 0, len(hops)+1)
		for _, h := range hops {
			urls = append(urls, h.URL)
		}
		urls = append(urls, r.URL)
		for i, h := range hops {
			e := harEntry{StartedDateTime: r.wall.UTC().Format(time.RFC3339Nano), Request: harRequestOf(r, h.URL), ResourceType: r.ResourceType, SurfaceID: r.SurfaceID,
				Timings: harTimings{Blocked: -1, DNS: -1, Connect: -1, SSL: -1}}
			e.Response = harResponse{Status: h.Status, HTTPVersion: httpVersion(r.Protocol), Cookies: []harNV{}, Headers: []harNV{{"Location", secret.Plain(urls[i+1])}},
				Content: harContent{MimeType: "x-unknown"}, RedirectURL: urls[i+1], HeadersSize: -1}
			doc.Log.Entries = append(doc.Log.Entries, e)
		}
		e := harEntry{StartedDateTime: r.wall.UTC().Format(time.RFC3339Nano), Request: harRequestOf(r, r.URL), ResourceType: r.ResourceType, SurfaceID: r.SurfaceID,
			ServerIPAddress: strings.Trim(r.RemoteAddress, "[]"), Timings: harTimings{Blocked: -1, DNS: -1, Connect: -1, SSL: -1}}
		if r.DurationMs != nil {
			e.Time = *r.DurationMs
		}
		if r.TTFBMs != nil {
			e.Timings.Wait = *r.TTFBMs
			e.Timings.Receive = max(e.Time-*r.TTFBMs, 0)
		} else {
			e.Timings.Receive = e.Time
		}
		status := r.Status
		text := r.StatusText
		if r.Failure != "" && status == 0 {
			text = r.Failure
		}
		mime := r.MimeType
		if mime == "" {
			mime = "x-unknown"
		}
		e.Response = harResponse{Status: status, StatusText: text, HTTPVersion: httpVersion(r.Protocol), Cookies: []harNV{},
			Headers: nvList(r.ResponseHeaders, "content-encoding", "content-length"), HeadersSize: -1, BodySize: r.TransferBytes,
			Content: harContent{Size: r.ResponseBodyBytes, MimeType: mime, Text: r.ResponseBody, Encoding: r.ResponseBodyEncoding}}
		if loc := r.ResponseHeaders.Get("location"); loc != "" && status >= 300 && status < 400 {
			e.Response.RedirectURL = loc
		}
		if e.Response.Content.Size == 0 {
			e.Response.Content.Size = int64(r.ResponseBody.Len())
		}
		doc.Log.Entries = append(doc.Log.Entries, e)
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", " ")
	if err := enc.Encode(doc); err != nil {
		return nil, 0, errs.Wrap(errs.Internal, err, "encode the HAR")
	}
	return b.Bytes(), len(doc.Log.Entries), nil
}

func harRequestOf(r Record, u string) harRequest {
	q := []harNV{}
	if pu, err := url.Parse(u); err == nil {
		for k, vs := range pu.Query() {
			for _, v := range vs {
				q = append(q, harNV{k, secret.Plain(v)})
			}
		}
		sort.Slice(q, func(i, j int) bool { return q[i].Name < q[j].Name })
	}
	req := harRequest{Method: r.Method, URL: u, HTTPVersion: httpVersion(r.Protocol), Cookies: []harNV{}, Headers: nvList(r.RequestHeaders),
		QueryString: q, HeadersSize: -1, BodySize: r.RequestBodyBytes}
	if !r.RequestBody.IsZero() || r.RequestBodyBytes > 0 {
		text := r.RequestBody
		if r.RequestBodyEncoding == "base64" { // a base64 body is plain (Redactor.body)
			if b, err := base64.StdEncoding.DecodeString(text.Reveal()); err == nil {
				text = secret.Plain(string(b))
			}
		}
		req.PostData = &harPostData{MimeType: r.RequestHeaders.Get("content-type"), Params: []harNV{}, Text: text}
	}
	return req
}

// Archive is a HAR read for replay.
type Archive struct {
	entries map[string][]*ArchiveEntry // method + " " + URL without fragment
	Count   int
}

// ArchiveEntry is one recorded response.
type ArchiveEntry struct {
	Status     int
	StatusText string
	Headers    map[string]string
	Body       []byte
	postData   string
}

func archiveKey(method, u string) string {
	if i := strings.IndexByte(u, '#'); i >= 0 {
		u = u[:i]
	}
	return strings.ToUpper(method) + " " + u
}

// Lookup returns the entry recorded for a request, preferring one whose
// request body matches; nil when none.
func (a *Archive) Lookup(method, u, postData string) *ArchiveEntry {
	list := a.entries[archiveKey(method, u)]
	if len(list) == 0 {
		return nil
	}
	for _, e := range list {
		if e.postData == postData {
			return e
		}
	}
	return list[0]
}

// harInvalid is the coded error for a document that is not HAR 1.2.
func harInvalid(path, format string, args ...any) error {
	e := errs.New(errs.HARInvalid, "not HAR 1.2 at %s: %s", path, fmt.Sprintf(format, args...))
	e.Details = map[string]any{"path": path}
	return e
}

// HARFiles reads a side file a HAR names (Playwright's recordHar with
// content 'attach' keeps bodies in files next to the HAR, or in the zip
// that holds it, and names them in content._file / postData._file). name
// has been checked to stay inside the HAR's folder (slash-separated).
type HARFiles func(name string) ([]byte, error)

// ParseHAR reads a HAR 1.2 document whose bodies are all inline; see
// [ParseHARFiles].
func ParseHAR(data []byte) (*Archive, error) { return ParseHARFiles(data, nil) }

// harFileName checks a _file name: a path relative to the HAR's folder
// (Playwright writes "<resources>/<sha1>.<ext>"), inside it: not
// absolute, no "..", no backslash.
func harFileName(name string) bool {
	return len(name) <= 1024 && !strings.ContainsAny(name, "\\\x00") && filepath.IsLocal(filepath.FromSlash(name))
}

// readSide reads the side file named at the JSON path p.
func readSide(open HARFiles, p, name string) ([]byte, error) {
	if !harFileName(name) {
		return nil, harInvalid(p, "not a file name inside the HAR's folder: %q", name)
	}
	if open == nil {
		return nil, harInvalid(p, "the body is in a separate file %q, which this HAR's source cannot provide", name)
	}
	b, err := open(name)
	if err != nil {
		if e := errs.As(err); e != nil {
			return nil, e.With("har_path", p)
		}
		return nil, err
	}
	return b, nil
}

// ParseHARFiles reads a HAR 1.2 document (written by us, by Playwright's
// recordHar — bodies embedded, or attached as side files read through
// open — or by Chrome DevTools); a problem is HAR_INVALID with the JSON
// path of the first one. Entries whose response has no status (a failed
// request) are skipped.
func ParseHARFiles(data []byte, open HARFiles) (*Archive, error) {
	var doc any
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := dec.Decode(&doc); err != nil {
		return nil, harInvalid("$", "not JSON: %v", err)
	}
	root, ok := doc.(map[string]any)
	if !ok {
		return nil, harInvalid("$", "not an object")
	}
	lg, ok := root["log"].(map[string]any)
	if !ok {
		return nil, harInvalid("$.log", "missing or not an object")
	}
	if v, _ := lg["version"].(string); v != "1.2" {
		return nil, harInvalid("$.log.version", "is %v; want \"1.2\"", lg["version"])
	}
	list, ok := lg["entries"].([]any)
	if !ok {
		return nil, harInvalid("$.log.entries", "missing or not an array")
	}
	a := &Archive{entries: map[string][]*ArchiveEntry{}}
	for i, x := range list {
		p := fmt.Sprintf("$.log.entries[%d]", i)
		e, ok := x.(map[string]any)
		if !ok {
			return nil, harInvalid(p, "not an object")
		}
		req, ok := e["request"].(map[string]any)
		if !ok {
			return nil, harInvalid(p+".request", "missing or not an object")
		}
		method, _ := req["method"].(string)
		if method == "" {
			return nil, harInvalid(p+".request.method", "missing or not a string")
		}
		u, _ := req["url"].(string)
		if pu, err := url.Parse(u); err != nil || !pu.IsAbs() {
			return nil, harInvalid(p+".request.url", "not an absolute URL: %q", u)
		}
		resp, ok := e["response"].(map[string]any)
		if !ok {
			return nil, harInvalid(p+".response", "missing or not an object")
		}
		num, ok := resp["status"].(json.Number)
		if !ok {
			return nil, harInvalid(p+".response.status", "missing or not a number")
		}
		status, err := num.Int64()
		if err != nil || status < 0 || status > 999 {
			return nil, harInvalid(p+".response.status", "not an HTTP status: %v", num)
		}
		content, ok := resp["content"].(map[string]any)
		if !ok {
			return nil, harInvalid(p+".response.content", "missing or not an object")
		}
		hs, ok := resp["headers"].([]any)
		if !ok {
			return nil, harInvalid(p+".response.headers", "missing or not an array")
		}
		entry := &ArchiveEntry{Status: int(status), Headers: map[string]string{}}
		entry.StatusText, _ = resp["statusText"].(string)
		for j, h := range hs {
			nv, ok := h.(map[string]any)
			name, _ := nv["name"].(string)
			value, ok2 := nv["value"].(string)
			if !ok || name == "" || !ok2 {
				return nil, harInvalid(fmt.Sprintf("%s.response.headers[%d]", p, j), "not a {name, value} pair")
			}
			if strings.HasPrefix(name, ":") || anyFold([]string{"content-encoding", "content-length", "transfer-encoding"}, name) {
				continue // HTTP/2 pseudo headers; the body is replayed decoded
			}
			if old, ok := entry.Headers[name]; ok {
				value = old + "\n" + value
			}
			entry.Headers[name] = value
		}
		if ct, _ := content["mimeType"].(string); ct != "" && headerValue(entry.Headers, "content-type") == "" && ct != "x-unknown" {
			entry.Headers["Content-Type"] = ct
		}
		text, _ := content["text"].(string)
		file, hasFile := content["_file"].(string)
		switch enc, _ := content["encoding"].(string); {
		case hasFile && text == "" && status != 0:
			b, err := readSide(open, p+".response.content._file", file)
			if err != nil {
				return nil, err
			}
			entry.Body = b
		case enc == "":
			entry.Body = []byte(text)
		case enc == "base64":
			b, err := base64.StdEncoding.DecodeString(text)
			if err != nil {
				return nil, harInvalid(p+".response.content.text", "not base64: %v", err)
			}
			entry.Body = b
		default:
			return nil, harInvalid(p+".response.content.encoding", "unknown encoding %q", enc)
		}
		if pd, ok := req["postData"].(map[string]any); ok {
			entry.postData, _ = pd["text"].(string)
			if f, ok := pd["_file"].(string); ok && entry.postData == "" && status != 0 {
				b, err := readSide(open, p+".request.postData._file", f)
				if err != nil {
					return nil, err
				}
				entry.postData = string(b)
			}
		}
		if status == 0 {
			continue // a request that failed: nothing to replay
		}
		k := archiveKey(method, u)
		a.entries[k] = append(a.entries[k], entry)
		a.Count++
	}
	return a, nil
}
