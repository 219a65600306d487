package storage

import (
	"context"
	"encoding/json"
	"errors"
	"strings"

	"github.com/understudy-dev/understudy/internal/cdp"
	"github.com/understudy-dev/understudy/internal/errs"
	"github.com/understudy-dev/understudy/internal/target"
)

// DB is the IndexedDB of one origin, read through the IndexedDB domain on
// the socket of a target that holds a document of the origin.
type DB struct {
	conn   *cdp.Conn
	origin string
	// root is set when the origin's first host is its target's root
	// document: records are then read there by one fixed script (the
	// protocol's requestData wraps every value as a remote object, about
	// 1 ms a record).
	root bool
	// doc and ctxID name a document of the origin (InDocument): the fixed
	// scripts run in its main world.
	doc   *cdp.Conn
	ctxID int64
}

// ErrOriginChanged says the document named by IDBIn no longer holds the
// origin it was opened for (it navigated): list the origins and open again.
var ErrOriginChanged = errors.New("the document holds another origin now")

// IDBIn returns the IndexedDB of origin as seen by one document: its
// socket and main-world context (0: the target's root). Reads check that
// the document still holds origin (ErrOriginChanged).
func IDBIn(conn *cdp.Conn, contextID int64, origin string) *DB {
	return &DB{conn: conn, origin: origin, doc: conn, ctxID: contextID}
}

// OpenIDB returns the IndexedDB of origin o.
func OpenIDB(ctx context.Context, pool *target.Pool, o *Origin) (*DB, error) {
	a, err := Open(ctx, pool, o, Local)
	if err != nil {
		return nil, err
	}
	return &DB{conn: a.conn, origin: o.Origin, root: len(o.Hosts) > 0 && o.Hosts[0].FrameID == o.Hosts[0].TargetID}, nil
}

// StoreInfo is an object store's schema.
type StoreInfo struct {
	Name          string      `json:"name"`
	KeyPath       JSONValue   `json:"keyPath" jsonschema:"a JSON value: a string, an array of strings, or null for out-of-line keys"`
	AutoIncrement bool        `json:"autoIncrement"`
	Indexes       []IndexInfo `json:"indexes"`
}

// IndexInfo is an index of a store.
type IndexInfo struct {
	Name       string    `json:"name"`
	KeyPath    JSONValue `json:"keyPath"`
	Unique     bool      `json:"unique"`
	MultiEntry bool      `json:"multiEntry"`
}

// Database is a database's schema.
type Database struct {
	Name    string      `json:"name"`
	Version float64     `json:"version"`
	Stores  []StoreInfo `json:"stores"`
}

func (d *DB) call(ctx context.Context, method string, params map[string]any, result any) error {
	params["securityOrigin"] = d.origin
	err := d.conn.Call(ctx, method, params, result)
	var pe *cdp.ProtocolError
	if errors.As(err, &pe) {
		switch {
		case strings.Contains(pe.Message, "database") || strings.Contains(pe.Message, "Database"):
			return errs.BadArg("database", "%s: %s", d.origin, pe.Message)
		case strings.Contains(pe.Message, "store") || strings.Contains(pe.Message, "Store"):
			return errs.BadArg("store", "%s: %s", d.origin, pe.Message)
		case strings.Contains(pe.Message, "ndex"):
			return errs.BadArg("index", "%s: %s", d.origin, pe.Message)
		}
		return errs.New(errs.OriginNotOpen, "%s: %s", method, pe.Message).With("origin", d.origin)
	}
	return err
}

// Names lists the origin's databases.
func (d *DB) Names(ctx context.Context) ([]string, error) {
	var out struct {
		DatabaseNames []string `json:"databaseNames"`
	}
	if err := d.call(ctx, "IndexedDB.requestDatabaseNames", map[string]any{}, &out); err != nil {
		return nil, err
	}
	if out.DatabaseNames == nil {
		out.DatabaseNames = []string{}
	}
	return out.DatabaseNames, nil
}

