package storage

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strings"

	"github.com/understudy-dev/understudy/internal/errs"
)

// State is Playwright's storageState: what browser.newContext({storageState})
// reads and context.storageState() writes.
type State struct {
	Cookies []StateCookie `json:"cookies"`
	Origins []StateOrigin `json:"origins"`
}

// StateCookie is a cookie in Playwright's shape: expires is epoch seconds
// (-1 for a session cookie) and sameSite is always one of Strict, Lax, None.
type StateCookie struct {
	Name         string  `json:"name"`
	Value        string  `json:"value"`
	Domain       string  `json:"domain"`
	Path         string  `json:"path"`
	Expires      float64 `json:"expires"`
	HTTPOnly     bool    `json:"httpOnly"`
	Secure       bool    `json:"secure"`
	SameSite     string  `json:"sameSite"`
	PartitionKey string  `json:"partitionKey,omitempty"`
}

// StateOrigin is one origin's localStorage in Playwright's shape.
type StateOrigin struct {
	Origin       string `json:"origin"`
	LocalStorage []Item `json:"localStorage"`
}

// StateCookieOf converts a browser cookie to Playwright's shape (Playwright
// reports an unset SameSite as Lax, as Chromium treats it).
func StateCookieOf(c Cookie) StateCookie {
	sc := StateCookie{Name: c.Name, Value: c.Value, Domain: c.Domain, Path: c.Path, Expires: c.Expires,
		HTTPOnly: c.HTTPOnly, Secure: c.Secure, SameSite: c.SameSite}
	if c.Session || c.Expires <= 0 {
		sc.Expires = -1
	}
	if sc.SameSite == "" {
		sc.SameSite = "Lax"
	}
	if c.PartitionKey != nil {
		sc.PartitionKey = c.PartitionKey.TopLevelSite
	}
	return sc
}

// Param converts a storageState cookie to a cookie to set.
func (c StateCookie) Param() CookieParam {
	p := CookieParam{Name: c.Name, Value: c.Value, Domain: c.Domain, Path: c.Path, Secure: c.Secure,
		HTTPOnly: c.HTTPOnly, SameSite: c.SameSite}
	if c.Expires > 0 {
		p.Expires = c.Expires
	}
	if c.PartitionKey != "" {
		p.PartitionKey = &PartitionKey{TopLevelSite: c.PartitionKey, HasCrossSiteAncestor: false}
	}
	return p
}

// ParseState reads and checks a whole storageState document before anything
// is written: the first problem is STORAGE_STATE_INVALID with its JSON path
// in details.path ("$.cookies[2].sameSite").
func ParseState(data []byte) (*State, error) {
	bad := func(path, format string, a ...any) error {
		return errs.New(errs.StorageStateInvalid, "%s: %s", path, fmt.Sprintf(format, a...)).With("path", path)
	}
	var root map[string]json.RawMessage
	if err := strictObject(data, &root); err != nil {
		return nil, bad("$", "must be a JSON object (%v)", err)
	}
	for k := range root {
		if k != "cookies" && k != "origins" {
			return nil, bad("$."+k, "is not a field of a storageState (cookies, origins)")
		}
	}
	st := &State{Cookies: []StateCookie{}, Origins: []StateOrigin{}}
	if raw, ok := root["cookies"]; ok {
		var arr []json.RawMessage
		if err := json.Unmarshal(raw, &arr); err != nil || isNull(raw) {
			return nil, bad("$.cookies", "must be an array")
		}
		for i, r := range arr {
			path := fmt.Sprintf("$.cookies[%d]", i)
			c, err := parseCookie(path, r, bad)
			if err != nil {
				return nil, err
			}
			st.Cookies = append(st.Cookies, c)
		}
	}
	if raw, ok := root["origins"]; ok {
		var arr []json.RawMessage
		if err := json.Unmarshal(raw, &arr); err != nil || isNull(raw) {
			return nil, bad("$.origins", "must be an array")
		}
		seen := map[string]bool{}
		for i, r := range arr {
			path := fmt.Sprintf("$.origins[%d]", i)
			var o map[string]json.RawMessage
			if err := strictObject(r, &o); err != nil {
				return nil, bad(path, "must be an object {origin, localStorage}")
			}
			var so StateOrigin
			for k, v := range o {
				switch k {
				case "origin":
					if json.Unmarshal(v, &so.Origin) != nil {
						return nil, bad(path+".origin", "must be a string")
					}
				case "localStorage":
					var items []map[string]json.RawMessage
					if json.Unmarshal(v, &items) != nil || isNull(v) {
						return nil, bad(path+".localStorage", "must be an array of {name, value}")
					}
					so.LocalStorage = make([]Item, 0, len(items))
					for j, it := range items {
						ip := fmt.Sprintf("%s.localStorage[%d]", path, j)
						var item Item
						if it == nil {
							return nil, bad(ip, "must be an object {name, value}")
						}
						for f := range it {
							if f != "name" && f != "value" {
								return nil, bad(ip+"."+f, "is not a field of a localStorage entry (name, value)")
							}
						}
						if json.Unmarshal(it["name"], &item.Name) != nil || it["name"] == nil {
							return nil, bad(ip+".name", "must be a string")
						}
						if json.Unmarshal(it["value"], &item.Value) != nil || it["value"] == nil {
							return nil, bad(ip+".value", "must be a string")
						}
						so.LocalStorage = append(so.LocalStorage, item)
					}
				case "indexedDB":
					// Playwright 1.51+ writes it when asked; importing it is not built.
					return nil, bad(path+".indexedDB", "importing IndexedDB is not supported; export without it")
				default:
					return nil, bad(path+"."+k, "is not a field of an origin (origin, localStorage)")
				}
			}
			if _, ok := o["origin"]; !ok {
				return nil, bad(path+".origin", "is required")
			}
			if so.LocalStorage == nil {
				return nil, bad(path+".localStorage", "is required")
			}
			norm, err := NormalizeOrigin(path+".origin", so.Origin)
			if err != nil || norm != so.Origin && norm+"/" != so.Origin {
				return nil, bad(path+".origin", "must be an http(s) origin like https://example.com, not %q", so.Origin)
			}
			so.Origin = norm
			if seen[norm] {
				return nil, bad(path+".origin", "%s is listed twice", norm)
			}
			seen[norm] = true
			st.Origins = append(st.Origins, so)
		}
	}
	return st, nil
}

