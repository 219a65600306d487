package tool

import (
	"context"

	"github.com/understudy-dev/understudy/internal/errs"
	"github.com/understudy-dev/understudy/internal/files"
	"github.com/understudy-dev/understudy/internal/storage"
)

func registerStorage(s *Server) {
	define(s, Def{
		Name: "storage_cookies", Title: "List cookies", Class: classRead, Session: true,
		Effects: Effects{Does: kRead, Secrets: true},
		Desc:    "The app's cookies (through the protocol, no page JavaScript), optionally only those the browser would send to url, of a domain, or of a name. Values are [redacted] unless reveal:true and the server runs with --allow-secrets.",
	}, storageCookies)
	define(s, Def{
		Name: "storage_set_cookie", Title: "Set a cookie", Class: classAction, Session: true,
		Effects: Effects{Does: kSet},
		Desc:    "Add or overwrite one cookie (all attributes; partitionKey for a partitioned cookie). Pass url or domain. expires is epoch seconds; omit it for a session cookie. The cookie is read back before ok.",
	}, storageSetCookie)
	define(s, Def{
		Name: "storage_clear_cookies", Title: "Delete cookies", Class: classAction, Session: true,
		Effects: Effects{Does: kSet},
		Desc:    "Delete cookies: all of them, or those matching url, domain and/or name. Returns how many went.",
	}, storageClearCookies)
	define(s, Def{
		Name: "storage_snapshot", Title: "Storage snapshot", Class: classRead, Session: true,
		Effects: Effects{Does: kRead, Secrets: true},
		Desc:    "Every cookie plus the localStorage (and sessionStorage) of every origin a document of the app has open: top pages, frames, cross-site OOPIFs and webview guests. Cookie values are [redacted] unless reveal:true and --allow-secrets; Web Storage values are app state and shown as they are.",
	}, storageSnapshot)
	define(s, Def{
		Name: "storage_local_get", Title: "Read localStorage", Class: classRead, Session: true,
		Effects: Effects{Does: kRead},
		Desc:    "Read localStorage values by key (or keys) of an origin: origin (default: the active surface's). A missing key is value null. Works for origins open only in an OOPIF or a webview guest.",
	}, webGet(storage.Local))
	define(s, Def{
		Name: "storage_local_set", Title: "Set a localStorage key", Class: classAction, Session: true,
		Effects: Effects{Does: kSet},
		Desc:    "Set one localStorage key of an origin (default: the active surface's) to a string value; read back before ok.",
	}, webSet(storage.Local))
	define(s, Def{
		Name: "storage_local_remove", Title: "Remove a localStorage key", Class: classAction, Session: true,
		Effects: Effects{Does: kSet},
		Desc:    "Remove one localStorage key of an origin (default: the active surface's); absent is fine.",
	}, webRemove(storage.Local))
	define(s, Def{
		Name: "storage_local_keys", Title: "List localStorage keys", Class: classRead, Session: true,
		Effects: Effects{Does: kRead},
		Desc:    "List the localStorage keys of an origin (default: the active surface's), no values.",
	}, webKeys(storage.Local))
	define(s, Def{
		Name: "storage_local_clear", Title: "Clear localStorage", Class: classAction, Session: true,
		Effects: Effects{Does: kSet},
		Desc:    "Clear all of localStorage of an origin (default: the active surface's).",
	}, webClear(storage.Local))
	define(s, Def{
		Name: "storage_session_get", Title: "Read sessionStorage", Class: classRead, Session: true,
		Effects: Effects{Does: kRead},
		Desc:    "Read sessionStorage values by key (or keys) of an origin: origin (default: the active surface's). A missing key is value null. Works for origins open only in an OOPIF or a webview guest.",
	}, webGet(storage.Session))
	define(s, Def{
		Name: "storage_session_set", Title: "Set a sessionStorage key", Class: classAction, Session: true,
		Effects: Effects{Does: kSet},
		Desc:    "Set one sessionStorage key of an origin (default: the active surface's) to a string value; read back before ok.",
	}, webSet(storage.Session))
	define(s, Def{
		Name: "storage_session_remove", Title: "Remove a sessionStorage key", Class: classAction, Session: true,
		Effects: Effects{Does: kSet},
		Desc:    "Remove one sessionStorage key of an origin (default: the active surface's); absent is fine.",
	}, webRemove(storage.Session))
	define(s, Def{
		Name: "storage_session_keys", Title: "List sessionStorage keys", Class: classRead, Session: true,
		Effects: Effects{Does: kRead},
		Desc:    "List the sessionStorage keys of an origin (default: the active surface's), no values.",
	}, webKeys(storage.Session))
	define(s, Def{
		Name: "storage_session_clear", Title: "Clear sessionStorage", Class: classAction, Session: true,
		Effects: Effects{Does: kSet},
		Desc:    "Clear all of sessionStorage of an origin (default: the active surface's).",
	}, webClear(storage.Session))
	define(s, Def{
		Name: "storage_idb_schema", Title: "IndexedDB schema", Class: classRead, Session: true,
		Effects: Effects{Does: kRead},
		Desc:    "IndexedDB of an origin (default: the active surface's; OOPIF and webview origins too): without database, the database names; with it, its version and object stores (keyPath, autoIncrement, indexes). Read through the protocol, no page JavaScript.",
	}, idbSchema)
	define(s, Def{
		Name: "storage_idb_get", Title: "Read IndexedDB records", Class: classRead, Session: true,
		Effects: Effects{Does: kRead},
		Desc:    "Read a page of IndexedDB records in key order: database, store, optional index, range {lower, upper, lowerOpen, upperOpen} (numbers or strings), skip and limit (default 100, max 1000); hasMore says whether more follow. Values come as JSON (Date as ISO text, binary as {__type, byteLength}).",
	}, idbGet)
	define(s, Def{
		Name: "storage_idb_keys", Title: "List IndexedDB primary keys", Class: classRead, Session: true,
		Effects: Effects{Does: kRead},
		Desc:    "List the primary keys of an IndexedDB object store in key order, without reading the values: database, store, optional index (then the primary keys of the records whose index key is in range, in index order), range {lower, upper, lowerOpen, upperOpen} (numbers or strings), limit (default 100, max 1000); hasMore says whether more follow.",
	}, idbKeys)
	define(s, Def{
		Name: "storage_idb_count", Title: "Count IndexedDB records", Class: classRead, Session: true,
		Effects: Effects{Does: kRead},
		Desc:    "Count the records of an IndexedDB object store.",
	}, idbCount)
	define(s, Def{
		Name: "storage_idb_set", Title: "Write an IndexedDB record", Class: classAction, Session: true,
		Effects: Effects{Does: kSet},
		Desc:    "Add or overwrite one IndexedDB record in an existing database and object store (never creates or upgrades one): value is JSON; key (number or string) only for a store with out-of-line keys. The record is read back after the commit. Returns the effective key.",
	}, idbSet)
	define(s, Def{
		Name: "storage_idb_delete", Title: "Delete IndexedDB records", Class: classAction, Session: true,
		Effects: Effects{Does: kSet},
		Desc:    "Delete IndexedDB records by key (or a key range) from an object store; reports the count before and after.",
	}, idbDelete)
	define(s, Def{
		Name: "storage_idb_clear", Title: "Clear an IndexedDB store", Class: classAction, Session: true,
		Effects: Effects{Does: kSet},
		Desc:    "Delete every record of an IndexedDB object store.",
	}, idbClear)
	define(s, Def{
		Name: "storage_state_export", Title: "Export Playwright storageState", Class: classAction, Session: true,
		Effects: Effects{Does: kSelect, Writes: []string{"path"}, Secrets: true},
		Desc:    "Write the app's state as a Playwright storageState JSON file (cookies + origins[].localStorage of every open origin, and origins[].indexedDB with indexedDB:true, as Playwright's storageState({indexedDB: true})), which browser.newContext({storageState}) loads. Cookie values are [redacted] in the file unless reveal:true on a server started with --allow-secrets (a file that must log in later needs that); the result shows only counts.",
	}, storageStateExport)
	define(s, Def{
		Name: "storage_state_import", Title: "Import Playwright storageState", Class: classAction, Session: true,
		Effects: Effects{Does: kSet, Reads: []string{"path"}},
		Desc:    "Seed the app from a Playwright storageState JSON file (context.storageState() writes one): cookies, and localStorage and IndexedDB of origins the app has open (a database that exists keeps its schema and gets each listed store's records replaced; one that does not is created). The whole file is checked before anything is written (STORAGE_STATE_INVALID names the JSON path of the first problem).",
	}, storageStateImport)
}

