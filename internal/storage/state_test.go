package storage

import (
	"testing"

	"github.com/understudy-dev/understudy/internal/errs"
)

// TestParseStateIndexedDB: a file in Playwright's IndexedDB shape parses and
// keeps the databases as JSON; each kind of problem names its JSON path.
func TestParseStateIndexedDB(t *testing.T) {
	const good = `{"cookies":[],"origins":[{"origin":"https://a.test","localStorage":[],"indexedDB":[{"name":"db","version":2,"stores":[
	  {"name":"s","autoIncrement":false,"keyPath":"id","records":[{"value":{"id":1}},{"valueEncoded":{"o":[{"k":"id","v":2}],"id":1}}],"indexes":[{"name":"i","keyPathArray":["a","b"],"multiEntry":false,"unique":true}]},
	  {"name":"kv","autoIncrement":false,"records":[{"key":"k","value":null}],"indexes":[]}]}]}]}`
	st, err := ParseState([]byte(good))
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Origins) != 1 || len(st.Origins[0].IndexedDB) == 0 {
		t.Fatalf("parsed: %+v", st)
	}
	for _, c := range []struct{ doc, path string }{
		{`[{"name":"db","version":1.5,"stores":[]}]`, "$.origins[0].indexedDB[0].version"},
		{`[{"name":"db","stores":[]}]`, "$.origins[0].indexedDB[0].version"},
		{`[{"name":"db","version":1,"stores":[]},{"name":"db","version":1,"stores":[]}]`, "$.origins[0].indexedDB[1].name"},
		{`[{"name":"db","version":1,"stores":[{"name":"s","autoIncrement":"no","records":[],"indexes":[]}]}]`, "$.origins[0].indexedDB[0].stores[0].autoIncrement"},
		{`[{"name":"db","version":1,"stores":[{"name":"s","autoIncrement":false,"records":[{"key":1}],"indexes":[]}]}]`, "$.origins[0].indexedDB[0].stores[0].records[0].value"},
		{`[{"name":"db","version":1,"stores":[{"name":"s","autoIncrement":false,"records":[{"value":1}],"indexes":[]}]}]`, "$.origins[0].indexedDB[0].stores[0].records[0].key"},
		{`[{"name":"db","version":1,"stores":[{"name":"s","autoIncrement":true,"records":[],"indexes":[{"name":"i","multiEntry":false,"unique":false}]}]}]`, "$.origins[0].indexedDB[0].stores[0].indexes[0].keyPath"},
		{`[{"name":"db","version":1,"stores":[{"name":"s","autoIncrement":true,"records":[],"indexes":[],"extra":1}]}]`, "$.origins[0].indexedDB[0].stores[0].extra"},
		{`{}`, "$.origins[0].indexedDB"},
	} {
		_, err := ParseState([]byte(`{"origins":[{"origin":"https://a.test","localStorage":[],"indexedDB":` + c.doc + `}]}`))
		e := errs.As(err)
		if e == nil || e.Code != errs.StorageStateInvalid || e.Details["path"] != c.path {
			t.Errorf("%s: got %v, want the path %s", c.doc, err, c.path)
		}
	}
	_, err = ParseState([]byte(`{"origins":[{"origin":"https://a.test","localStorage":[],"opfs":[]}]}`))
	if e := errs.As(err); e == nil || e.Details["path"] != "$.origins[0].opfs" {
		t.Errorf("opfs: %v", err)
	}
}