// Schema reads one database's stores; a name that is not a database of
// the origin is BAD_ARGUMENT naming database (and the names there are).
func (d *DB) Schema(ctx context.Context, name string) (*Database, error) {
	names, err := d.Names(ctx)
	if err != nil {
		return nil, err
	}
	found := false
	for _, n := range names {
		found = found || n == name
	}
	if !found {
		return nil, errs.BadArg("database", "%s has no database %q", d.origin, name).With("databases", names)
	}
	var out struct {
		DatabaseWithObjectStores struct {
			Name         string  `json:"name"`
			Version      float64 `json:"version"`
			ObjectStores []struct {
				Name          string  `json:"name"`
				KeyPath       keyPath `json:"keyPath"`
				AutoIncrement bool    `json:"autoIncrement"`
				Indexes       []struct {
					Name       string  `json:"name"`
					KeyPath    keyPath `json:"keyPath"`
					Unique     bool    `json:"unique"`
					MultiEntry bool    `json:"multiEntry"`
				} `json:"indexes"`
			} `json:"objectStores"`
		} `json:"databaseWithObjectStores"`
	}
	if err := d.call(ctx, "IndexedDB.requestDatabase", map[string]any{"databaseName": name}, &out); err != nil {
		return nil, err
	}
	db := &Database{Name: out.DatabaseWithObjectStores.Name, Version: out.DatabaseWithObjectStores.Version, Stores: []StoreInfo{}}
	for _, s := range out.DatabaseWithObjectStores.ObjectStores {
		si := StoreInfo{Name: s.Name, KeyPath: s.KeyPath.value(), AutoIncrement: s.AutoIncrement, Indexes: []IndexInfo{}}
		for _, ix := range s.Indexes {
			si.Indexes = append(si.Indexes, IndexInfo{Name: ix.Name, KeyPath: ix.KeyPath.value(), Unique: ix.Unique, MultiEntry: ix.MultiEntry})
		}
		db.Stores = append(db.Stores, si)
	}
	return db, nil
}

type keyPath struct {
	Type   string   `json:"type"`
	String string   `json:"string"`
	Array  []string `json:"array"`
}

func (k keyPath) value() any {
	switch k.Type {
	case "string":
		return k.String
	case "array":
		return k.Array
	}
	return nil
}

// store checks that database and store exist (and the index, if named).
func (d *DB) store(ctx context.Context, database, store, index string) error {
	db, err := d.Schema(ctx, database)
	if err != nil {
		return err
	}
	for _, s := range db.Stores {
		if s.Name != store {
			continue
		}
		if index == "" {
			return nil
		}
		for _, ix := range s.Indexes {
			if ix.Name == index {
				return nil
			}
		}
		return errs.BadArg("index", "store %q has no index %q", store, index)
	}
	names := make([]string, len(db.Stores))
	for i, s := range db.Stores {
		names[i] = s.Name
	}
	return errs.BadArg("store", "database %q has no object store %q", database, store).With("stores", names)
}

// KeyRange bounds the keys read: a number or a string at each end.
type KeyRange struct {
	Lower     any  `json:"lower,omitempty" jsonschema:"lowest key (number or string); omit: no lower bound"`
	Upper     any  `json:"upper,omitempty" jsonschema:"highest key (number or string); omit: no upper bound"`
	LowerOpen bool `json:"lowerOpen,omitempty" jsonschema:"exclude lower itself"`
	UpperOpen bool `json:"upperOpen,omitempty" jsonschema:"exclude upper itself"`
}

func idbKey(field string, v any) (map[string]any, error) {
	switch x := v.(type) {
	case float64:
		return map[string]any{"type": "number", "number": x}, nil
	case string:
		return map[string]any{"type": "string", "string": x}, nil
	}
	return nil, errs.BadArg(field, "a key must be a number or a string here")
}

// Wire converts the range to the protocol's, checking its keys.
func (r *KeyRange) Wire(field string) (map[string]any, error) {
	if r == nil {
		return nil, nil
	}
	if r.Lower == nil && r.Upper == nil {
		return nil, errs.BadArg(field, "give lower, upper or both")
	}
	out := map[string]any{"lowerOpen": r.LowerOpen, "upperOpen": r.UpperOpen}
	if r.Lower != nil {
		k, err := idbKey(field+".lower", r.Lower)
		if err != nil {
			return nil, err
		}
		out["lower"] = k
	}
	if r.Upper != nil {
		k, err := idbKey(field+".upper", r.Upper)
		if err != nil {
			return nil, err
		}
		out["upper"] = k
	}
	return out, nil
}

// JSONValue is a value the app chose (an IndexedDB key, key path or
// record): any JSON value. Result schemas describe it as such.
type JSONValue interface{}

