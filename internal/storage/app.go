package storage

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"

	"github.com/understudy-dev/understudy/internal/errs"
	"github.com/understudy-dev/understudy/internal/surface"
	"github.com/understudy-dev/understudy/internal/target"
)

// App is the storage of one running app: the cookies of its browser
// context and the Web Storage and IndexedDB of every origin its documents
// hold, found through the session's targets (Pool) and surfaces. Its
// methods are whole operations, each checked by reading back what it
// changed; the tools call them and only shape the answer.
type App struct {
	Pool     *target.Pool
	Surfaces *surface.Registry
}

// AnyConn is a renderer socket of the app for profile-wide calls (cookies
// live in the browser context, not in one document), the active window's
// first.
func (a App) AnyConn(ctx context.Context) (Conn, error) {
	return AnyConn(ctx, a.Pool, a.Surfaces.ActiveWindow())
}

// Redact shows the cookies' values when reveal is set; a cookie value is a
// secret.String, [redacted] otherwise by construction.
func Redact(cs []Cookie, reveal bool) []Cookie {
	for i := range cs {
		cs[i].Value = cs[i].Value.Shown(reveal)
	}
	return cs
}

// ListCookies lists the cookies that match f.
func (a App) ListCookies(ctx context.Context, f Filter) ([]Cookie, error) {
	conn, err := a.AnyConn(ctx)
	if err != nil {
		return nil, err
	}
	return Cookies(ctx, conn, f)
}

// SetCookie sets one cookie and returns it as the browser now keeps it. The
// browser can drop a cookie without an error (a domain the URL cannot set,
// an expiry in the past): it is read back, and a cookie the browser does
// not keep is BAD_ARGUMENT on expires.
func (a App) SetCookie(ctx context.Context, p CookieParam) (Cookie, error) {
	conn, err := a.AnyConn(ctx)
	if err != nil {
		return Cookie{}, err
	}
	_ = ValidateCookie("", &p) // fills the default path
	if err := SetCookies(ctx, conn, []CookieParam{p}); err != nil {
		return Cookie{}, err
	}
	all, err := Cookies(ctx, conn, Filter{Name: p.Name})
	if err != nil {
		return Cookie{}, err
	}
	for _, got := range all {
		if got.Value.Reveal() == p.Value && (p.Domain == "" || got.Domain == p.Domain || "."+got.Domain == p.Domain || got.Domain == "."+p.Domain) &&
			(p.Path == "" || got.Path == p.Path) && (p.PartitionKey == nil) == (got.PartitionKey == nil) {
			return got, nil
		}
	}
	return Cookie{}, errs.New(errs.BadArgument, "the browser accepted the cookie %q but does not keep it (an expiry in the past, or a domain the URL may not set)", p.Name).
		With("field", "expires").With("found_by_name", len(all))
}

// ClearCookies deletes the cookies that match f and checks that none is
// left; it returns how many went.
func (a App) ClearCookies(ctx context.Context, f Filter) (int, error) {
	conn, err := a.AnyConn(ctx)
	if err != nil {
		return 0, err
	}
	n, err := DeleteCookies(ctx, conn, f)
	if err != nil {
		return 0, err
	}
	left, err := Cookies(ctx, conn, f)
	if err != nil {
		return 0, err
	}
	if len(left) > 0 {
		return 0, errs.New(errs.Internal, "%d cookies still match after the delete", len(left)).With("remaining", len(left))
	}
	return n, nil
}

// OriginStorage is one origin in a Snapshot.
type OriginStorage struct {
	Origin         string   `json:"origin"`
	LocalStorage   []Item   `json:"localStorage"`
	SessionStorage []Item   `json:"sessionStorage,omitempty"`
	SurfaceIDs     []string `json:"surface_ids,omitempty" jsonschema:"the surfaces that show a document of the origin"`
}

