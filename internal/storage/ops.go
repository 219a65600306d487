package storage

import (
	"context"

	"github.com/understudy-dev/understudy/internal/errs"
)

// The storage tools' arguments (their JSON names and descriptions are the
// tools' input schemas), their checks, and their results, with the App
// operations that answer them. internal/tool embeds the arguments beside
// its own shared pieces and returns the results as they are.

// CookiesResult is a cookie listing.
type CookiesResult struct {
	Count    int      `json:"count"`
	Cookies  []Cookie `json:"cookies"`
	Redacted bool     `json:"redacted" jsonschema:"true when cookie values are shown as [redacted]"`
}

// CookieList lists the cookies that match f, their values shown only with
// reveal.
func (a App) CookieList(ctx context.Context, f Filter, reveal bool) (*CookiesResult, error) {
	cs, err := a.ListCookies(ctx, f)
	if err != nil {
		return nil, err
	}
	return &CookiesResult{Count: len(cs), Cookies: Redact(cs, reveal), Redacted: !reveal}, nil
}

// NewCookie is storage_set_cookie's cookie: every attribute, url or
// domain, and a partitioned cookie's top-level site.
type NewCookie struct {
	Name         string  `json:"name" jsonschema:"the cookie name"`
	Value        string  `json:"value" jsonschema:"the cookie value"`
	URL          string  `json:"url,omitempty" jsonschema:"the URL the cookie is for (sets domain, path and secure from it); this or domain"`
	Domain       string  `json:"domain,omitempty" jsonschema:"the cookie domain (.example.com for every subdomain); this or url"`
	Path         string  `json:"path,omitempty" jsonschema:"default / (with domain) or the URL's path"`
	Expires      float64 `json:"expires,omitempty" jsonschema:"epoch seconds; omit for a session cookie"`
	HTTPOnly     bool    `json:"httpOnly,omitempty" jsonschema:"hidden from document.cookie"`
	Secure       bool    `json:"secure,omitempty" jsonschema:"sent only over https"`
	SameSite     string  `json:"sameSite,omitempty" jsonschema:"Strict, Lax or None (None needs secure)"`
	Priority     string  `json:"priority,omitempty" jsonschema:"Low, Medium or High"`
	PartitionKey string  `json:"partitionKey,omitempty" jsonschema:"the top-level site of a partitioned (CHIPS) cookie, like https://example.com; needs secure"`
}

// Param is the cookie as the protocol sets it.
func (c NewCookie) Param() CookieParam {
	p := CookieParam{Name: c.Name, Value: c.Value, URL: c.URL, Domain: c.Domain, Path: c.Path, Expires: c.Expires,
		HTTPOnly: c.HTTPOnly, Secure: c.Secure, SameSite: c.SameSite, Priority: c.Priority}
	if c.PartitionKey != "" {
		p.PartitionKey = &PartitionKey{TopLevelSite: c.PartitionKey}
	}
	return p
}

// Check is ValidateCookie on the cookie, with a bad partition key named as
// the argument partitionKey.
func (c NewCookie) Check() error {
	if c.Name == "" {
		return errs.BadArg("name", "is required")
	}
	p := c.Param()
	if err := ValidateCookie("", &p); err != nil {
		if e := errs.As(err); e != nil && e.Details["field"] == "partitionKey.topLevelSite" {
			return errs.BadArg("partitionKey", "must be a site like https://example.com")
		}
		return err
	}
	return nil
}

// SetCookieResult is a cookie set and read back.
type SetCookieResult struct {
	Set    bool   `json:"set"`
	Cookie Cookie `json:"cookie" jsonschema:"the cookie as the browser now keeps it (value redacted)"`
}

// AddCookie sets c and reads it back (SetCookie).
func (a App) AddCookie(ctx context.Context, c NewCookie) (*SetCookieResult, error) {
	got, err := a.SetCookie(ctx, c.Param())
	if err != nil {
		return nil, err
	}
	return &SetCookieResult{Set: true, Cookie: got}, nil
}

