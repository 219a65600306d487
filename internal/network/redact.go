package network

import (
	"bytes"
	"encoding/json"
	"net/url"
	"strings"

	"github.com/understudy-dev/understudy/internal/secret"
)

// Redacted replaces a secret value in every output.
const Redacted = secret.Redacted

// defaultRedactHeaders are the headers redacted unless revealed.
var defaultRedactHeaders = []string{"authorization", "cookie", "set-cookie", "proxy-authorization"}

// defaultSecretKeys are the body field keys (lower case, without - and _)
// whose values are redacted: a key containing any of them.
var defaultSecretKeys = []string{"password", "passwd", "pwd", "secret", "token", "apikey", "accesskey", "privatekey",
	"credential", "authorization", "cookie", "sessionid", "otp", "pin", "ssn", "cvv"}

// Redactor says which headers and body fields are secret, and masks a
// body's secret fields; records take their secrets as secret.Strings from
// it where they are read (ADR-041).
type Redactor struct {
	headers map[string]bool
	names   []string // the keys of headers
	keys    []string
}

// NewRedactor builds a Redactor with the defaults plus the operator's
// headers and body keys.
func NewRedactor(headers, bodyKeys []string) *Redactor {
	r := &Redactor{headers: map[string]bool{}}
	for _, h := range append(append([]string(nil), defaultRedactHeaders...), headers...) {
		h = strings.ToLower(strings.TrimSpace(h))
		if !r.headers[h] {
			r.headers[h] = true
			r.names = append(r.names, h)
		}
	}
	for _, k := range append(append([]string(nil), defaultSecretKeys...), bodyKeys...) {
		if k = normKey(k); k != "" {
			r.keys = append(r.keys, k)
		}
	}
	return r
}

func normKey(k string) string {
	return strings.NewReplacer("-", "", "_", "", " ", "", ".", "").Replace(strings.ToLower(k))
}

// SecretHeader reports whether a header's value is redacted.
func (r *Redactor) SecretHeader(name string) bool {
	for _, h := range r.names { // a few names: cheaper than lower-casing name
		if equalFold(h, name) {
			return true
		}
	}
	return false
}

// SecretKey reports whether a body field's value is redacted.
func (r *Redactor) SecretKey(k string) bool {
	n := normKey(k)
	for _, s := range r.keys {
		if s == "pin" || s == "otp" || s == "pwd" || s == "ssn" || s == "cvv" {
			if n == s { // short keys only exactly: "spin", "shipping" are not secret
				return true
			}
			continue
		}
		if strings.Contains(n, s) {
			return true
		}
	}
	return false
}

// read reads h as Headers: the values of secret headers become
// secrets, the others plain.
func (r *Redactor) read(h map[string]string) Headers {
	if h == nil {
		return nil
	}
	out := make(Headers, len(h))
	r.merge(out, h)
	return out
}

// merge reads h into dst as read does.
func (r *Redactor) merge(dst Headers, h map[string]string) {
	for k, v := range h {
		dst[k] = secret.Maybe(v, r.SecretHeader(k))
	}
}

// body reads a captured body: a text body with secret fields becomes a
// secret encoded with those fields [redacted] (see Body); a body in base64
// is plain.
func (r *Redactor) body(text, encoding, contentType string) secret.String {
	if encoding != "" {
		return secret.Plain(text)
	}
	return secret.Masked(text, r.Body(text, contentType))
}

// Body returns a body with the values of secret fields replaced, for JSON
// and form bodies (by content type, or by shape when it is unknown); other
// bodies come back unchanged. A JSON body that was cut short is redacted
// by key as text.
func (r *Redactor) Body(body, contentType string) string {
	if body == "" {
		return body
	}
	ct := strings.ToLower(contentType)
	trim := strings.TrimSpace(body)
	switch {
	case strings.Contains(ct, "json") || (ct == "" || strings.HasPrefix(ct, "text/plain")) && (strings.HasPrefix(trim, "{") || strings.HasPrefix(trim, "[")):
		return r.jsonBody(body)
	case strings.Contains(ct, "x-www-form-urlencoded"):
		return r.formBody(body)
	}
	return body
}

func (r *Redactor) jsonBody(body string) string {
	dec := json.NewDecoder(strings.NewReader(body))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return r.jsonText(body)
	}
	v = r.walk(v)
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if enc.Encode(v) != nil {
		return r.jsonText(body)
	}
	return strings.TrimSuffix(b.String(), "\n")
}

func (r *Redactor) walk(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if r.SecretKey(k) {
				x[k] = Redacted
			} else {
				x[k] = r.walk(e)
			}
		}
	case []any:
		for i, e := range x {
			x[i] = r.walk(e)
		}
	}
	return v
}

// jsonText redacts "key": "value" and "key": scalar pairs in a body that
// does not parse (a truncated capture).
func (r *Redactor) jsonText(body string) string {
	var b strings.Builder
	i := 0
	for i < len(body) {
		q := strings.IndexByte(body[i:], '"')
		if q < 0 {
			break
		}
		start := i + q
		end := closingQuote(body, start+1)
		if end < 0 {
			break
		}
		key := body[start+1 : end]
		j := end + 1
		for j < len(body) && (body[j] == ' ' || body[j] == '\t' || body[j] == '\n' || body[j] == '\r') {
			j++
		}
		b.WriteString(body[i : end+1])
		i = end + 1
		if j < len(body) && body[j] == ':' && r.SecretKey(key) {
			k := j + 1
			for k < len(body) && (body[k] == ' ' || body[k] == '\t' || body[k] == '\n' || body[k] == '\r') {
				k++
			}
			b.WriteString(body[i:k])
			vend := k
			if k < len(body) && body[k] == '"' {
				if e := closingQuote(body, k+1); e >= 0 {
					vend = e + 1
				} else {
					vend = len(body)
				}
			} else {
				for vend < len(body) && !strings.ContainsRune(",}] \n\r\t", rune(body[vend])) {
					vend++
				}
			}
			b.WriteString(`"` + Redacted + `"`)
			i = vend
		}
	}
	b.WriteString(body[i:])
	return b.String()
}

func closingQuote(s string, from int) int {
	for i := from; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '"':
			return i
		}
	}
	return -1
}

func (r *Redactor) formBody(body string) string {
	parts := strings.Split(body, "&")
	for i, p := range parts {
		k, _, ok := strings.Cut(p, "=")
		if !ok {
			continue
		}
		key, err := url.QueryUnescape(k)
		if err != nil {
			key = k
		}
		if r.SecretKey(key) {
			parts[i] = k + "=" + url.QueryEscape(Redacted)
		}
	}
	return strings.Join(parts, "&")
}