// Snapshot reads every cookie (values shown only with reveal) and the
// localStorage (and sessionStorage with opt.SessionStorage) of every open
// origin, or of only opt.Origin when it is set.
func (a App) Snapshot(ctx context.Context, opt SnapshotOptions, reveal bool) (*SnapshotResult, error) {
	only, withSession := opt.Origin, opt.SessionStorage
	if only != "" {
		var err error
		if only, err = NormalizeOrigin("origin", only); err != nil {
			return nil, err
		}
	}
	cs, err := a.ListCookies(ctx, Filter{})
	if err != nil {
		return nil, err
	}
	origins, err := Origins(ctx, a.Pool)
	if err != nil {
		return nil, err
	}
	if only != "" {
		o, err := Find(origins, "origin", only)
		if err != nil {
			return nil, err
		}
		origins = []Origin{*o}
	}
	out := make([]OriginStorage, 0, len(origins))
	for i := range origins {
		o := &origins[i]
		entry := OriginStorage{Origin: o.Origin}
		for _, h := range o.Hosts {
			if id, ok := a.Surfaces.SurfaceOf(h.FrameID); ok {
				entry.SurfaceIDs = append(entry.SurfaceIDs, id)
			}
		}
		if entry.LocalStorage, err = a.readArea(ctx, o, Local); err != nil {
			return nil, err
		}
		if withSession {
			if entry.SessionStorage, err = a.readArea(ctx, o, Session); err != nil {
				return nil, err
			}
		}
		out = append(out, entry)
	}
	return &SnapshotResult{Cookies: Redact(cs, reveal), Origins: out, Redacted: !reveal}, nil
}

func (a App) readArea(ctx context.Context, o *Origin, scope Scope) ([]Item, error) {
	area, err := Open(ctx, a.Pool, o, scope)
	if err != nil {
		return nil, err
	}
	return area.Items(ctx)
}

// Origin finds the named origin (any URL of it), else the active
// surface's, with the active surface's own target first among its hosts.
func (a App) Origin(ctx context.Context, name string) (*Origin, error) {
	origins, err := Origins(ctx, a.Pool)
	if err != nil {
		return nil, err
	}
	if name != "" {
		want, err := NormalizeOrigin("origin", name)
		if err != nil {
			return nil, err
		}
		return Find(origins, "origin", want)
	}
	res, err := a.Surfaces.Resolve(ctx)
	if err != nil {
		return nil, err
	}
	for i := range origins {
		for j, h := range origins[i].Hosts {
			if h.FrameID == res.FrameID {
				o := &origins[i]
				o.Hosts[0], o.Hosts[j] = o.Hosts[j], o.Hosts[0]
				return o, nil
			}
		}
	}
	return nil, errs.BadArg("origin", "the active surface shows no http(s) document; pass origin")
}

// Area opens the Web Storage of the named origin, else the active
// surface's, and returns it with the origin.
func (a App) Area(ctx context.Context, name string, scope Scope) (*Area, string, error) {
	o, err := a.Origin(ctx, name)
	if err != nil {
		return nil, "", err
	}
	area, err := Open(ctx, a.Pool, o, scope)
	return area, o.Origin, err
}

// Lookup is items by name.
func Lookup(items []Item) map[string]string {
	m := make(map[string]string, len(items))
	for _, it := range items {
		m[it.Name] = it.Value
	}
	return m
}

// SetChecked sets key to value and reads it back; it returns how many keys
// the area holds now.
func (a *Area) SetChecked(ctx context.Context, key, value string) (int, error) {
	if err := a.Set(ctx, key, value); err != nil {
		return 0, err
	}
	items, err := a.Items(ctx)
	if err != nil {
		return 0, err
	}
	if v, ok := Lookup(items)[key]; !ok || v != value {
		return 0, errs.New(errs.Internal, "%s of %s: %q did not keep the value (quota?)", a.scope, a.origin, key)
	}
	return len(items), nil
}

// RemoveChecked removes key (absent is fine) and checks it is gone; it
// returns how many keys the area holds now.
func (a *Area) RemoveChecked(ctx context.Context, key string) (int, error) {
	if err := a.Remove(ctx, key); err != nil {
		return 0, err
	}
	items, err := a.Items(ctx)
	if err != nil {
		return 0, err
	}
	if _, ok := Lookup(items)[key]; ok {
		return 0, errs.New(errs.Internal, "%s of %s: %q is still set", a.scope, a.origin, key)
	}
	return len(items), nil
}

// ClearChecked clears the area and checks it is empty.
func (a *Area) ClearChecked(ctx context.Context) error {
	if err := a.Clear(ctx); err != nil {
		return err
	}
	items, err := a.Items(ctx)
	if err != nil {
		return err
	}
	if len(items) > 0 {
		return errs.New(errs.Internal, "%s of %s still holds %d keys", a.scope, a.origin, len(items))
	}
	return nil
}

