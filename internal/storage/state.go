package storage

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strings"

	"github.com/understudy-dev/understudy/internal/errs"
	"github.com/understudy-dev/understudy/internal/secret"
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
	Name         string        `json:"name"`
	Value        secret.String `json:"value"` // [redacted] in the file unless the export may reveal
	Domain       string        `json:"domain"`
	Path         string        `json:"path"`
	Expires      float64       `json:"expires"`
	HTTPOnly     bool          `json:"httpOnly"`
	Secure       bool          `json:"secure"`
	SameSite     string        `json:"sameSite"`
	PartitionKey string        `json:"partitionKey,omitempty"`
}

// StateOrigin is one origin's localStorage in Playwright's shape.
type StateOrigin struct {
	Origin       string `json:"origin"`
	LocalStorage []Item `json:"localStorage"`
	// IndexedDB is the origin's databases in Playwright's shape
	// ({name, version, stores: [{name, autoIncrement, keyPath?,
	// keyPathArray?, records: [{key?, keyEncoded?, value?, valueEncoded?}],
	// indexes}]}), kept as JSON: the page's script reads and writes it.
	IndexedDB json.RawMessage `json:"indexedDB,omitempty"`
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
	p := CookieParam{Name: c.Name, Value: c.Value.Reveal(), Domain: c.Domain, Path: c.Path, Secure: c.Secure,
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
					// Playwright 1.51+ writes it with storageState({indexedDB: true}).
					if err := checkIDB(path+".indexedDB", v, bad); err != nil {
						return nil, err
					}
					so.IndexedDB = v
				case "opfs":
					return nil, bad(path+".opfs", "importing the origin private file system is not supported; save the state without opfs")
				default:
					return nil, bad(path+"."+k, "is not a field of an origin (origin, localStorage, indexedDB)")
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
	var value string
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
	}{{"name", &c.Name, true}, {"value", &value, true}, {"domain", &c.Domain, true}, {"path", &c.Path, true}, {"sameSite", &c.SameSite, false}, {"partitionKey", &c.PartitionKey, false}} {
		if err := str(f.k, f.into, f.req); err != nil {
			return c, err
		}
	}
	if value == Redacted {
		return c, bad(path+".value", "is %s: the file was exported without reveal, so it carries no session; export it again with reveal:true on a server started with --allow-secrets", Redacted)
	}
	c.Value = secret.New(value)
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

// checkIDB checks an origin's indexedDB array against Playwright's shape
// (its IndexedDBDatabase type), naming the JSON path of the first problem.
func checkIDB(path string, raw json.RawMessage, bad func(string, string, ...any) error) error {
	var dbs []json.RawMessage
	if json.Unmarshal(raw, &dbs) != nil || isNull(raw) {
		return bad(path, "must be an array of databases {name, version, stores}")
	}
	type field struct {
		kind     string // string, bool, int, strings, array, any
		required bool
	}
	object := func(p string, r json.RawMessage, fields map[string]field) (map[string]json.RawMessage, error) {
		var m map[string]json.RawMessage
		if strictObject(r, &m) != nil {
			return nil, bad(p, "must be an object")
		}
		for k, v := range m {
			f, ok := fields[k]
			if !ok {
				return nil, bad(p+"."+k, "is not a field here")
			}
			var err error
			switch f.kind {
			case "string":
				var s string
				err = json.Unmarshal(v, &s)
			case "bool":
				var b bool
				err = json.Unmarshal(v, &b)
			case "int":
				var n float64
				if err = json.Unmarshal(v, &n); err == nil && (n < 1 || n != math.Trunc(n) || n > 1<<53) {
					return nil, bad(p+"."+k, "must be a whole number of 1 or more")
				}
			case "strings":
				var ss []string
				err = json.Unmarshal(v, &ss)
			case "array":
				var a []json.RawMessage
				err = json.Unmarshal(v, &a)
			}
			if err != nil || f.kind != "any" && isNull(v) {
				return nil, bad(p+"."+k, "must be a %s", map[string]string{"string": "string", "bool": "boolean", "int": "number", "strings": "array of strings", "array": "array"}[f.kind])
			}
		}
		for k, f := range fields {
			if _, ok := m[k]; f.required && !ok {
				return nil, bad(p+"."+k, "is required")
			}
		}
		return m, nil
	}
	list := func(r json.RawMessage) []json.RawMessage {
		var a []json.RawMessage
		_ = json.Unmarshal(r, &a)
		return a
	}
	names := map[string]bool{}
	for i, d := range dbs {
		dp := fmt.Sprintf("%s[%d]", path, i)
		m, err := object(dp, d, map[string]field{"name": {"string", true}, "version": {"int", true}, "stores": {"array", true}})
		if err != nil {
			return err
		}
		var name string
		_ = json.Unmarshal(m["name"], &name)
		if name == "" || names[name] {
			return bad(dp+".name", "must be a database name, once per origin")
		}
		names[name] = true
		stores := map[string]bool{}
		for j, s := range list(m["stores"]) {
			sp := fmt.Sprintf("%s.stores[%d]", dp, j)
			sm, err := object(sp, s, map[string]field{"name": {"string", true}, "autoIncrement": {"bool", true}, "keyPath": {"string", false},
				"keyPathArray": {"strings", false}, "records": {"array", true}, "indexes": {"array", true}})
			if err != nil {
				return err
			}
			var sname string
			_ = json.Unmarshal(sm["name"], &sname)
			if stores[sname] {
				return bad(sp+".name", "%q is listed twice", sname)
			}
			stores[sname] = true
			_, inline := sm["keyPath"]
			if _, arr := sm["keyPathArray"]; arr {
				inline = true
			}
			var auto bool
			_ = json.Unmarshal(sm["autoIncrement"], &auto)
			for k, r := range list(sm["records"]) {
				rp := fmt.Sprintf("%s.records[%d]", sp, k)
				rm, err := object(rp, r, map[string]field{"key": {"any", false}, "keyEncoded": {"any", false}, "value": {"any", false}, "valueEncoded": {"any", false}})
				if err != nil {
					return err
				}
				_, v1 := rm["value"]
				_, v2 := rm["valueEncoded"]
				if !v1 && !v2 {
					return bad(rp+".value", "is required (or valueEncoded)")
				}
				_, k1 := rm["key"]
				_, k2 := rm["keyEncoded"]
				if !inline && !auto && !k1 && !k2 {
					return bad(rp+".key", "is required: the store has out-of-line keys and no key generator")
				}
			}
			for k, ix := range list(sm["indexes"]) {
				ip := fmt.Sprintf("%s.indexes[%d]", sp, k)
				im, err := object(ip, ix, map[string]field{"name": {"string", true}, "keyPath": {"string", false}, "keyPathArray": {"strings", false},
					"multiEntry": {"bool", true}, "unique": {"bool", true}})
				if err != nil {
					return err
				}
				_, p1 := im["keyPath"]
				_, p2 := im["keyPathArray"]
				if !p1 && !p2 {
					return bad(ip+".keyPath", "is required (or keyPathArray)")
				}
			}
		}
	}
	return nil
}
