package tool

import (
	"context"

	"github.com/understudy-dev/understudy/internal/files"
	"github.com/understudy-dev/understudy/internal/storage"
)

func registerStorage(s *Server) {
	define(s, Def{
		Name: "storage_cookies", Title: "List cookies", Class: classRead, Session: true,
		Effects: Effects{Does: kRead, Secrets: true},
		Desc:    "The app's cookies (through the protocol, no page JavaScript), optionally only those the browser would send to url, of a domain, or of a name. Values are [redacted] unless reveal:true and the server runs with --allow-secrets.",
	}, storageCookies)
	defineOpt(s, Def{
		Name: "storage_set_cookie", Title: "Set a cookie", Class: classAction, Session: true,
		Effects: Effects{Does: kSet},
		Desc:    "Add or overwrite one cookie (all attributes; partitionKey for a partitioned cookie). Pass url or domain. expires is epoch seconds; omit it for a session cookie. The cookie is read back before ok.",
	}, onStorage(storage.App.AddCookie))
	defineOpt(s, Def{
		Name: "storage_clear_cookies", Title: "Delete cookies", Class: classAction, Session: true,
		Effects: Effects{Does: kSet},
		Desc:    "Delete cookies: all of them, or those matching url, domain and/or name. Returns how many went.",
	}, onStorage(storage.App.ClearMatching))
	define(s, Def{
		Name: "storage_snapshot", Title: "Storage snapshot", Class: classRead, Session: true,
		Effects: Effects{Does: kRead, Secrets: true},
		Desc:    "Every cookie plus the localStorage (and sessionStorage) of every origin a document of the app has open: top pages, frames, cross-site OOPIFs and webview guests. Cookie values are [redacted] unless reveal:true and --allow-secrets; Web Storage values are app state and shown as they are.",
	}, storageSnapshot)
	defineOpt(s, Def{
		Name: "storage_local_get", Title: "Read localStorage", Class: classRead, Session: true,
		Effects: Effects{Does: kRead},
		Desc:    "Read localStorage values by key (or keys) of an origin: origin (default: the active surface's). A missing key is value null. Works for origins open only in an OOPIF or a webview guest.",
	}, inScope(storage.Local, storage.App.WebRead))
	defineOpt(s, Def{
		Name: "storage_local_set", Title: "Set a localStorage key", Class: classAction, Session: true,
		Effects: Effects{Does: kSet},
		Desc:    "Set one localStorage key of an origin (default: the active surface's) to a string value; read back before ok.",
	}, inScope(storage.Local, storage.App.WebWrite))
	defineOpt(s, Def{
		Name: "storage_local_remove", Title: "Remove a localStorage key", Class: classAction, Session: true,
		Effects: Effects{Does: kSet},
		Desc:    "Remove one localStorage key of an origin (default: the active surface's); absent is fine.",
	}, inScope(storage.Local, storage.App.WebRemove))
	defineOpt(s, Def{
		Name: "storage_local_keys", Title: "List localStorage keys", Class: classRead, Session: true,
		Effects: Effects{Does: kRead},
		Desc:    "List the localStorage keys of an origin (default: the active surface's), no values.",
	}, inScope(storage.Local, storage.App.WebKeys))
	defineOpt(s, Def{
		Name: "storage_local_clear", Title: "Clear localStorage", Class: classAction, Session: true,
		Effects: Effects{Does: kSet},
		Desc:    "Clear all of localStorage of an origin (default: the active surface's).",
	}, inScope(storage.Local, storage.App.WebClear))
	defineOpt(s, Def{
		Name: "storage_session_get", Title: "Read sessionStorage", Class: classRead, Session: true,
		Effects: Effects{Does: kRead},
		Desc:    "Read sessionStorage values by key (or keys) of an origin: origin (default: the active surface's). A missing key is value null. Works for origins open only in an OOPIF or a webview guest.",
	}, inScope(storage.Session, storage.App.WebRead))
	defineOpt(s, Def{
		Name: "storage_session_set", Title: "Set a sessionStorage key", Class: classAction, Session: true,
		Effects: Effects{Does: kSet},
		Desc:    "Set one sessionStorage key of an origin (default: the active surface's) to a string value; read back before ok.",
	}, inScope(storage.Session, storage.App.WebWrite))
	defineOpt(s, Def{
		Name: "storage_session_remove", Title: "Remove a sessionStorage key", Class: classAction, Session: true,
		Effects: Effects{Does: kSet},
		Desc:    "Remove one sessionStorage key of an origin (default: the active surface's); absent is fine.",
	}, inScope(storage.Session, storage.App.WebRemove))
	defineOpt(s, Def{
		Name: "storage_session_keys", Title: "List sessionStorage keys", Class: classRead, Session: true,
		Effects: Effects{Does: kRead},
		Desc:    "List the sessionStorage keys of an origin (default: the active surface's), no values.",
	}, inScope(storage.Session, storage.App.WebKeys))
	defineOpt(s, Def{
		Name: "storage_session_clear", Title: "Clear sessionStorage", Class: classAction, Session: true,
		Effects: Effects{Does: kSet},
		Desc:    "Clear all of sessionStorage of an origin (default: the active surface's).",
	}, inScope(storage.Session, storage.App.WebClear))
	defineOpt(s, Def{
		Name: "storage_idb_schema", Title: "IndexedDB schema", Class: classRead, Session: true,
		Effects: Effects{Does: kRead},
		Desc:    "IndexedDB of an origin (default: the active surface's; OOPIF and webview origins too): without database, the database names; with it, its version and object stores (keyPath, autoIncrement, indexes). Read through the protocol, no page JavaScript.",
	}, onStorage(storage.App.IDBSchema))
	defineOpt(s, Def{
		Name: "storage_idb_get", Title: "Read IndexedDB records", Class: classRead, Session: true,
		Effects: Effects{Does: kRead},
		Desc:    "Read a page of IndexedDB records in key order: database, store, optional index, range {lower, upper, lowerOpen, upperOpen} (numbers or strings), skip and limit (default 100, max 1000); hasMore says whether more follow. Values come as JSON (Date as ISO text, binary as {__type, byteLength}).",
	}, onStorage(storage.App.IDBRecords))
	defineOpt(s, Def{
		Name: "storage_idb_keys", Title: "List IndexedDB primary keys", Class: classRead, Session: true,
		Effects: Effects{Does: kRead},
		Desc:    "List the primary keys of an IndexedDB object store in key order, without reading the values: database, store, optional index (then the primary keys of the records whose index key is in range, in index order), range {lower, upper, lowerOpen, upperOpen} (numbers or strings), limit (default 100, max 1000); hasMore says whether more follow.",
	}, onStorage(storage.App.IDBKeys))
	defineOpt(s, Def{
		Name: "storage_idb_count", Title: "Count IndexedDB records", Class: classRead, Session: true,
		Effects: Effects{Does: kRead},
		Desc:    "Count the records of an IndexedDB object store.",
	}, onStorage(storage.App.IDBCount))
	defineOpt(s, Def{
		Name: "storage_idb_set", Title: "Write an IndexedDB record", Class: classAction, Session: true,
		Effects: Effects{Does: kSet},
		Desc:    "Add or overwrite one IndexedDB record in an existing database and object store (never creates or upgrades one): value is JSON; key (number or string) only for a store with out-of-line keys. The record is read back after the commit. Returns the effective key.",
	}, onStorage(storage.App.IDBWrite))
	defineOpt(s, Def{
		Name: "storage_idb_delete", Title: "Delete IndexedDB records", Class: classAction, Session: true,
		Effects: Effects{Does: kSet},
		Desc:    "Delete IndexedDB records by key (or a key range) from an object store; reports the count before and after.",
	}, onStorage(storage.App.IDBDelete))
	defineOpt(s, Def{
		Name: "storage_idb_clear", Title: "Clear an IndexedDB store", Class: classAction, Session: true,
		Effects: Effects{Does: kSet},
		Desc:    "Delete every record of an IndexedDB object store.",
	}, onStorage(storage.App.IDBClear))
	define(s, Def{
		Name: "storage_state_export", Title: "Export Playwright storageState", Class: classAction, Session: true,
		Effects: Effects{Does: kSelect, Writes: []string{"path"}, Secrets: true},
		Desc:    "Write the app's state as a Playwright storageState JSON file (cookies + origins[].localStorage of every open origin, and origins[].indexedDB with indexedDB:true, as Playwright's storageState({indexedDB: true})), which browser.newContext({storageState}) loads. Cookie values are [redacted] in the file unless reveal:true on a server started with --allow-secrets (a file that must log in later needs that); the result shows only counts.",
	}, storageStateExport)
	defineOpt(s, Def{
		Name: "storage_state_import", Title: "Import Playwright storageState", Class: classAction, Session: true,
		Effects: Effects{Does: kSet, Reads: []string{"path"}},
		Desc:    "Seed the app from a Playwright storageState JSON file (context.storageState() writes one): cookies, and localStorage and IndexedDB of origins the app has open (a database that exists keeps its schema and gets each listed store's records replaced; one that does not is created). The whole file is checked before anything is written (STORAGE_STATE_INVALID names the JSON path of the first problem).",
	}, storageStateImport)
}