// ClearCookiesResult is a cookie deletion.
type ClearCookiesResult struct {
	Cleared   int `json:"cleared" jsonschema:"how many cookies were deleted"`
	Remaining int `json:"remaining" jsonschema:"how many cookies match the filter now (0 when the clear worked)"`
}

// ClearMatching deletes the cookies that match f and checks that none is
// left (ClearCookies).
func (a App) ClearMatching(ctx context.Context, f Filter) (*ClearCookiesResult, error) {
	n, err := a.ClearCookies(ctx, f)
	if err != nil {
		return nil, err
	}
	return &ClearCookiesResult{Cleared: n}, nil
}

// SnapshotOptions is what storage_snapshot reads beside every cookie.
type SnapshotOptions struct {
	Origin         string `json:"origin,omitempty" jsonschema:"only this origin's Web Storage (cookies stay all)"`
	SessionStorage bool   `json:"sessionStorage,omitempty" jsonschema:"also read each origin's sessionStorage"`
}

// SnapshotResult is a Snapshot.
type SnapshotResult struct {
	Cookies  []Cookie        `json:"cookies"`
	Origins  []OriginStorage `json:"origins"`
	Redacted bool            `json:"redacted"`
}

// OriginArg names the origin of a Web Storage or IndexedDB call.
type OriginArg struct {
	Origin string `json:"origin,omitempty" jsonschema:"the origin (or any URL of it); default: the active surface's"`
}

// WebGet is the keys a Web Storage read asks for.
type WebGet struct {
	OriginArg
	Key  string   `json:"key,omitempty" jsonschema:"one key to read"`
	Keys []string `json:"keys,omitempty" jsonschema:"several keys to read in one call"`
}

// Check wants exactly one of Key and Keys (field key).
func (g WebGet) Check() error {
	if (g.Key == "") == (len(g.Keys) == 0) {
		return errs.BadArg("key", "pass exactly one of key or keys")
	}
	return nil
}

// WebGetResult is a Web Storage read: one key's value, or several keys'.
type WebGetResult struct {
	Scope  string             `json:"scope"`
	Origin string             `json:"origin"`
	Key    string             `json:"key,omitempty"`
	Value  *string            `json:"value,omitempty" jsonschema:"the value; absent (with found false) when the key is not set"`
	Found  *bool              `json:"found,omitempty"`
	Items  map[string]*string `json:"items,omitempty" jsonschema:"keys → values (null when not set), for keys"`
}

// WebRead reads the keys g asks for from scope of its origin; a missing key
// is not found (Key) or null (Keys).
func (a App) WebRead(ctx context.Context, scope Scope, g WebGet) (*WebGetResult, error) {
	area, origin, err := a.Area(ctx, g.Origin, scope)
	if err != nil {
		return nil, err
	}
	items, err := area.Items(ctx)
	if err != nil {
		return nil, err
	}
	m := Lookup(items)
	out := &WebGetResult{Scope: string(scope), Origin: origin}
	if g.Key != "" {
		v, ok := m[g.Key]
		out.Key, out.Found = g.Key, &ok
		if ok {
			out.Value = &v
		}
		return out, nil
	}
	out.Items = map[string]*string{}
	for _, k := range g.Keys {
		if v, ok := m[k]; ok {
			out.Items[k] = &v
		} else {
			out.Items[k] = nil
		}
	}
	return out, nil
}

// WebSet is one Web Storage key to set.
type WebSet struct {
	OriginArg
	Key   string `json:"key" jsonschema:"the key"`
	Value string `json:"value" jsonschema:"the string value"`
}

// Check wants a key.
func (s WebSet) Check() error {
	if s.Key == "" {
		return errs.BadArg("key", "is required")
	}
	return nil
}

// WebKey is one Web Storage key to remove.
type WebKey struct {
	OriginArg
	Key string `json:"key" jsonschema:"the key"`
}

