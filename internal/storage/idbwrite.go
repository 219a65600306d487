package storage

import (
	"cmp"
	"context"
	_ "embed"
	"encoding/json"
	"strings"

	"github.com/understudy-dev/understudy/internal/cdp"
	"github.com/understudy-dev/understudy/internal/errs"
)

//go:embed idb.js
var idbJS string

// InDocument names the document of the origin where the fixed IndexedDB
// scripts run: its socket and main-world execution context (0: the
// target's root document). Without it they run only when the origin's
// first host is its target's root.
func (d *DB) InDocument(conn *cdp.Conn, contextID int64) {
	d.doc, d.ctxID = conn, contextID
}

// scriptable says whether a document of the origin can run the scripts.
func (d *DB) scriptable() bool { return d.doc != nil || d.root }

// run calls op of idb.js with q (data, never code) in the origin's
// document; the script's errors that name a field ("store: ...") become
// BAD_ARGUMENT naming it.
func (d *DB) run(ctx context.Context, op string, q any, out any) error {
	if !d.scriptable() {
		return errs.New(errs.OriginNotOpen, "%s: no document of the origin can be reached for IndexedDB writes", d.origin).With("origin", d.origin)
	}
	arg, err := json.Marshal(q)
	if err != nil {
		return err
	}
	opArg, _ := json.Marshal(op)
	v, thrown, err := d.evaluate(ctx, "("+idbJS+")("+string(opArg)+","+string(arg)+")")
	if err != nil {
		return err
	}
	if thrown != "" {
		if err := d.fieldError(thrown, "database", "store", "key", "value", "index"); err != nil {
			return err
		}
		msg := strings.TrimPrefix(strings.SplitN(thrown, "\n", 2)[0], "Error: ")
		return errs.New(errs.Internal, "IndexedDB of %s: %s", d.origin, msg).With("origin", d.origin)
	}
	if out == nil {
		return nil
	}
	return json.Unmarshal(v, out)
}

// evaluate runs expr (awaited, returned by value) in the origin's document:
// the frame's context when the origin lives in a frame, else the target's
// root. It returns the value, or what the script threw.
func (d *DB) evaluate(ctx context.Context, expr string) (json.RawMessage, string, error) {
	params := map[string]any{"expression": expr, "awaitPromise": true, "returnByValue": true}
	conn := d.conn
	if d.doc != nil {
		conn = d.doc
		if d.ctxID != 0 {
			params["contextId"] = d.ctxID
		}
	}
	var res cdp.Evaluated
	if err := conn.Call(ctx, "Runtime.evaluate", params, &res); err != nil {
		return nil, "", err
	}
	if thrown, ok := res.Thrown(); ok {
		return nil, cmp.Or(thrown, "an exception"), nil
	}
	return res.Result.Value, "", nil
}

// fieldError is BAD_ARGUMENT naming the field when the IndexedDB scripts
// threw "Error: <field>: <why>" for one of fields, else nil.
func (d *DB) fieldError(thrown string, fields ...string) error {
	for _, f := range fields {
		if i := strings.Index(thrown, "Error: "+f+": "); i >= 0 {
			line, _, _ := strings.Cut(thrown[i+len("Error: "+f+": "):], "\n")
			return errs.BadArg(f, "%s: %s", d.origin, line)
		}
	}
	return nil
}

// SetResult is a record written by Set.
type SetResult struct {
	Key    JSONValue `json:"key"`
	Stored bool      `json:"stored"`
}

// Set adds or overwrites one record of an existing store (never creating
// or upgrading a database) and reads it back after the commit. key is
// nil for a store with in-line keys or a key generator.
func (d *DB) Set(ctx context.Context, database, store string, value, key any) (*SetResult, error) {
	q := map[string]any{"db": database, "store": store, "value": value}
	if key != nil {
		q["key"] = key
	}
	var out SetResult
	if err := d.run(ctx, "set", q, &out); err != nil {
		return nil, err
	}
	if !out.Stored {
		return nil, errs.New(errs.Internal, "IndexedDB of %s: the record under key %v does not read back as written", d.origin, out.Key)
	}
	return &out, nil
}

// Export reads every database of the origin in Playwright's storageState
// shape (origins[].indexedDB).
func (d *DB) Export(ctx context.Context) (json.RawMessage, error) {
	var out json.RawMessage
	if err := d.run(ctx, "collect", nil, &out); err != nil {
		return nil, err
	}
	return out, nil
}

// CheckImport reports what an import of dbs (an origin's indexedDB array)
// would refuse, without writing: a record whose encoded value does not
// decode, or a database that exists without a store the file fills. path
// is relative to the array ("[0].stores[1].name").
func (d *DB) CheckImport(ctx context.Context, dbs json.RawMessage) (path, msg string, err error) {
	var out struct {
		OK      bool   `json:"ok"`
		Path    string `json:"path"`
		Message string `json:"message"`
	}
	if err := d.run(ctx, "check", dbs, &out); err != nil {
		return "", "", err
	}
	if out.OK {
		return "", "", nil
	}
	return out.Path, out.Message, nil
}

// Import writes dbs (an origin's indexedDB array in Playwright's shape):
// a database that does not exist is created with the file's version,
// stores and indexes; in one that exists each of the file's stores is
// cleared and filled, in one transaction per database.
func (d *DB) Import(ctx context.Context, dbs json.RawMessage) (int, error) {
	var out struct {
		Records int `json:"records"`
	}
	err := d.run(ctx, "restore", dbs, &out)
	return out.Records, err
}
