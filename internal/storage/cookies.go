package storage

import (
	"context"
	"encoding/json"
	"errors"
	"net/url"
	"strings"

	"github.com/understudy-dev/understudy/internal/cdp"
	"github.com/understudy-dev/understudy/internal/errs"
	"github.com/understudy-dev/understudy/internal/secret"
	"github.com/understudy-dev/understudy/internal/target"
)

// Redacted replaces a secret value in what an agent sees.
const Redacted = secret.Redacted

// Cookie is one cookie as the browser keeps it. Expires is epoch seconds,
// -1 for a session cookie.
type Cookie struct {
	Name         string        `json:"name"`
	Value        secret.String `json:"value"` // a secret from the moment it is read (docs/adr/039)
	Domain       string        `json:"domain"`
	Path         string        `json:"path"`
	Expires      float64       `json:"expires"`
	Size         int           `json:"size,omitempty"`
	HTTPOnly     bool          `json:"httpOnly"`
	Secure       bool          `json:"secure"`
	Session      bool          `json:"session"`
	SameSite     string        `json:"sameSite,omitempty"`
	Priority     string        `json:"priority,omitempty"`
	PartitionKey *PartitionKey `json:"partitionKey,omitempty"`
}

// PartitionKey is the partition of a partitioned (CHIPS) cookie.
type PartitionKey struct {
	TopLevelSite         string `json:"topLevelSite"`
	HasCrossSiteAncestor bool   `json:"hasCrossSiteAncestor"`
}

// CookieParam is a cookie to set. URL or Domain is required; Expires 0
// makes a session cookie.
type CookieParam struct {
	Name         string        `json:"name"`
	Value        string        `json:"value"`
	URL          string        `json:"url,omitempty"`
	Domain       string        `json:"domain,omitempty"`
	Path         string        `json:"path,omitempty"`
	Secure       bool          `json:"secure,omitempty"`
	HTTPOnly     bool          `json:"httpOnly,omitempty"`
	SameSite     string        `json:"sameSite,omitempty"`
	Expires      float64       `json:"expires,omitempty"`
	Priority     string        `json:"priority,omitempty"`
	PartitionKey *PartitionKey `json:"partitionKey,omitempty"`
}

// Filter narrows a cookie listing; empty fields match everything. URL keeps
// the cookies the browser would send to it. It is storage_cookies' and
// storage_clear_cookies' arguments.
type Filter struct {
	URL    string `json:"url,omitempty" jsonschema:"only cookies the browser would send to this URL"`
	Domain string `json:"domain,omitempty" jsonschema:"only cookies of this domain (and its subdomains)"`
	Name   string `json:"name,omitempty" jsonschema:"only cookies of this name"`
}

// Check refuses a URL that is not an http(s) origin or URL (field url).
func (f Filter) Check() error {
	if f.URL != "" {
		if _, err := NormalizeOrigin("url", f.URL); err != nil {
			return err
		}
	}
	return nil
}

// Cookies lists the cookies of the browser context the target belongs to.
// conn is any renderer target's socket of the app.
func Cookies(ctx context.Context, conn *cdp.Conn, f Filter) ([]Cookie, error) {
	var out struct {
		Cookies []Cookie `json:"cookies"`
	}
	if f.URL != "" {
		// The browser decides which cookies apply to a URL (domain, path,
		// secure, partitions), not a re-implementation here.
		if err := conn.Call(ctx, "Network.getCookies", map[string]any{"urls": []string{f.URL}}, &out); err != nil {
			return nil, err
		}
	} else if err := conn.Call(ctx, "Storage.getCookies", map[string]any{}, &out); err != nil {
		return nil, err
	}
	kept := out.Cookies[:0]
	for _, c := range out.Cookies {
		if f.Name != "" && c.Name != f.Name {
			continue
		}
		if f.Domain != "" && !domainMatch(c.Domain, f.Domain) {
			continue
		}
		kept = append(kept, c)
	}
	if kept == nil {
		kept = []Cookie{}
	}
	return kept, nil
}

// domainMatch says whether a cookie of domain cd belongs to the domain the
// agent named: the same host, or a host-wide cookie (".example.com") of it.
func domainMatch(cd, want string) bool {
	cd = strings.ToLower(strings.TrimPrefix(cd, "."))
	want = strings.ToLower(strings.TrimPrefix(want, "."))
	return cd == want || strings.HasSuffix(cd, "."+want)
}