// IDB opens the IndexedDB of the named origin, else the active surface's,
// and returns it with the origin.
func (a App) IDB(ctx context.Context, name string) (*DB, string, error) {
	o, err := a.Origin(ctx, name)
	if err != nil {
		return nil, "", err
	}
	db, err := a.openIDB(ctx, o)
	return db, o.Origin, err
}

// openIDB opens the IndexedDB of o with the origin's first document as the
// place its fixed scripts run (its surface's main world).
func (a App) openIDB(ctx context.Context, o *Origin) (*DB, error) {
	db, err := OpenIDB(ctx, a.Pool, o)
	if err != nil {
		return nil, err
	}
	for _, h := range o.Hosts {
		id, ok := a.Surfaces.SurfaceOf(h.FrameID)
		if !ok {
			continue
		}
		if res, err := a.Surfaces.ResolveID(ctx, id); err == nil {
			db.InDocument(res.Eval, int64(res.ContextID))
			break
		}
	}
	return db, nil
}

// ReadIDB runs read on the IndexedDB of the active surface's own origin
// when no origin is named: in its document straight away (no listing of
// every target's frames); the script says which origin it read, and a
// document that navigated meanwhile falls back to opening the origin as
// named or found (App.IDB). It returns what read returned and the origin.
func ReadIDB[T any](ctx context.Context, a App, name string, read func(*DB) (T, error)) (T, string, error) {
	var zero T
	if name == "" {
		if db, origin, ok := a.activeIDB(ctx); ok {
			v, err := read(db)
			if err == nil {
				return v, origin, nil
			}
			if !errors.Is(err, ErrOriginChanged) {
				return zero, "", err
			}
		}
	}
	db, origin, err := a.IDB(ctx, name)
	if err != nil {
		return zero, "", err
	}
	v, err := read(db)
	if err != nil {
		return zero, "", err
	}
	return v, origin, nil
}

// activeIDB is the IndexedDB of the active surface's document, when the
// registry knows it holds an http(s) origin.
func (a App) activeIDB(ctx context.Context) (*DB, string, bool) {
	res, err := a.Surfaces.Resolve(ctx)
	if err != nil || res.Eval == nil {
		return nil, "", false
	}
	d, ok := a.Surfaces.Describe(res.SurfaceID)
	if !ok {
		return nil, "", false
	}
	origin, err := NormalizeOrigin("origin", d.URL)
	if err != nil {
		return nil, "", false
	}
	return IDBIn(res.Eval, int64(res.ContextID), origin), origin, true
}

// Change runs change on a store and returns its record count before and
// after.
func (d *DB) Change(ctx context.Context, database, store string, change func() error) (before, after int, err error) {
	if before, err = d.Count(ctx, database, store); err != nil {
		return 0, 0, err
	}
	if err := change(); err != nil {
		return 0, 0, err
	}
	if after, err = d.Count(ctx, database, store); err != nil {
		return 0, 0, err
	}
	return before, after, nil
}

// ExportResult is what an export wrote; the caller sets Path once the file
// is written.
type ExportResult struct {
	Path    string   `json:"path"`
	Cookies int      `json:"cookie_count"`
	Origins []string `json:"origin_names" jsonschema:"the origins whose localStorage or IndexedDB the file holds"`
	DBs     int      `json:"database_count,omitempty" jsonschema:"IndexedDB databases written (with indexedDB)"`
	Bytes   int      `json:"bytes"`
	// Redacted says the file's cookie values are [redacted]: it cannot
	// log in again (storage_state_import refuses it).
	Redacted bool `json:"redacted,omitempty" jsonschema:"cookie values in the file are [redacted] (no reveal)"`
}

