package mcpwire

import (
	"bytes"
	"encoding/json"
	"testing"
)

// FuzzDeepValue: DeepValue (the token-by-token reader of messages nested
// too deeply for json.Valid) agrees with json.Valid on what is one JSON
// value, and finds the same top-level id encoding/json does.
func FuzzDeepValue(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"ping"}`, `{"id":"a","params":[[[]]]}`, `{"id":{"x":1}}`, `[1,"id",2]`,
		`{"id":1,"id":2}`, `{"a":{"id":3}}`, `{"id":1} {}`, `{"id":1`, `"x"`, `1e5`, `{"id":-0.5e+3}`, ` {"id" : "b" } `,
		`{"a":"id","id":7}`, `{"id":null}`, `{"id":true}`, `{"a":[{"id":1}],"id":"z"}`, "{\"id\":\"\\u00e9\"}",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if JSONDepth(b) > 1000 {
			return // json.Valid's own limit is 10,000; encoding/json's Unmarshal below needs less
		}
		id, ok := DeepValue(b)
		if ok != json.Valid(b) {
			t.Fatalf("DeepValue(%q) ok=%v, json.Valid=%v", b, ok, json.Valid(b))
		}
		if !ok {
			return
		}
		var m map[string]json.RawMessage
		if json.Unmarshal(b, &m) != nil {
			if id != nil {
				t.Fatalf("DeepValue(%q) found id %s in a non-object", b, id)
			}
			return
		}
		raw, has := m["id"]
		var v any
		plain := has && json.Unmarshal(raw, &v) == nil
		switch v.(type) {
		case string, float64:
		default:
			plain = false
		}
		if !plain {
			if id != nil && bytes.Count(b, []byte(`"id"`)) == 1 {
				t.Fatalf("DeepValue(%q) = %s, but the id is not a string or number", b, id)
			}
			return
		}
		if id == nil {
			return // a repeated "id" (encoding/json keeps the last; DeepValue trusts none)
		}
		var a, w any
		if json.Unmarshal(id, &a) != nil || json.Unmarshal(raw, &w) != nil || a != w {
			t.Fatalf("DeepValue(%q) id %s, encoding/json %s", b, id, raw)
		}
	})
}