// ValidateCookie checks a cookie to set; field prefixes the names of the
// fields in errors ("" for a tool's own arguments).
func ValidateCookie(field string, c *CookieParam) error {
	at := func(f string) string { return field + f }
	if c.Name == "" && c.Value == "" {
		return errs.BadArg(at("name"), "is required")
	}
	if strings.ContainsAny(c.Name, ";=,\t\r\n ") {
		return errs.BadArg(at("name"), "a cookie name cannot hold ';', '=', ',' or white space")
	}
	if strings.ContainsAny(c.Value, ";\r\n") {
		return errs.BadArg(at("value"), "a cookie value cannot hold ';' or a line break")
	}
	if c.URL == "" && c.Domain == "" {
		return errs.BadArg(at("url"), "pass url or domain")
	}
	if c.URL != "" {
		u, err := url.Parse(c.URL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return errs.BadArg(at("url"), "must be an absolute http(s) URL")
		}
	}
	if c.Domain != "" {
		d := strings.TrimPrefix(c.Domain, ".")
		if d == "" || strings.ContainsAny(d, "/:;, ") {
			return errs.BadArg(at("domain"), "must be a host name like example.com or .example.com")
		}
		if c.Path == "" {
			c.Path = "/"
		}
	}
	if c.Path != "" && !strings.HasPrefix(c.Path, "/") {
		return errs.BadArg(at("path"), "must start with /")
	}
	switch c.SameSite {
	case "", "Strict", "Lax", "None":
	default:
		return errs.BadArg(at("sameSite"), "must be Strict, Lax or None")
	}
	if c.SameSite == "None" && !c.Secure {
		return errs.BadArg(at("secure"), "a SameSite=None cookie must be secure (the browser rejects it otherwise)")
	}
	switch c.Priority {
	case "", "Low", "Medium", "High":
	default:
		return errs.BadArg(at("priority"), "must be Low, Medium or High")
	}
	if c.Expires < 0 {
		return errs.BadArg(at("expires"), "must be epoch seconds (omit it for a session cookie)")
	}
	if c.PartitionKey != nil {
		if !c.Secure {
			return errs.BadArg(at("secure"), "a partitioned cookie must be secure")
		}
		u, err := url.Parse(c.PartitionKey.TopLevelSite)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || (u.Path != "" && u.Path != "/") {
			return errs.BadArg(at("partitionKey.topLevelSite"), "must be a site like https://example.com")
		}
	}
	return nil
}

// SetCookies sets cookies in one call: the browser takes all of them or
// reports the first it rejects.
func SetCookies(ctx context.Context, conn *cdp.Conn, cs []CookieParam) error {
	if len(cs) == 0 {
		return nil
	}
	// A cookie sent without expires is not kept by Chromium 156; -1 is
	// what Playwright sends for a session cookie, and it works.
	wire := make([]map[string]any, len(cs))
	for i, c := range cs {
		b, _ := json.Marshal(c)
		var m map[string]any
		_ = json.Unmarshal(b, &m)
		if c.Expires == 0 {
			m["expires"] = -1
		}
		wire[i] = m
	}
	if err := conn.Call(ctx, "Network.setCookies", map[string]any{"cookies": wire}, nil); err != nil {
		var pe *cdp.ProtocolError
		if errors.As(err, &pe) {
			return errs.BadArg("cookie", "the browser refused the cookie: %s", pe.Message)
		}
		return err
	}
	return nil
}

// DeleteCookies deletes the cookies that match; it returns how many went.
// With an empty filter every cookie of the context goes.
func DeleteCookies(ctx context.Context, conn *cdp.Conn, f Filter) (int, error) {
	all, err := Cookies(ctx, conn, f)
	if err != nil {
		return 0, err
	}
	if f == (Filter{}) {
		if err := conn.Call(ctx, "Storage.clearCookies", map[string]any{}, nil); err != nil {
			return 0, err
		}
		return len(all), nil
	}
	for _, c := range all {
		p := map[string]any{"name": c.Name, "domain": c.Domain, "path": c.Path}
		if c.PartitionKey != nil {
			p["partitionKey"] = c.PartitionKey
		}
		if err := conn.Call(ctx, "Network.deleteCookies", p, nil); err != nil {
			return 0, err
		}
	}
	return len(all), nil
}

// Conn is a renderer target's socket; profile-wide calls (cookies) go
// through any of them.
type Conn = *cdp.Conn

// AnyConn returns the socket of the preferred window (the active one), else
// of the first window of the app.
func AnyConn(ctx context.Context, pool *target.Pool, prefer string) (Conn, error) {
	if prefer != "" {
		if conn, err := pool.Conn(ctx, prefer); err == nil {
			return conn, nil
		}
	}
	wins, err := pool.Windows(ctx)
	if err != nil {
		return nil, err
	}
	if len(wins) == 0 {
		return nil, errs.New(errs.SurfaceClosed, "the app has no open window")
	}
	return pool.Conn(ctx, wins[0].ID)
}
