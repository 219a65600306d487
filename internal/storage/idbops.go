package storage

import (
	"context"

	"github.com/understudy-dev/understudy/internal/errs"
)

// The IndexedDB tools' arguments, checks and results, with the App
// operations that answer them (see ops.go).

// IDBSchemaQuery asks for an origin's database names, or one database's
// schema.
type IDBSchemaQuery struct {
	OriginArg
	Database string `json:"database,omitempty" jsonschema:"a database name; omit to list the names"`
}

// IDBSchemaResult is the database names, or one database's schema.
type IDBSchemaResult struct {
	Origin    string    `json:"origin"`
	Databases []string  `json:"databases,omitempty"`
	Database  *Database `json:"database,omitempty"`
}

// IDBSchema lists the origin's databases, or describes q.Database.
func (a App) IDBSchema(ctx context.Context, q IDBSchemaQuery) (*IDBSchemaResult, error) {
	db, origin, err := a.IDB(ctx, q.Origin)
	if err != nil {
		return nil, err
	}
	out := &IDBSchemaResult{Origin: origin}
	if q.Database == "" {
		out.Databases, err = db.Names(ctx)
		return out, err
	}
	out.Database, err = db.Schema(ctx, q.Database)
	return out, err
}

// IDBStore names an object store of an origin's database.
type IDBStore struct {
	OriginArg
	Database string `json:"database" jsonschema:"the database name"`
	Store    string `json:"store" jsonschema:"the object store name"`
}

// Check wants a database and a store.
func (s IDBStore) Check() error {
	if s.Database == "" {
		return errs.BadArg("database", "is required")
	}
	if s.Store == "" {
		return errs.BadArg("store", "is required")
	}
	return nil
}

// defaultLimit is how many records or keys a read returns when no limit
// is given.
const defaultLimit = 100

// IDBRecordsQuery is a page of records to read.
type IDBRecordsQuery struct {
	IDBStore
	Index string    `json:"index,omitempty" jsonschema:"read through this index (keys are the index's)"`
	Range *KeyRange `json:"range,omitempty" jsonschema:"the keys to read"`
	Skip  int       `json:"skip,omitempty" jsonschema:"records to skip (paging)"`
	Limit int       `json:"limit,omitempty" jsonschema:"records to return, default 100, max 1000"`
}

// Check checks the store, skip, limit and range.
func (q IDBRecordsQuery) Check() error {
	if err := q.IDBStore.Check(); err != nil {
		return err
	}
	if q.Skip < 0 {
		return errs.BadArg("skip", "must be 0 or more")
	}
	if q.Limit < 0 || q.Limit > 1000 {
		return errs.BadArg("limit", "must be between 1 and 1000")
	}
	_, err := q.Range.Wire("range")
	return err
}

// IDBRecordsResult is a page of records.
type IDBRecordsResult struct {
	Origin  string   `json:"origin"`
	Count   int      `json:"count"`
	Records []Record `json:"records"`
	HasMore bool     `json:"hasMore"`
}

// IDBRecords reads a page of records in key order (ReadIDB: the active
// surface's own origin at once).
func (a App) IDBRecords(ctx context.Context, q IDBRecordsQuery) (*IDBRecordsResult, error) {
	limit := q.Limit
	if limit == 0 {
		limit = defaultLimit
	}
	var more bool
	recs, origin, err := ReadIDB(ctx, a, q.Origin, func(db *DB) (recs []Record, err error) {
		recs, more, err = db.Records(ctx, q.Database, q.Store, q.Index, q.Range, q.Skip, limit)
		return recs, err
	})
	if err != nil {
		return nil, err
	}
	return &IDBRecordsResult{Origin: origin, Count: len(recs), Records: recs, HasMore: more}, nil
}

// IDBKeysQuery is a page of primary keys to list.
type IDBKeysQuery struct {
	IDBStore
	Index string    `json:"index,omitempty" jsonschema:"list through this index: the primary keys of the records whose index key is in range, in index order"`
	Range *KeyRange `json:"range,omitempty" jsonschema:"the keys to list (the index's keys with index)"`
	Limit int       `json:"limit,omitempty" jsonschema:"keys to return, default 100, max 1000"`
}

// Check checks the store, limit and range.
func (q IDBKeysQuery) Check() error {
	if err := q.IDBStore.Check(); err != nil {
		return err
	}
	if q.Limit < 0 || q.Limit > 1000 {
		return errs.BadArg("limit", "must be between 1 and 1000")
	}
	_, err := q.Range.Wire("range")
	return err
}

// IDBKeysResult is a page of primary keys.
type IDBKeysResult struct {
	Origin  string      `json:"origin"`
	Count   int         `json:"count"`
	Keys    []JSONValue `json:"keys" jsonschema:"primary keys in order: numbers, strings, dates as ISO text or arrays of them"`
	HasMore bool        `json:"hasMore"`
}