// appStorage is the storage of the call's session (internal/storage.App).
func appStorage(c *Call) storage.App {
	return storage.App{Pool: c.Session.Pool, Surfaces: c.Session.Surfaces}
}

// revealArgs is the opt-in to see secret values.
type revealArgs struct {
	Reveal bool `json:"reveal,omitempty" jsonschema:"show cookie values; needs the server's --allow-secrets"`
}

func (r *revealArgs) reveals() bool { return r.Reveal }

type cookiesArgs struct {
	Common
	revealArgs
	URL    string `json:"url,omitempty" jsonschema:"only cookies the browser would send to this URL"`
	Domain string `json:"domain,omitempty" jsonschema:"only cookies of this domain (and its subdomains)"`
	Name   string `json:"name,omitempty" jsonschema:"only cookies of this name"`
}

func (a *cookiesArgs) validate() error {
	if a.URL != "" {
		if _, err := storage.NormalizeOrigin("url", a.URL); err != nil {
			return err
		}
	}
	return nil
}

type cookiesResult struct {
	Count    int              `json:"count"`
	Cookies  []storage.Cookie `json:"cookies"`
	Redacted bool             `json:"redacted" jsonschema:"true when cookie values are shown as [redacted]"`
}

func storageCookies(ctx context.Context, c *Call, a *cookiesArgs) (*cookiesResult, error) {
	reveal := a.Reveal // the dispatcher refused it without --allow-secrets (gateArgs)
	cs, err := appStorage(c).ListCookies(ctx, storage.Filter{URL: a.URL, Domain: a.Domain, Name: a.Name})
	if err != nil {
		return nil, err
	}
	return &cookiesResult{Count: len(cs), Cookies: storage.Redact(cs, reveal), Redacted: !reveal}, nil
}