// Check wants a key.
func (k WebKey) Check() error {
	if k.Key == "" {
		return errs.BadArg("key", "is required")
	}
	return nil
}

// WebChangeResult is a Web Storage change, read back.
type WebChangeResult struct {
	Scope   string `json:"scope"`
	Origin  string `json:"origin"`
	Set     bool   `json:"set,omitempty"`
	Removed bool   `json:"removed,omitempty"`
	Cleared bool   `json:"cleared,omitempty"`
	Count   int    `json:"count" jsonschema:"how many keys the area holds now"`
}

// WebWrite sets s's key in scope of its origin and reads it back.
func (a App) WebWrite(ctx context.Context, scope Scope, s WebSet) (*WebChangeResult, error) {
	area, origin, err := a.Area(ctx, s.Origin, scope)
	if err != nil {
		return nil, err
	}
	n, err := area.SetChecked(ctx, s.Key, s.Value)
	if err != nil {
		return nil, err
	}
	return &WebChangeResult{Scope: string(scope), Origin: origin, Set: true, Count: n}, nil
}

// WebRemove removes k's key from scope of its origin (absent is fine) and
// checks it is gone.
func (a App) WebRemove(ctx context.Context, scope Scope, k WebKey) (*WebChangeResult, error) {
	area, origin, err := a.Area(ctx, k.Origin, scope)
	if err != nil {
		return nil, err
	}
	n, err := area.RemoveChecked(ctx, k.Key)
	if err != nil {
		return nil, err
	}
	return &WebChangeResult{Scope: string(scope), Origin: origin, Removed: true, Count: n}, nil
}

// WebClear clears scope of the origin and checks it is empty.
func (a App) WebClear(ctx context.Context, scope Scope, o OriginArg) (*WebChangeResult, error) {
	area, origin, err := a.Area(ctx, o.Origin, scope)
	if err != nil {
		return nil, err
	}
	if err := area.ClearChecked(ctx); err != nil {
		return nil, err
	}
	return &WebChangeResult{Scope: string(scope), Origin: origin, Cleared: true}, nil
}

// WebKeysResult is the keys of a Web Storage area.
type WebKeysResult struct {
	Scope  string   `json:"scope"`
	Origin string   `json:"origin"`
	Count  int      `json:"count"`
	Keys   []string `json:"keys"`
}

// WebKeys lists the keys of scope of the origin, no values.
func (a App) WebKeys(ctx context.Context, scope Scope, o OriginArg) (*WebKeysResult, error) {
	area, origin, err := a.Area(ctx, o.Origin, scope)
	if err != nil {
		return nil, err
	}
	items, err := area.Items(ctx)
	if err != nil {
		return nil, err
	}
	keys := make([]string, len(items))
	for i, it := range items {
		keys[i] = it.Name
	}
	return &WebKeysResult{Scope: string(scope), Origin: origin, Count: len(keys), Keys: keys}, nil
}

// ExportOptions is storage_state_export's file and what goes in it.
type ExportOptions struct {
	Path      string `json:"path" jsonschema:"the file to write (absolute, or relative to the artifacts folder); under the allowed roots"`
	Overwrite bool   `json:"overwrite,omitempty" jsonschema:"replace a file this server did not write"`
	IndexedDB bool   `json:"indexedDB,omitempty" jsonschema:"also write each origin's IndexedDB databases (origins[].indexedDB), as Playwright's storageState({indexedDB: true})"`
}

// Check wants a path.
func (o ExportOptions) Check() error {
	if o.Path == "" {
		return errs.BadArg("path", "is required")
	}
	return nil
}

// ImportOptions is storage_state_import's file.
type ImportOptions struct {
	Path string `json:"path" jsonschema:"the storageState JSON file to read (absolute, under the allowed roots)"`
}

// Check wants a path.
func (o ImportOptions) Check() error {
	if o.Path == "" {
		return errs.BadArg("path", "is required")
	}
	return nil
}