// Record is one record: its key (the index key when read through an
// index), its primary key, and its value as JSON.
type Record struct {
	Key        JSONValue `json:"key"`
	PrimaryKey JSONValue `json:"primaryKey"`
	Value      JSONValue `json:"value"`
}

type remote struct {
	Type        string          `json:"type"`
	Subtype     string          `json:"subtype"`
	Value       json.RawMessage `json:"value"`
	Description string          `json:"description"`
	ObjectID    string          `json:"objectId"`
}

// Records reads a page of records in key order.
func (d *DB) Records(ctx context.Context, database, store, index string, rng *KeyRange, skip, limit int) ([]Record, bool, error) {
	if d.scriptable() { // the script names a missing database, store or index itself
		return d.readInPage(ctx, database, store, index, rng, skip, limit)
	}
	if err := d.store(ctx, database, store, index); err != nil {
		return nil, false, err
	}
	p := map[string]any{"databaseName": database, "objectStoreName": store, "skipCount": skip, "pageSize": limit}
	if index != "" {
		p["indexName"] = index
	}
	if w, err := rng.Wire("range"); err != nil {
		return nil, false, err
	} else if w != nil {
		p["keyRange"] = w
	}
	var out struct {
		Entries []struct {
			Key        remote `json:"key"`
			PrimaryKey remote `json:"primaryKey"`
			Value      remote `json:"value"`
		} `json:"objectStoreDataEntries"`
		HasMore bool `json:"hasMore"`
	}
	if err := d.call(ctx, "IndexedDB.requestData", p, &out); err != nil {
		return nil, false, err
	}
	// Object values are remote objects: one call turns them all into JSON
	// (binary values become a placeholder, as stagewright does).
	var ids []map[string]any
	for _, e := range out.Entries {
		for _, r := range []remote{e.Key, e.PrimaryKey, e.Value} {
			if r.ObjectID != "" {
				ids = append(ids, map[string]any{"objectId": r.ObjectID})
			}
		}
	}
	var values []json.RawMessage
	if len(ids) > 0 {
		var res struct {
			Result struct {
				Value []json.RawMessage `json:"value"`
			} `json:"result"`
		}
		fn := "function (...a) { " + normJS + " return a.map(v => norm(v, new Set())); }"
		if err := d.conn.Call(ctx, "Runtime.callFunctionOn", map[string]any{"objectId": ids[0]["objectId"], "functionDeclaration": fn,
			"arguments": ids, "returnByValue": true}, &res); err != nil {
			return nil, false, err
		}
		values = res.Result.Value
		_ = d.conn.Call(ctx, "Runtime.releaseObjectGroup", map[string]any{"objectGroup": "indexeddb"}, nil)
	}
	next := 0
	conv := func(r remote) any {
		if r.ObjectID != "" && next < len(values) {
			var v any
			_ = json.Unmarshal(values[next], &v)
			next++
			return v
		}
		if r.Value != nil {
			var v any
			_ = json.Unmarshal(r.Value, &v)
			return v
		}
		if r.Type == "undefined" {
			return nil
		}
		return r.Description
	}
	recs := make([]Record, 0, len(out.Entries))
	for _, e := range out.Entries {
		k := conv(e.Key)
		pk := conv(e.PrimaryKey)
		v := conv(e.Value)
		recs = append(recs, Record{Key: k, PrimaryKey: pk, Value: v})
	}
	return recs, out.HasMore, nil
}

// Count counts a store's records (all, or in a range through the data).
func (d *DB) Count(ctx context.Context, database, store string) (int, error) {
	if err := d.store(ctx, database, store, ""); err != nil {
		return 0, err
	}
	var out struct {
		EntriesCount float64 `json:"entriesCount"`
	}
	if err := d.call(ctx, "IndexedDB.getMetadata", map[string]any{"databaseName": database, "objectStoreName": store}, &out); err != nil {
		return 0, err
	}
	return int(out.EntriesCount), nil
}

// Delete deletes the records in a key range (one key: lower = upper).
func (d *DB) Delete(ctx context.Context, database, store string, rng *KeyRange) error {
	if err := d.store(ctx, database, store, ""); err != nil {
		return err
	}
	w, err := rng.Wire("range")
	if err != nil {
		return err
	}
	return d.call(ctx, "IndexedDB.deleteObjectStoreEntries", map[string]any{"databaseName": database, "objectStoreName": store, "keyRange": w}, nil)
}