func parseCookie(path string, raw json.RawMessage, bad func(string, string, ...any) error) (StateCookie, error) {
	var m map[string]json.RawMessage
	if err := strictObject(raw, &m); err != nil {
		return StateCookie{}, bad(path, "must be an object")
	}
	var c StateCookie
	str := func(k string, into *string, required bool) error {
		v, ok := m[k]
		if !ok {
			if required {
				return bad(path+"."+k, "is required")
			}
			return nil
		}
		if json.Unmarshal(v, into) != nil || isNull(v) {
			return bad(path+"."+k, "must be a string")
		}
		return nil
	}
	boolean := func(k string, into *bool) error {
		if v, ok := m[k]; ok && (json.Unmarshal(v, into) != nil || isNull(v)) {
			return bad(path+"."+k, "must be true or false")
		}
		return nil
	}
	for k := range m {
		switch k {
		case "name", "value", "domain", "path", "expires", "httpOnly", "secure", "sameSite", "partitionKey", "_crHasCrossSiteAncestor":
		default:
			return c, bad(path+"."+k, "is not a field of a storageState cookie")
		}
	}
	for _, f := range []struct {
		k    string
		into *string
		req  bool
	}{{"name", &c.Name, true}, {"value", &c.Value, true}, {"domain", &c.Domain, true}, {"path", &c.Path, true}, {"sameSite", &c.SameSite, false}, {"partitionKey", &c.PartitionKey, false}} {
		if err := str(f.k, f.into, f.req); err != nil {
			return c, err
		}
	}
	if err := boolean("httpOnly", &c.HTTPOnly); err != nil {
		return c, err
	}
	if err := boolean("secure", &c.Secure); err != nil {
		return c, err
	}
	c.Expires = -1
	if v, ok := m["expires"]; ok {
		if json.Unmarshal(v, &c.Expires) != nil || isNull(v) || math.IsNaN(c.Expires) {
			return c, bad(path+".expires", "must be a number (epoch seconds, -1 for a session cookie)")
		}
		if c.Expires < 0 && c.Expires != -1 {
			return c, bad(path+".expires", "must be epoch seconds or -1, not %v", c.Expires)
		}
	}
	if c.SameSite == "" {
		c.SameSite = "Lax"
	}
	p := c.Param()
	if err := ValidateCookie(path+".", &p); err != nil {
		if e := errs.As(err); e != nil {
			field, _ := e.Details["field"].(string)
			if field == "" {
				field = path
			}
			return c, bad(field, "%s", strings.TrimPrefix(e.Message, field+": "))
		}
		return c, err
	}
	return c, nil
}

// strictObject decodes a JSON object (not null, not an array).
func strictObject(data []byte, into *map[string]json.RawMessage) error {
	data = bytes.TrimSpace(data)
	if len(data) == 0 || data[0] != '{' {
		return fmt.Errorf("not an object")
	}
	return json.Unmarshal(data, into)
}

func isNull(raw json.RawMessage) bool { return bytes.Equal(bytes.TrimSpace(raw), []byte("null")) }