type setCookieArgs struct {
	Common
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

func (a *setCookieArgs) param() storage.CookieParam {
	p := storage.CookieParam{Name: a.Name, Value: a.Value, URL: a.URL, Domain: a.Domain, Path: a.Path, Expires: a.Expires,
		HTTPOnly: a.HTTPOnly, Secure: a.Secure, SameSite: a.SameSite, Priority: a.Priority}
	if a.PartitionKey != "" {
		p.PartitionKey = &storage.PartitionKey{TopLevelSite: a.PartitionKey}
	}
	return p
}

func (a *setCookieArgs) validate() error {
	if a.Name == "" {
		return errs.BadArg("name", "is required")
	}
	p := a.param()
	if err := storage.ValidateCookie("", &p); err != nil {
		if e := errs.As(err); e != nil && e.Details["field"] == "partitionKey.topLevelSite" {
			return errs.BadArg("partitionKey", "must be a site like https://example.com")
		}
		return err
	}
	return nil
}

type setCookieResult struct {
	Set    bool           `json:"set"`
	Cookie storage.Cookie `json:"cookie" jsonschema:"the cookie as the browser now keeps it (value redacted)"`
}

func storageSetCookie(ctx context.Context, c *Call, a *setCookieArgs) (*setCookieResult, error) {
	got, err := appStorage(c).SetCookie(ctx, a.param())
	if err != nil {
		return nil, err
	}
	return &setCookieResult{Set: true, Cookie: got}, nil
}

type clearCookiesArgs struct {
	Common
	URL    string `json:"url,omitempty" jsonschema:"only cookies the browser would send to this URL"`
	Domain string `json:"domain,omitempty" jsonschema:"only cookies of this domain (and its subdomains)"`
	Name   string `json:"name,omitempty" jsonschema:"only cookies of this name"`
}

func (a *clearCookiesArgs) validate() error {
	if a.URL != "" {
		if _, err := storage.NormalizeOrigin("url", a.URL); err != nil {
			return err
		}
	}
	return nil
}

type clearCookiesResult struct {
	Cleared   int `json:"cleared" jsonschema:"how many cookies were deleted"`
	Remaining int `json:"remaining" jsonschema:"how many cookies match the filter now (0 when the clear worked)"`
}

func storageClearCookies(ctx context.Context, c *Call, a *clearCookiesArgs) (*clearCookiesResult, error) {
	n, err := appStorage(c).ClearCookies(ctx, storage.Filter{URL: a.URL, Domain: a.Domain, Name: a.Name})
	if err != nil {
		return nil, err
	}
	return &clearCookiesResult{Cleared: n}, nil
}

type storageSnapshotArgs struct {
	Common
	revealArgs
	Origin         string `json:"origin,omitempty" jsonschema:"only this origin's Web Storage (cookies stay all)"`
	SessionStorage bool   `json:"sessionStorage,omitempty" jsonschema:"also read each origin's sessionStorage"`
}

type storageSnapshotResult struct {
	Cookies  []storage.Cookie        `json:"cookies"`
	Origins  []storage.OriginStorage `json:"origins"`
	Redacted bool                    `json:"redacted"`
}

func storageSnapshot(ctx context.Context, c *Call, a *storageSnapshotArgs) (*storageSnapshotResult, error) {
	reveal := a.Reveal // the dispatcher refused it without --allow-secrets (gateArgs)
	cs, origins, err := appStorage(c).Snapshot(ctx, a.Origin, a.SessionStorage, reveal)
	if err != nil {
		return nil, err
	}
	return &storageSnapshotResult{Cookies: cs, Origins: origins, Redacted: !reveal}, nil
}

// webArgs names the origin of a Web Storage call.
type webArgs struct {
	Common
	Origin string `json:"origin,omitempty" jsonschema:"the origin (or any URL of it); default: the active surface's"`
}

type webGetArgs struct {
	webArgs
	Key  string   `json:"key,omitempty" jsonschema:"one key to read"`
	Keys []string `json:"keys,omitempty" jsonschema:"several keys to read in one call"`
}

func (a *webGetArgs) validate() error {
	if (a.Key == "") == (len(a.Keys) == 0) {
		return errs.BadArg("key", "pass exactly one of key or keys")
	}
	return nil
}

type webGetResult struct {
	Scope  string             `json:"scope"`
	Origin string             `json:"origin"`
	Key    string             `json:"key,omitempty"`
	Value  *string            `json:"value,omitempty" jsonschema:"the value; absent (with found false) when the key is not set"`
	Found  *bool              `json:"found,omitempty"`
	Items  map[string]*string `json:"items,omitempty" jsonschema:"keys → values (null when not set), for keys"`
}

func webGet(scope storage.Scope) func(context.Context, *Call, *webGetArgs) (*webGetResult, error) {
	return func(ctx context.Context, c *Call, a *webGetArgs) (*webGetResult, error) {
		area, origin, err := appStorage(c).Area(ctx, a.Origin, scope)
		if err != nil {
			return nil, err
		}
		items, err := area.Items(ctx)
		if err != nil {
			return nil, err
		}
		m := storage.Lookup(items)
		out := &webGetResult{Scope: string(scope), Origin: origin}
		if a.Key != "" {
			v, ok := m[a.Key]
			out.Key, out.Found = a.Key, &ok
			if ok {
				out.Value = &v
			}
			return out, nil
		}
		out.Items = map[string]*string{}
		for _, k := range a.Keys {
			if v, ok := m[k]; ok {
				out.Items[k] = &v
			} else {
				out.Items[k] = nil
			}
		}
		return out, nil
	}
}

type webSetArgs struct {
	webArgs
	Key   string `json:"key" jsonschema:"the key"`
	Value string `json:"value" jsonschema:"the string value"`
}

func (a *webSetArgs) validate() error {
	if a.Key == "" {
		return errs.BadArg("key", "is required")
	}
	return nil
}

type webChangeResult struct {
	Scope   string `json:"scope"`
	Origin  string `json:"origin"`
	Set     bool   `json:"set,omitempty"`
	Removed bool   `json:"removed,omitempty"`
	Cleared bool   `json:"cleared,omitempty"`
	Count   int    `json:"count" jsonschema:"how many keys the area holds now"`
}

func webSet(scope storage.Scope) func(context.Context, *Call, *webSetArgs) (*webChangeResult, error) {
	return func(ctx context.Context, c *Call, a *webSetArgs) (*webChangeResult, error) {
		area, origin, err := appStorage(c).Area(ctx, a.Origin, scope)
		if err != nil {
			return nil, err
		}
		n, err := area.SetChecked(ctx, a.Key, a.Value)
		if err != nil {
			return nil, err
		}
		return &webChangeResult{Scope: string(scope), Origin: origin, Set: true, Count: n}, nil
	}
}

type webKeyArgs struct {
	webArgs
	Key string `json:"key" jsonschema:"the key"`
}

func (a *webKeyArgs) validate() error {
	if a.Key == "" {
		return errs.BadArg("key", "is required")
	}
	return nil
}

func webRemove(scope storage.Scope) func(context.Context, *Call, *webKeyArgs) (*webChangeResult, error) {
	return func(ctx context.Context, c *Call, a *webKeyArgs) (*webChangeResult, error) {
		area, origin, err := appStorage(c).Area(ctx, a.Origin, scope)
		if err != nil {
			return nil, err
		}
		n, err := area.RemoveChecked(ctx, a.Key)
		if err != nil {
			return nil, err
		}
		return &webChangeResult{Scope: string(scope), Origin: origin, Removed: true, Count: n}, nil
	}
}

type webKeysResult struct {
	Scope  string   `json:"scope"`
	Origin string   `json:"origin"`
	Count  int      `json:"count"`
	Keys   []string `json:"keys"`
}

func webKeys(scope storage.Scope) func(context.Context, *Call, *webArgs) (*webKeysResult, error) {
	return func(ctx context.Context, c *Call, a *webArgs) (*webKeysResult, error) {
		area, origin, err := appStorage(c).Area(ctx, a.Origin, scope)
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
		return &webKeysResult{Scope: string(scope), Origin: origin, Count: len(keys), Keys: keys}, nil
	}
}

func webClear(scope storage.Scope) func(context.Context, *Call, *webArgs) (*webChangeResult, error) {
	return func(ctx context.Context, c *Call, a *webArgs) (*webChangeResult, error) {
		area, origin, err := appStorage(c).Area(ctx, a.Origin, scope)
		if err != nil {
			return nil, err
		}
		if err := area.ClearChecked(ctx); err != nil {
			return nil, err
		}
		return &webChangeResult{Scope: string(scope), Origin: origin, Cleared: true}, nil
	}
}

type stateExportArgs struct {
	Common
	revealArgs
	Path      string `json:"path" jsonschema:"the file to write (absolute, or relative to the artifacts folder); under the allowed roots"`
	Overwrite bool   `json:"overwrite,omitempty" jsonschema:"replace a file this server did not write"`
	IndexedDB bool   `json:"indexedDB,omitempty" jsonschema:"also write each origin's IndexedDB databases (origins[].indexedDB), as Playwright's storageState({indexedDB: true})"`
}

func (a *stateExportArgs) validate() error {
	if a.Path == "" {
		return errs.BadArg("path", "is required")
	}
	return nil
}

type stateExportResult struct {
	Path    string   `json:"path"`
	Cookies int      `json:"cookie_count"`
	Origins []string `json:"origin_names" jsonschema:"the origins whose localStorage or IndexedDB the file holds"`
	DBs     int      `json:"database_count,omitempty" jsonschema:"IndexedDB databases written (with indexedDB)"`
	Bytes   int      `json:"bytes"`
	// Redacted says the file's cookie values are [redacted]: it cannot
	// log in again (storage_state_import refuses it).
	Redacted bool `json:"redacted,omitempty" jsonschema:"cookie values in the file are [redacted] (no reveal)"`
}

func storageStateExport(ctx context.Context, c *Call, a *stateExportArgs) (*stateExportResult, error) {
	reveal := a.Reveal // the dispatcher refused it without --allow-secrets (gateArgs)
	path, err := c.Server.files.CheckWrite(ctx, "path", a.Path, a.Overwrite)
	if err != nil {
		return nil, err
	}
	data, sum, err := appStorage(c).ExportState(ctx, reveal, a.IndexedDB)
	if err != nil {
		return nil, err
	}
	// The file holds session cookies: the one writer makes it 0600.
	if path, err = c.Server.files.Write(ctx, files.Out{Field: "path", Path: path, Overwrite: a.Overwrite}, data); err != nil {
		return nil, err
	}
	return &stateExportResult{Path: path, Cookies: sum.Cookies, Origins: sum.Origins, DBs: sum.DBs, Bytes: len(data), Redacted: sum.Redacted}, nil
}

type stateImportArgs struct {
	Common
	Path string `json:"path" jsonschema:"the storageState JSON file to read (absolute, under the allowed roots)"`
}

func (a *stateImportArgs) validate() error {
	if a.Path == "" {
		return errs.BadArg("path", "is required")
	}
	return nil
}

type stateImportResult struct {
	Cookies int      `json:"cookie_count" jsonschema:"cookies set"`
	Origins []string `json:"origin_names" jsonschema:"origins whose localStorage was written"`
	Keys    int      `json:"key_count" jsonschema:"localStorage keys written"`
	Records int      `json:"record_count,omitempty" jsonschema:"IndexedDB records written"`
}

func storageStateImport(ctx context.Context, c *Call, a *stateImportArgs) (*stateImportResult, error) {
	path, err := c.Server.files.CheckRead(ctx, "path", a.Path)
	if err != nil {
		return nil, err
	}
	data, err := storage.ReadStateFile("path", path)
	if err != nil {
		return nil, err
	}
	sum, err := appStorage(c).ImportState(ctx, data)
	if err != nil {
		return nil, err
	}
	return &stateImportResult{Cookies: sum.Cookies, Origins: sum.Origins, Keys: sum.Keys, Records: sum.Records}, nil
}

type idbSchemaArgs struct {
	webArgs
	Database string `json:"database,omitempty" jsonschema:"a database name; omit to list the names"`
}

type idbSchemaResult struct {
	Origin    string            `json:"origin"`
	Databases []string          `json:"databases,omitempty"`
	Database  *storage.Database `json:"database,omitempty"`
}

func idbSchema(ctx context.Context, c *Call, a *idbSchemaArgs) (*idbSchemaResult, error) {
	db, origin, err := appStorage(c).IDB(ctx, a.Origin)
	if err != nil {
		return nil, err
	}
	out := &idbSchemaResult{Origin: origin}
	if a.Database == "" {
		out.Databases, err = db.Names(ctx)
		return out, err
	}
	out.Database, err = db.Schema(ctx, a.Database)
	return out, err
}

type idbStoreArgs struct {
	webArgs
	Database string `json:"database" jsonschema:"the database name"`
	Store    string `json:"store" jsonschema:"the object store name"`
}

func (a *idbStoreArgs) validate() error {
	if a.Database == "" {
		return errs.BadArg("database", "is required")
	}
	if a.Store == "" {
		return errs.BadArg("store", "is required")
	}
	return nil
}

type idbGetArgs struct {
	idbStoreArgs
	Index string            `json:"index,omitempty" jsonschema:"read through this index (keys are the index's)"`
	Range *storage.KeyRange `json:"range,omitempty" jsonschema:"the keys to read"`
	Skip  int               `json:"skip,omitempty" jsonschema:"records to skip (paging)"`
	Limit int               `json:"limit,omitempty" jsonschema:"records to return, default 100, max 1000"`
}

func (a *idbGetArgs) validate() error {
	if err := a.idbStoreArgs.validate(); err != nil {
		return err
	}
	if a.Skip < 0 {
		return errs.BadArg("skip", "must be 0 or more")
	}
	if a.Limit < 0 || a.Limit > 1000 {
		return errs.BadArg("limit", "must be between 1 and 1000")
	}
	_, err := a.Range.Wire("range")
	return err
}

type idbGetResult struct {
	Origin  string           `json:"origin"`
	Count   int              `json:"count"`
	Records []storage.Record `json:"records"`
	HasMore bool             `json:"hasMore"`
}

func idbGet(ctx context.Context, c *Call, a *idbGetArgs) (*idbGetResult, error) {
	limit := a.Limit
	if limit == 0 {
		limit = 100
	}
	var more bool
	recs, origin, err := storage.ReadIDB(ctx, appStorage(c), a.Origin, func(db *storage.DB) (recs []storage.Record, err error) {
		recs, more, err = db.Records(ctx, a.Database, a.Store, a.Index, a.Range, a.Skip, limit)
		return recs, err
	})
	if err != nil {
		return nil, err
	}
	return &idbGetResult{Origin: origin, Count: len(recs), Records: recs, HasMore: more}, nil
}

type idbKeysArgs struct {
	idbStoreArgs
	Index string            `json:"index,omitempty" jsonschema:"list through this index: the primary keys of the records whose index key is in range, in index order"`
	Range *storage.KeyRange `json:"range,omitempty" jsonschema:"the keys to list (the index's keys with index)"`
	Limit int               `json:"limit,omitempty" jsonschema:"keys to return, default 100, max 1000"`
}

func (a *idbKeysArgs) validate() error {
	if err := a.idbStoreArgs.validate(); err != nil {
		return err
	}
	if a.Limit < 0 || a.Limit > 1000 {
		return errs.BadArg("limit", "must be between 1 and 1000")
	}
	_, err := a.Range.Wire("range")
	return err
}

type idbKeysResult struct {
	Origin  string              `json:"origin"`
	Count   int                 `json:"count"`
	Keys    []storage.JSONValue `json:"keys" jsonschema:"primary keys in order: numbers, strings, dates as ISO text or arrays of them"`
	HasMore bool                `json:"hasMore"`
}

// idbKeys is stagewright's storage_idb_keys: primary keys only, read as
// storage_idb_get reads (the active surface's own origin at once).
func idbKeys(ctx context.Context, c *Call, a *idbKeysArgs) (*idbKeysResult, error) {
	limit := a.Limit
	if limit == 0 {
		limit = 100
	}
	var more bool
	keys, origin, err := storage.ReadIDB(ctx, appStorage(c), a.Origin, func(db *storage.DB) (keys []storage.JSONValue, err error) {
		keys, more, err = db.Keys(ctx, a.Database, a.Store, a.Index, a.Range, limit)
		return keys, err
	})
	if err != nil {
		return nil, err
	}
	return &idbKeysResult{Origin: origin, Count: len(keys), Keys: keys, HasMore: more}, nil
}

type idbCountResult struct {
	Origin string `json:"origin"`
	Count  int    `json:"count"`
}

func idbCount(ctx context.Context, c *Call, a *idbStoreArgs) (*idbCountResult, error) {
	db, origin, err := appStorage(c).IDB(ctx, a.Origin)
	if err != nil {
		return nil, err
	}
	n, err := db.Count(ctx, a.Database, a.Store)
	if err != nil {
		return nil, err
	}
	return &idbCountResult{Origin: origin, Count: n}, nil
}

type idbDeleteArgs struct {
	idbStoreArgs
	Key   any               `json:"key,omitempty" jsonschema:"the key (number or string) of the record to delete"`
	Range *storage.KeyRange `json:"range,omitempty" jsonschema:"delete every record in this key range instead"`
}

func (a *idbDeleteArgs) validate() error {
	if err := a.idbStoreArgs.validate(); err != nil {
		return err
	}
	if (a.Key == nil) == (a.Range == nil) {
		return errs.BadArg("key", "pass exactly one of key or range")
	}
	if a.Key != nil {
		a.Range = &storage.KeyRange{Lower: a.Key, Upper: a.Key}
		if _, err := a.Range.Wire("key"); err != nil {
			return errs.BadArg("key", "must be a number or a string")
		}
	}
	_, err := a.Range.Wire("range")
	return err
}

type idbChangeResult struct {
	Origin string `json:"origin"`
	Before int    `json:"count_before" jsonschema:"records in the store before"`
	After  int    `json:"count_after" jsonschema:"records in the store now"`
}

func idbDelete(ctx context.Context, c *Call, a *idbDeleteArgs) (*idbChangeResult, error) {
	db, origin, err := appStorage(c).IDB(ctx, a.Origin)
	if err != nil {
		return nil, err
	}
	before, after, err := db.Change(ctx, a.Database, a.Store, func() error { return db.Delete(ctx, a.Database, a.Store, a.Range) })
	if err != nil {
		return nil, err
	}
	return &idbChangeResult{Origin: origin, Before: before, After: after}, nil
}

func idbClear(ctx context.Context, c *Call, a *idbStoreArgs) (*idbChangeResult, error) {
	db, origin, err := appStorage(c).IDB(ctx, a.Origin)
	if err != nil {
		return nil, err
	}
	before, after, err := db.Change(ctx, a.Database, a.Store, func() error { return db.Clear(ctx, a.Database, a.Store) })
	if err != nil {
		return nil, err
	}
	if after != 0 {
		return nil, errs.New(errs.Internal, "the store still holds %d records", after)
	}
	return &idbChangeResult{Origin: origin, Before: before, After: after}, nil
}

type idbSetArgs struct {
	idbStoreArgs
	Value any `json:"value" jsonschema:"the record, any JSON value (for a store with a keyPath, an object holding the key)"`
	Key   any `json:"key,omitempty" jsonschema:"the key (number or string), only for a store with out-of-line keys"`
}

func (a *idbSetArgs) validate() error {
	if err := a.idbStoreArgs.validate(); err != nil {
		return err
	}
	if a.Value == nil {
		return errs.BadArg("value", "is required (any JSON value but null)")
	}
	if a.Key != nil {
		switch a.Key.(type) {
		case float64, string:
		default:
			return errs.BadArg("key", "must be a number or a string")
		}
	}
	return nil
}

type idbSetResult struct {
	Origin string            `json:"origin"`
	Key    storage.JSONValue `json:"record_key" jsonschema:"the record's key, a JSON value (given, taken from the value's keyPath, or generated); stagewright calls it key"`
	Stored bool              `json:"stored" jsonschema:"true: the record reads back as written after the commit"`
}

func idbSet(ctx context.Context, c *Call, a *idbSetArgs) (*idbSetResult, error) {
	db, origin, err := appStorage(c).IDB(ctx, a.Origin)
	if err != nil {
		return nil, err
	}
	got, err := db.Set(ctx, a.Database, a.Store, a.Value, a.Key)
	if err != nil {
		return nil, err
	}
	return &idbSetResult{Origin: origin, Key: got.Key, Stored: got.Stored}, nil
}
