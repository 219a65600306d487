package urlpolicy

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
	"unicode/utf8"
)

// URL is a URL as the URL Standard's parser (and Chromium's, which follows
// it for these steps) reads it, before any rule looks at it: leading and
// trailing C0 controls and spaces stripped, every tab and newline removed,
// the scheme case-folded, backslashes read as slashes in special URLs.
// A URL that wraps another (blob:, filesystem:, view-source:) carries the
// inner one in Inner, parsed the same way.
type URL struct {
	Scheme string // lower case, without the colon
	Rest   string // everything after the colon, canonicalized as above
	Inner  *URL   // blob:, filesystem:, view-source: — the URL they wrap; nil otherwise
}

// String is the canonical form: what the checks judged.
func (u *URL) String() string { return u.Scheme + ":" + u.Rest }

// Layers is u and every URL it wraps, outermost first.
func (u *URL) Layers() []*URL {
	var out []*URL
	for l := u; l != nil; l = l.Inner {
		out = append(out, l)
	}
	return out
}

// maxWrap bounds how deep wrapping URLs (view-source:blob:…) are followed.
const maxWrap = 8

// ErrUnparsable wraps every reason Parse gives.
var ErrUnparsable = errors.New("not a URL the relay can read")

// Parse reads raw as an absolute URL, strictly: where the URL Standard
// would fail, or would need a base URL, Parse fails; and so it does for
// what Chromium and the standard may read differently (a C0 control or
// DEL anywhere, a scheme that is not ASCII letters, digits, "+", "-" and
// ".", invalid UTF-8, a special URL without a host). A rule that judges
// the result judges what the browser will open.
func Parse(raw string) (*URL, error) { return parse(raw, 0) }

func parse(raw string, depth int) (*URL, error) {
	if depth > maxWrap {
		return nil, fmt.Errorf("%w: URLs wrapped more than %d deep", ErrUnparsable, maxWrap)
	}
	if !utf8.ValidString(raw) {
		return nil, fmt.Errorf("%w: invalid UTF-8", ErrUnparsable)
	}
	s := Normalize(raw)
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < ' ' || c == 0x7f {
			return nil, fmt.Errorf("%w: a control character (0x%02x) at byte %d", ErrUnparsable, c, i)
		}
	}
	colon := strings.IndexByte(s, ':')
	if colon <= 0 || !validScheme(s[:colon]) {
		return nil, fmt.Errorf("%w: no scheme (a scheme is an ASCII letter, then letters, digits, +, - or ., then a colon)", ErrUnparsable)
	}
	u := &URL{Scheme: strings.ToLower(s[:colon]), Rest: s[colon+1:]}
	switch u.Scheme {
	case "http", "https", "ws", "wss", "ftp", "file":
		u.Rest = strings.ReplaceAll(u.Rest, `\`, "/")
	}
	switch u.Scheme {
	case "http", "https", "ws", "wss", "ftp":
		p, err := url.Parse(u.String())
		if err != nil {
			return nil, fmt.Errorf("%w: %v", ErrUnparsable, errors.Unwrap(err))
		}
		if p.Host == "" || p.Hostname() == "" {
			return nil, fmt.Errorf("%w: an %s: URL needs a host", ErrUnparsable, u.Scheme)
		}
		if strings.ContainsAny(p.Hostname(), "%") {
			return nil, fmt.Errorf("%w: a percent-encoded host", ErrUnparsable)
		}
	case "file":
		if _, err := url.Parse(u.String()); err != nil {
			return nil, fmt.Errorf("%w: %v", ErrUnparsable, errors.Unwrap(err))
		}
	case "view-source", "filesystem":
		in, err := parse(u.Rest, depth+1)
		if err != nil {
			return nil, fmt.Errorf("in %s: %w", u.Scheme, err)
		}
		u.Inner = in
	case "blob":
		// A blob: URL made in an opaque origin is blob:null/<uuid>.
		if strings.HasPrefix(u.Rest, "null/") {
			break
		}
		in, err := parse(u.Rest, depth+1)
		if err != nil {
			return nil, fmt.Errorf("in blob: %w", err)
		}
		u.Inner = in
	}
	return u, nil
}

// Opened judges a URL a client of the relay asks the browser to open
// (Target.createTarget, Page.navigate, /json/new): it must parse (Parse)
// and no layer of it may act on the browser (BrowserActing, applied to
// each layer, so blob:chrome://… and filesystem:chrome://… are refused
// too). It returns the parsed URL, or why not. The empty string is
// about:blank, as Chromium reads it in Target.createTarget.
func Opened(raw string) (*URL, string) {
	if raw == "" {
		return &URL{Scheme: "about", Rest: "blank"}, ""
	}
	u, err := Parse(raw)
	if err != nil {
		return nil, "it cannot be read as a URL (" + err.Error() + ")"
	}
	for _, l := range u.Layers() {
		if why := BrowserActing(l.String()); why != "" {
			return nil, why
		}
	}
	return u, ""
}