// IDBKeys is stagewright's storage_idb_keys: primary keys only, read as
// IDBRecords reads (the active surface's own origin at once).
func (a App) IDBKeys(ctx context.Context, q IDBKeysQuery) (*IDBKeysResult, error) {
	limit := q.Limit
	if limit == 0 {
		limit = defaultLimit
	}
	var more bool
	keys, origin, err := ReadIDB(ctx, a, q.Origin, func(db *DB) (keys []JSONValue, err error) {
		keys, more, err = db.Keys(ctx, q.Database, q.Store, q.Index, q.Range, limit)
		return keys, err
	})
	if err != nil {
		return nil, err
	}
	return &IDBKeysResult{Origin: origin, Count: len(keys), Keys: keys, HasMore: more}, nil
}

// IDBCountResult is a store's record count.
type IDBCountResult struct {
	Origin string `json:"origin"`
	Count  int    `json:"count"`
}

// IDBCount counts the records of a store.
func (a App) IDBCount(ctx context.Context, s IDBStore) (*IDBCountResult, error) {
	db, origin, err := a.IDB(ctx, s.Origin)
	if err != nil {
		return nil, err
	}
	n, err := db.Count(ctx, s.Database, s.Store)
	if err != nil {
		return nil, err
	}
	return &IDBCountResult{Origin: origin, Count: n}, nil
}

// IDBDeletion is the records to delete: one key or a key range.
type IDBDeletion struct {
	IDBStore
	Key   any       `json:"key,omitempty" jsonschema:"the key (number or string) of the record to delete"`
	Range *KeyRange `json:"range,omitempty" jsonschema:"delete every record in this key range instead"`
}

// Check wants exactly one of Key and Range, and turns Key into the range
// of that one key.
func (d *IDBDeletion) Check() error {
	if err := d.IDBStore.Check(); err != nil {
		return err
	}
	if (d.Key == nil) == (d.Range == nil) {
		return errs.BadArg("key", "pass exactly one of key or range")
	}
	if d.Key != nil {
		d.Range = &KeyRange{Lower: d.Key, Upper: d.Key}
		if _, err := d.Range.Wire("key"); err != nil {
			return errs.BadArg("key", "must be a number or a string")
		}
	}
	_, err := d.Range.Wire("range")
	return err
}

// IDBChangeResult is a store's record count before and after a change.
type IDBChangeResult struct {
	Origin string `json:"origin"`
	Before int    `json:"count_before" jsonschema:"records in the store before"`
	After  int    `json:"count_after" jsonschema:"records in the store now"`
}

// IDBDelete deletes the records in d.Range (Check sets it from a key).
func (a App) IDBDelete(ctx context.Context, d IDBDeletion) (*IDBChangeResult, error) {
	db, origin, err := a.IDB(ctx, d.Origin)
	if err != nil {
		return nil, err
	}
	before, after, err := db.Change(ctx, d.Database, d.Store, func() error { return db.Delete(ctx, d.Database, d.Store, d.Range) })
	if err != nil {
		return nil, err
	}
	return &IDBChangeResult{Origin: origin, Before: before, After: after}, nil
}

// IDBClear deletes every record of a store and checks none is left.
func (a App) IDBClear(ctx context.Context, s IDBStore) (*IDBChangeResult, error) {
	db, origin, err := a.IDB(ctx, s.Origin)
	if err != nil {
		return nil, err
	}
	before, after, err := db.Change(ctx, s.Database, s.Store, func() error { return db.Clear(ctx, s.Database, s.Store) })
	if err != nil {
		return nil, err
	}
	if after != 0 {
		return nil, errs.New(errs.Internal, "the store still holds %d records", after)
	}
	return &IDBChangeResult{Origin: origin, Before: before, After: after}, nil
}

// IDBPut is one record to write.
type IDBPut struct {
	IDBStore
	Value any `json:"value" jsonschema:"the record, any JSON value (for a store with a keyPath, an object holding the key)"`
	Key   any `json:"key,omitempty" jsonschema:"the key (number or string), only for a store with out-of-line keys"`
}

// Check wants a value that is not null and a key that is a number or a
// string.
func (p IDBPut) Check() error {
	if err := p.IDBStore.Check(); err != nil {
		return err
	}
	if p.Value == nil {
		return errs.BadArg("value", "is required (any JSON value but null)")
	}
	if p.Key != nil {
		switch p.Key.(type) {
		case float64, string:
		default:
			return errs.BadArg("key", "must be a number or a string")
		}
	}
	return nil
}

// IDBPutResult is a record written and read back.
type IDBPutResult struct {
	Origin string    `json:"origin"`
	Key    JSONValue `json:"record_key" jsonschema:"the record's key, a JSON value (given, taken from the value's keyPath, or generated); stagewright calls it key"`
	Stored bool      `json:"stored" jsonschema:"true: the record reads back as written after the commit"`
}

// IDBWrite adds or overwrites one record and reads it back after the
// commit.
func (a App) IDBWrite(ctx context.Context, p IDBPut) (*IDBPutResult, error) {
	db, origin, err := a.IDB(ctx, p.Origin)
	if err != nil {
		return nil, err
	}
	got, err := db.Set(ctx, p.Database, p.Store, p.Value, p.Key)
	if err != nil {
		return nil, err
	}
	return &IDBPutResult{Origin: origin, Key: got.Key, Stored: got.Stored}, nil
}