// Clear deletes every record of a store.
func (d *DB) Clear(ctx context.Context, database, store string) error {
	if err := d.store(ctx, database, store, ""); err != nil {
		return err
	}
	return d.call(ctx, "IndexedDB.clearObjectStore", map[string]any{"databaseName": database, "objectStoreName": store}, nil)
}

// normJS turns a structured-clone value into JSON (Date as ISO text,
// binary and circular values as a placeholder).
const normJS = `const norm = (v, seen) => {
  if (v === null || typeof v !== 'object') return v;
  if (v instanceof Date) return v.toISOString();
  if (v instanceof ArrayBuffer || ArrayBuffer.isView(v)) return {__type: v.constructor.name, byteLength: v.byteLength};
  if (typeof Blob !== 'undefined' && v instanceof Blob) return {__type: 'Blob', byteLength: v.size};
  if (seen.has(v)) return {__type: 'Circular'};
  seen.add(v);
  const out = Array.isArray(v) ? v.map(x => norm(x, seen)) : Object.fromEntries(Object.entries(v).map(([k, x]) => [k, norm(x, seen)]));
  seen.delete(v);
  return out; };`

// sourceJS is the part of readJS and keysJS that finds what to read: the
// store (or its index) of an open database, and the key range of q.
const sourceJS = `
  function idbSource(db, q) {
    let src;
    try { src = db.transaction(q.store, 'readonly').objectStore(q.store); } catch (e) { throw new Error('store: ' + e.message); }
    if (q.index) { try { src = src.index(q.index); } catch (e) { throw new Error('index: ' + e.message); } }
    let range = null;
    if (q.lower !== undefined && q.upper !== undefined) range = IDBKeyRange.bound(q.lower, q.upper, q.lowerOpen, q.upperOpen);
    else if (q.lower !== undefined) range = IDBKeyRange.lowerBound(q.lower, q.lowerOpen);
    else if (q.upper !== undefined) range = IDBKeyRange.upperBound(q.upper, q.upperOpen);
    return { src, range };
  }
`

// readJS reads a page of records with a cursor; its argument is data
// ({db, store, index, lower, upper, lowerOpen, upperOpen, skip, limit}),
// never code. It opens the database without a version, so it never
// creates or upgrades one.
const readJS = `function (q) { ` + normJS + sourceJS + `
  return new Promise((resolve, reject) => {
    const req = indexedDB.open(q.db);
    req.onupgradeneeded = () => { req.transaction.abort(); };
    req.onerror = () => reject(new Error('database: ' + (req.error && req.error.message)));
    req.onsuccess = () => {
      const db = req.result;
      try {
        const { src, range } = idbSource(db, q);
        if (src.getAllRecords && q.skip + q.limit <= 10000) {
          // One request for the page (Chromium 141+), not one per record.
          const all = src.getAllRecords({query: range, count: q.skip + q.limit + 1});
          all.onerror = () => { db.close(); reject(all.error); };
          all.onsuccess = () => {
            db.close();
            const page = all.result.slice(q.skip, q.skip + q.limit);
            resolve({records: page.map(r => ({key: norm(r.key, new Set()), primaryKey: norm(r.primaryKey, new Set()), value: norm(r.value, new Set())})),
              hasMore: all.result.length > q.skip + q.limit, origin: self.origin});
          };
          return;
        }
        const out = []; let skipped = false;
        const cur = src.openCursor(range);
        cur.onerror = () => { db.close(); reject(cur.error); };
        cur.onsuccess = () => {
          const c = cur.result;
          if (!c) { db.close(); resolve({records: out, hasMore: false, origin: self.origin}); return; }
          if (q.skip && !skipped) { skipped = true; c.advance(q.skip); return; }
          if (out.length === q.limit) { db.close(); resolve({records: out, hasMore: true, origin: self.origin}); return; }
          out.push({key: norm(c.key, new Set()), primaryKey: norm(c.primaryKey, new Set()), value: norm(c.value, new Set())});
          c.continue();
        };
      } catch (e) { db.close(); reject(e); }
    };
  });
}`

