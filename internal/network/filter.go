package network

import (
	"regexp"
	"strings"

	"github.com/understudy-dev/understudy/internal/errs"
)

// Match says which requests a capture or a stub concerns. Every list that
// is set must match (URL: any of URLs, Globs or Regex; Methods, Types and
// Surfaces: any entry). An empty Match matches every request.
type Match struct {
	// URLs are substrings of the URL.
	URLs []string
	// Globs are URL patterns: * is any run of characters, ? one character.
	Globs []string
	// Regex is an RE2 expression searched in the URL.
	Regex string
	// Methods are HTTP methods, case-insensitive.
	Methods []string
	// Types are resource types (Document, XHR, Fetch, Script, Image, …),
	// case-insensitive.
	Types []string
	// Surfaces are surface ids the request must come from.
	Surfaces []string
}

// Matcher is a compiled [Match].
type Matcher struct {
	m      Match
	globs  []*regexp.Regexp
	re     *regexp.Regexp
	anyURL bool
}

// Compile checks a Match. field prefixes the names of bad fields
// ("urls" becomes field+"urls" — pass "" at the top level).
func Compile(m Match, field string) (*Matcher, error) {
	c := &Matcher{m: m, anyURL: len(m.URLs) == 0 && len(m.Globs) == 0 && m.Regex == ""}
	for i, u := range m.URLs {
		if u == "" {
			return nil, errs.BadArg(field+"urls", "entry %d is empty", i)
		}
	}
	for i, g := range m.Globs {
		re, err := GlobRegexp(g)
		if err != nil {
			return nil, errs.BadArg(field+"globs", "entry %d (%q): %v", i, g, err)
		}
		c.globs = append(c.globs, re)
	}
	if m.Regex != "" {
		if len(m.Regex) > 1000 {
			return nil, errs.BadArg(field+"regex", "the pattern is %d characters; at most 1000", len(m.Regex))
		}
		re, err := regexp.Compile(m.Regex)
		if err != nil {
			return nil, errs.BadArg(field+"regex", "not a regular expression (RE2 syntax): %v", err)
		}
		c.re = re
	}
	for i, t := range m.Methods {
		if strings.TrimSpace(t) == "" {
			return nil, errs.BadArg(field+"methods", "entry %d is empty", i)
		}
	}
	for i, t := range m.Types {
		if _, ok := resourceTypes[strings.ToLower(t)]; !ok {
			return nil, errs.BadArg(field+"resourceTypes", "entry %d (%q) is not a resource type (document, stylesheet, image, media, font, script, xhr, fetch, eventsource, websocket, manifest, ping, preflight, other, …)", i, t)
		}
	}
	return c, nil
}

// resourceTypes are the Network.ResourceType values, lower case.
var resourceTypes = map[string]bool{"document": true, "stylesheet": true, "image": true, "media": true, "font": true,
	"script": true, "texttrack": true, "xhr": true, "fetch": true, "prefetch": true, "eventsource": true, "websocket": true,
	"manifest": true, "signedexchange": true, "ping": true, "cspviolationreport": true, "preflight": true, "fedcm": true, "other": true}

// GlobRegexp turns a URL glob into an anchored expression: * is any run of
// characters (** too), ? one character; everything else is literal.
func GlobRegexp(g string) (*regexp.Regexp, error) {
	if g == "" {
		return nil, errs.New(errs.BadArgument, "empty glob")
	}
	var b strings.Builder
	b.WriteString("^")
	for _, r := range g {
		switch r {
		case '*':
			if !strings.HasSuffix(b.String(), ".*") {
				b.WriteString(".*")
			}
		case '?':
			b.WriteString(".")
		default:
			b.WriteString(regexp.QuoteMeta(string(r)))
		}
	}
	b.WriteString("$")
	return regexp.Compile(b.String())
}

// URL reports whether the URL part matches.
func (c *Matcher) URL(u string) bool {
	if c == nil || c.anyURL {
		return true
	}
	for _, s := range c.m.URLs {
		if strings.Contains(u, s) {
			return true
		}
	}
	for _, g := range c.globs {
		if g.MatchString(u) {
			return true
		}
	}
	return c.re != nil && c.re.MatchString(u)
}

// Request reports whether a request matches.
func (c *Matcher) Request(url, method, typ, surfaceID string) bool {
	if c == nil {
		return true
	}
	if !c.URL(url) {
		return false
	}
	if len(c.m.Methods) > 0 && !anyFold(c.m.Methods, method) {
		return false
	}
	if len(c.m.Types) > 0 && !anyFold(c.m.Types, typ) {
		return false
	}
	if len(c.m.Surfaces) > 0 && !anyFold(c.m.Surfaces, surfaceID) {
		return false
	}
	return true
}

// Spec returns the Match it was compiled from.
func (c *Matcher) Spec() Match { return c.m }

func anyFold(list []string, s string) bool {
	for _, x := range list {
		if strings.EqualFold(strings.TrimSpace(x), s) {
			return true
		}
	}
	return false
}