// appStorage is the storage of the call's session (internal/storage.App).
func appStorage(c *Call) storage.App {
	return storage.App{Pool: c.Session.Pool, Surfaces: c.Session.Surfaces}
}

// onStorage is a handler that runs op, an operation of internal/storage,
// on the session's storage with the call's option.
func onStorage[A, R any](op func(storage.App, context.Context, A) (R, error)) func(context.Context, *Call, *A) (R, error) {
	return func(ctx context.Context, c *Call, a *A) (R, error) { return op(appStorage(c), ctx, *a) }
}

// inScope is onStorage for a Web Storage operation on scope (local or
// session storage).
func inScope[A, R any](scope storage.Scope, op func(storage.App, context.Context, storage.Scope, A) (R, error)) func(context.Context, *Call, *A) (R, error) {
	return func(ctx context.Context, c *Call, a *A) (R, error) { return op(appStorage(c), ctx, scope, *a) }
}

// revealArgs is the opt-in to see secret values.
type revealArgs struct {
	Reveal bool `json:"reveal,omitempty" jsonschema:"show cookie values; needs the server's --allow-secrets"`
}

func (r *revealArgs) reveals() bool { return r.Reveal }

// The arguments, checks and results are internal/storage's (ops.go,
// idbops.go); a reveal is allowed only with --allow-secrets, which the
// dispatcher checked (gateArgs).