// pageQuery runs one of the page scripts (readJS, keysJS) in the origin's
// root document with q and the key range, and decodes its answer into out;
// what names the work for an error. A script that names a missing
// database, store or index is BAD_ARGUMENT naming that field; a document
// of another origin is ErrOriginChanged.
func (d *DB) pageQuery(ctx context.Context, js string, q map[string]any, rng *KeyRange, what string, out any) error {
	if rng != nil {
		if rng.Lower != nil {
			q["lower"] = rng.Lower
		}
		if rng.Upper != nil {
			q["upper"] = rng.Upper
		}
		q["lowerOpen"], q["upperOpen"] = rng.LowerOpen, rng.UpperOpen
	}
	arg, err := json.Marshal(q)
	if err != nil {
		return err
	}
	v, thrown, err := d.evaluate(ctx, "("+js+")("+string(arg)+")")
	if err != nil {
		return err
	}
	if thrown != "" {
		if err := d.fieldError(thrown, "database", "store", "index"); err != nil {
			return err
		}
		return errs.New(errs.Internal, "%s of %s: %s", what, d.origin, thrown)
	}
	var from struct {
		Origin string `json:"origin"`
	}
	if err := json.Unmarshal(v, &from); err != nil {
		return errs.Wrap(errs.Internal, err, what+" of "+d.origin)
	}
	if from.Origin != "" && from.Origin != d.origin {
		return ErrOriginChanged
	}
	if err := json.Unmarshal(v, out); err != nil {
		return errs.Wrap(errs.Internal, err, what+" of "+d.origin)
	}
	return nil
}

// readInPage reads records in the origin's root document.
func (d *DB) readInPage(ctx context.Context, database, store, index string, rng *KeyRange, skip, limit int) ([]Record, bool, error) {
	var out struct {
		Records []Record `json:"records"`
		HasMore bool     `json:"hasMore"`
	}
	q := map[string]any{"db": database, "store": store, "index": index, "skip": skip, "limit": limit}
	if err := d.pageQuery(ctx, readJS, q, rng, "reading IndexedDB", &out); err != nil {
		return nil, false, err
	}
	recs := out.Records
	if recs == nil {
		recs = []Record{}
	}
	return recs, out.HasMore, nil
}

// keysJS lists primary keys with one getAllKeys request (through an index:
// the primary keys of the records whose index key is in the range, in
// index order); its argument is data ({db, store, index, lower, upper,
// lowerOpen, upperOpen, limit}), never code. Like readJS it opens the
// database without a version, so it never creates or upgrades one.
const keysJS = `function (q) { ` + normJS + sourceJS + `
  return new Promise((resolve, reject) => {
    const req = indexedDB.open(q.db);
    req.onupgradeneeded = () => { req.transaction.abort(); };
    req.onerror = () => reject(new Error('database: ' + (req.error && req.error.message)));
    req.onsuccess = () => {
      const db = req.result;
      try {
        const { src, range } = idbSource(db, q);
        const all = src.getAllKeys(range, q.limit + 1);
        all.onerror = () => { db.close(); reject(all.error); };
        all.onsuccess = () => {
          db.close();
          resolve({keys: all.result.slice(0, q.limit).map(k => norm(k, new Set())), hasMore: all.result.length > q.limit, origin: self.origin});
        };
      } catch (e) { db.close(); reject(e); }
    };
  });
}`

// Keys lists up to limit primary keys of a store in key order (through
// index: in the index's order, of the records whose index key is in rng);
// hasMore says whether more follow. In a reachable document of the origin
// it is one getAllKeys request and no value is read; otherwise the records
// are read through the protocol and their primary keys kept.
func (d *DB) Keys(ctx context.Context, database, store, index string, rng *KeyRange, limit int) ([]JSONValue, bool, error) {
	if !d.scriptable() {
		recs, more, err := d.Records(ctx, database, store, index, rng, 0, limit)
		if err != nil {
			return nil, false, err
		}
		keys := make([]JSONValue, len(recs))
		for i, r := range recs {
			keys[i] = r.PrimaryKey
		}
		return keys, more, nil
	}
	var out struct {
		Keys    []JSONValue `json:"keys"`
		HasMore bool        `json:"hasMore"`
	}
	q := map[string]any{"db": database, "store": store, "index": index, "limit": limit}
	if err := d.pageQuery(ctx, keysJS, q, rng, "listing IndexedDB keys", &out); err != nil {
		return nil, false, err
	}
	if out.Keys == nil {
		out.Keys = []JSONValue{}
	}
	return out.Keys, out.HasMore, nil
}
