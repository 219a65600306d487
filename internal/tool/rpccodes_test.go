package tool

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestHTTPCallBeforeInitializeHasACode: over streamable HTTP, tools/call
// before initialize is a JSON-RPC error with a code (-32600), not go-sdk's
// code 0.
func TestHTTPCallBeforeInitializeHasACode(t *testing.T) {
	s := New(Config{})
	t.Cleanup(s.Close)
	hs := httptest.NewServer(s.HTTPHandler(HTTPOptions{}))
	t.Cleanup(hs.Close)
	res := rawPost(t, hs.URL+MCPPath, "", `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"electron_status","arguments":{}}}`)
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	data := string(body)
	if i := strings.Index(data, "data: "); i >= 0 {
		data = data[i+len("data: "):]
		data, _, _ = strings.Cut(data, "\n")
	}
	var m struct {
		ID    json.RawMessage `json:"id"`
		Error *struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.Unmarshal([]byte(data), &m); err != nil || m.Error == nil || m.Error.Code != -32600 || string(m.ID) != "7" {
		t.Fatalf("tools/call before initialize: %s (%v), want error code -32600 for id 7", body, err)
	}
}

// TestHTTPDeepRequestIsInvalid: over streamable HTTP, a request nested
// 100,000 deep is a JSON-RPC -32600 with its id (go-sdk answered a
// plain-text 400 "exceeded maximum nesting depth").
func TestHTTPDeepRequestIsInvalid(t *testing.T) {
	s := New(Config{})
	t.Cleanup(s.Close)
	hs := httptest.NewServer(s.HTTPHandler(HTTPOptions{}))
	t.Cleanup(hs.Close)
	deep := `{"jsonrpc":"2.0","id":"deep","method":"ping","params":{"a":` + strings.Repeat("[", 100000) + strings.Repeat("]", 100000) + `}}`
	res := rawPost(t, hs.URL+MCPPath, "", deep)
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	var m struct {
		ID    json.RawMessage `json:"id"`
		Error *struct {
			Code int `json:"code"`
		} `json:"error"`
	}
	if err := json.Unmarshal(body, &m); err != nil || m.Error == nil || m.Error.Code != -32600 || string(m.ID) != `"deep"` {
		t.Fatalf("100,000-deep request: HTTP %d %.200s (%v), want -32600 for id \"deep\"", res.StatusCode, body, err)
	}
	// A shallow request is go-sdk's as before.
	ok := rawPost(t, hs.URL+MCPPath, "", `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"a":[[[]]]}}`)
	defer ok.Body.Close()
	if b, _ := io.ReadAll(ok.Body); ok.StatusCode != 200 || !strings.Contains(string(b), `"id":1`) {
		t.Fatalf("a shallow ping after: HTTP %d %s", ok.StatusCode, b)
	}
}

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