type cookiesArgs struct {
	Common
	revealArgs
	storage.Filter
}

func storageCookies(ctx context.Context, c *Call, a *cookiesArgs) (*storage.CookiesResult, error) {
	return appStorage(c).CookieList(ctx, a.Filter, a.Reveal)
}

type storageSnapshotArgs struct {
	Common
	revealArgs
	storage.SnapshotOptions
}

func storageSnapshot(ctx context.Context, c *Call, a *storageSnapshotArgs) (*storage.SnapshotResult, error) {
	return appStorage(c).Snapshot(ctx, a.SnapshotOptions, a.Reveal)
}

type stateExportArgs struct {
	Common
	revealArgs
	storage.ExportOptions
}

func storageStateExport(ctx context.Context, c *Call, a *stateExportArgs) (*storage.ExportResult, error) {
	path, err := c.Server.files.CheckWrite(ctx, "path", a.Path, a.Overwrite)
	if err != nil {
		return nil, err
	}
	data, out, err := appStorage(c).ExportState(ctx, a.Reveal, a.IndexedDB)
	if err != nil {
		return nil, err
	}
	// The file holds session cookies: the one writer makes it 0600.
	if out.Path, err = c.Server.files.Write(ctx, files.Out{Field: "path", Path: path, Overwrite: a.Overwrite}, data); err != nil {
		return nil, err
	}
	return out, nil
}

func storageStateImport(ctx context.Context, c *Call, a *storage.ImportOptions) (*storage.ImportResult, error) {
	path, err := c.Server.files.CheckRead(ctx, "path", a.Path)
	if err != nil {
		return nil, err
	}
	data, err := storage.ReadStateFile("path", path)
	if err != nil {
		return nil, err
	}
	return appStorage(c).ImportState(ctx, data)
}
