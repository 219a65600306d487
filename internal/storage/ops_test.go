package storage

import (
	"testing"

	"github.com/understudy-dev/understudy/internal/errs/errstest"
)

// TestChecks: each tool argument's Check refuses bad input with
// BAD_ARGUMENT naming the field, and passes good input.
func TestChecks(t *testing.T) {
	store := IDBStore{Database: "db", Store: "s"}
	for _, c := range []struct {
		name  string
		check func() error
		field string // "" when the input is good
	}{
		{"filter url", Filter{URL: "not a url"}.Check, "url"},
		{"filter ok", Filter{URL: "https://a.test/x", Name: "n"}.Check, ""},
		{"cookie no name", NewCookie{Value: "v", URL: "https://a.test"}.Check, "name"},
		{"cookie partition", NewCookie{Name: "n", URL: "https://a.test", Secure: true, PartitionKey: "nope"}.Check, "partitionKey"},
		{"cookie ok", NewCookie{Name: "n", Value: "v", URL: "https://a.test"}.Check, ""},
		{"get neither", WebGet{}.Check, "key"},
		{"get both", WebGet{Key: "a", Keys: []string{"b"}}.Check, "key"},
		{"get ok", WebGet{Keys: []string{"b"}}.Check, ""},
		{"set no key", WebSet{Value: "v"}.Check, "key"},
		{"remove no key", WebKey{}.Check, "key"},
		{"export no path", ExportOptions{}.Check, "path"},
		{"import no path", ImportOptions{}.Check, "path"},
		{"store no database", IDBStore{Store: "s"}.Check, "database"},
		{"store no store", IDBStore{Database: "db"}.Check, "store"},
		{"records skip", IDBRecordsQuery{IDBStore: store, Skip: -1}.Check, "skip"},
		{"records limit", IDBRecordsQuery{IDBStore: store, Limit: 1001}.Check, "limit"},
		{"records empty range", IDBRecordsQuery{IDBStore: store, Range: &KeyRange{}}.Check, "range"},
		{"keys limit", IDBKeysQuery{IDBStore: store, Limit: -1}.Check, "limit"},
		{"delete neither", (&IDBDeletion{IDBStore: store}).Check, "key"},
		{"delete bad key", (&IDBDeletion{IDBStore: store, Key: true}).Check, "key"},
		{"put null", IDBPut{IDBStore: store}.Check, "value"},
		{"put bad key", IDBPut{IDBStore: store, Value: 1.0, Key: true}.Check, "key"},
		{"put ok", IDBPut{IDBStore: store, Value: 1.0, Key: "k"}.Check, ""},
	} {
		errstest.CheckField(t, c.name, c.check(), c.field)
	}
	d := IDBDeletion{IDBStore: store, Key: 3.0}
	if err := d.Check(); err != nil || d.Range == nil || d.Range.Lower != 3.0 || d.Range.Upper != 3.0 {
		t.Fatalf("a key is the range of that key: %v %+v", err, d.Range)
	}
}