// ExportState reads the app's state as a Playwright storageState (cookies,
// origins[].localStorage of every open origin and, withIDB, their
// origins[].indexedDB) and returns it as indented JSON. Cookie values are
// [redacted] unless reveal.
func (a App) ExportState(ctx context.Context, reveal, withIDB bool) ([]byte, *ExportResult, error) {
	cs, err := a.ListCookies(ctx, Filter{})
	if err != nil {
		return nil, nil, err
	}
	origins, err := Origins(ctx, a.Pool)
	if err != nil {
		return nil, nil, err
	}
	st := State{Cookies: make([]StateCookie, 0, len(cs)), Origins: []StateOrigin{}}
	for _, ck := range cs {
		sc := StateCookieOf(ck)
		sc.Value = sc.Value.Shown(reveal)
		st.Cookies = append(st.Cookies, sc)
	}
	out := &ExportResult{Cookies: len(cs), Origins: []string{}, Redacted: !reveal && len(cs) > 0}
	for i := range origins {
		items, err := a.readArea(ctx, &origins[i], Local)
		if err != nil {
			return nil, nil, err
		}
		so := StateOrigin{Origin: origins[i].Origin, LocalStorage: items}
		if withIDB {
			db, err := a.openIDB(ctx, &origins[i])
			if err != nil {
				return nil, nil, err
			}
			raw, err := db.Export(ctx)
			if err != nil {
				return nil, nil, err
			}
			var dbs []json.RawMessage
			if json.Unmarshal(raw, &dbs) == nil && len(dbs) > 0 {
				so.IndexedDB = raw
				out.DBs += len(dbs)
			}
		}
		if len(items) == 0 && so.IndexedDB == nil {
			continue // Playwright lists only origins that hold something
		}
		st.Origins = append(st.Origins, so)
		out.Origins = append(out.Origins, origins[i].Origin)
	}
	data, err := json.MarshalIndent(st, "", "  ")
	if err != nil {
		return nil, nil, err
	}
	out.Bytes = len(data)
	return data, out, nil
}

// MaxStateFile bounds what an import reads.
const MaxStateFile = 32 << 20

// ReadStateFile reads a storageState file of at most MaxStateFile bytes;
// field names the argument in its errors.
func ReadStateFile(field, path string) ([]byte, error) {
	if st, err := os.Stat(path); err == nil && st.Size() > MaxStateFile {
		return nil, errs.BadArg(field, "the file is %d bytes; a storageState over %d bytes is refused", st.Size(), MaxStateFile)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, errs.BadArg(field, "%v", err)
	}
	return data, nil
}

// ImportResult is what an import wrote.
type ImportResult struct {
	Cookies int      `json:"cookie_count" jsonschema:"cookies set"`
	Origins []string `json:"origin_names" jsonschema:"origins whose localStorage was written"`
	Keys    int      `json:"key_count" jsonschema:"localStorage keys written"`
	Records int      `json:"record_count,omitempty" jsonschema:"IndexedDB records written"`
}

// ImportState seeds the app from a storageState: cookies, and the
// localStorage and IndexedDB of origins the app has open. The whole state
// is checked (STORAGE_STATE_INVALID names the JSON path of the first
// problem) and every origin reached before anything is written.
func (a App) ImportState(ctx context.Context, data []byte) (*ImportResult, error) {
	st, err := ParseState(data)
	if err != nil {
		return nil, err
	}
	origins, err := Origins(ctx, a.Pool)
	if err != nil {
		return nil, err
	}
	areas := make([]*Area, len(st.Origins))
	dbs := make([]*DB, len(st.Origins))
	for i, so := range st.Origins {
		o, err := Find(origins, fmt.Sprintf("$.origins[%d].origin", i), so.Origin)
		if err != nil {
			return nil, err
		}
		if areas[i], err = Open(ctx, a.Pool, o, Local); err != nil {
			return nil, err
		}
		if so.IndexedDB == nil {
			continue
		}
		if dbs[i], err = a.openIDB(ctx, o); err != nil {
			return nil, err
		}
		path, msg, err := dbs[i].CheckImport(ctx, so.IndexedDB)
		if err != nil {
			return nil, err
		}
		if path != "" {
			p := fmt.Sprintf("$.origins[%d].indexedDB%s", i, path)
			return nil, errs.New(errs.StorageStateInvalid, "%s: %s", p, msg).With("path", p)
		}
	}
	conn, err := a.AnyConn(ctx)
	if err != nil {
		return nil, err
	}
	params := make([]CookieParam, len(st.Cookies))
	for i, ck := range st.Cookies {
		params[i] = ck.Param()
	}
	if err := SetCookies(ctx, conn, params); err != nil {
		return nil, err
	}
	out := &ImportResult{Cookies: len(params), Origins: []string{}}
	for i, so := range st.Origins {
		for _, it := range so.LocalStorage {
			if err := areas[i].Set(ctx, it.Name, it.Value); err != nil {
				return nil, err
			}
			out.Keys++
		}
		if dbs[i] != nil {
			n, err := dbs[i].Import(ctx, so.IndexedDB)
			if err != nil {
				return nil, err
			}
			out.Records += n
		}
		out.Origins = append(out.Origins, so.Origin)
	}
	return out, nil
}
