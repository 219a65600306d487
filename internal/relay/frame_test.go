package relay

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/understudy-dev/understudy/internal/cdp"
)

func TestScanEnvelope(t *testing.T) {
	cases := []struct {
		in     string
		id     int64
		method string
		sid    string
		params string
		err    error
	}{
		{in: `{"id":1,"method":"Runtime.enable"}`, id: 1, method: "Runtime.enable"},
		{in: ` { "id" : 7 , "method" : "A.b" , "params" : {"x":[1,{"y":"}"}]} , "sessionId" : "S1" } `, id: 7, method: "A.b", sid: "S1", params: `{"x":[1,{"y":"}"}]}`},
		{in: `{"sessionId":"S2","id":3,"method":"A.b","params":{}}`, id: 3, method: "A.b", sid: "S2", params: `{}`},
		{in: `{"method":"Ev.ent","params":{"s":"a\"b\\"},"sessionId":"S3"}`, method: "Ev.ent", sid: "S3", params: `{"s":"a\"b\\"}`},
		{in: `{"id":-5,"result":{"result":{"value":"\u0041"}}}`, id: -5},
		{in: `{"id":1,"method":"\u0052untime.enable"}`, id: 1, method: "Runtime.enable"},
		{in: `{"id":1,"method":"M","other":[true,null,1e5,-2.5,"x"]}`, id: 1, method: "M"},
		{in: `{}`},
		{in: `[]`, err: cdp.ErrEnvelopeJSON},
		{in: `{"id":1.5,"method":"M"}`, err: cdp.ErrEnvelopeID},
		{in: `{"id":"1","method":"M"}`, err: cdp.ErrEnvelopeID},
		{in: `{"id":1,"method":2}`, err: cdp.ErrEnvelopeMethod},
		{in: `{"id":1,"method":""}`, err: cdp.ErrEnvelopeMethod},
		{in: `{"id":1,"method":"M","sessionId":3}`, err: cdp.ErrEnvelopeSessionID},
		{in: `{"id":1,"id":2,"method":"M"}`, err: cdp.ErrEnvelopeDuplicate},
		{in: `{"id":1,"method":"M","sessionId":"a","sessionId":"b"}`, err: cdp.ErrEnvelopeDuplicate},
		{in: `{"id":1,"method":"M","params":{},"params":{}}`, err: cdp.ErrEnvelopeDuplicate},
		{in: `{"id":1,"method":"M"`, err: cdp.ErrEnvelopeJSON},
		{in: `{"id":1,"method":"M"}x`, err: cdp.ErrEnvelopeJSON},
		{in: `{"id":1,"params":{"a":[}}`, err: cdp.ErrEnvelopeJSON},
		{in: `{"id":1 "method":"M"}`, err: cdp.ErrEnvelopeJSON},
		{in: `{"id":1,"method":"M",}`, err: cdp.ErrEnvelopeJSON},
		{in: `{"id":1,"method":"M","params":"unterminated}`, err: cdp.ErrEnvelopeJSON},
		{in: ``, err: cdp.ErrEnvelopeJSON},
	}
	for _, c := range cases {
		env, err := cdp.ScanEnvelope([]byte(c.in))
		if err != c.err {
			t.Errorf("%s: err %v, want %v", c.in, err, c.err)
			continue
		}
		if err != nil {
			continue
		}
		if env.ID != c.id || env.Method != c.method || env.SessionID != c.sid || string(env.Params) != c.params {
			t.Errorf("%s: got id %d method %q sid %q params %s", c.in, env.ID, env.Method, env.SessionID, env.Params)
		}
	}
}

func TestWithoutAndWithSession(t *testing.T) {
	cases := []struct{ in, want string }{
		{`{"id":1,"method":"M","sessionId":"S"}`, `{"id":1,"method":"M"}`},
		{`{"sessionId":"S","id":1,"method":"M"}`, `{"id":1,"method":"M"}`},
		{`{"id":1,"sessionId":"S","method":"M","params":{}}`, `{"id":1,"method":"M","params":{}}`},
		{`{ "sessionId" : "S" , "id":1}`, `{  "id":1}`},
		{`{"sessionId":"S"}`, `{}`},
		{`{"id":1,"method":"M"}`, `{"id":1,"method":"M"}`},
	}
	for _, c := range cases {
		env, err := cdp.ScanEnvelope([]byte(c.in))
		if err != nil {
			t.Fatalf("%s: %v", c.in, err)
		}
		if got := string(withoutSession([]byte(c.in), &env)); got != c.want {
			t.Errorf("withoutSession(%s) = %s, want %s", c.in, got, c.want)
		}
	}
	for _, c := range []struct{ in, want string }{
		{`{"id":1,"result":{}}`, `{"id":1,"result":{},"sessionId":"AB"}`},
		{`{"method":"E","params":{}} `, `{"method":"E","params":{},"sessionId":"AB"}`},
		{`{}`, `{"sessionId":"AB"}`},
		{`{ }`, `{ "sessionId":"AB"}`},
	} {
		if got := string(withSession([]byte(c.in), "AB")); got != c.want {
			t.Errorf("withSession(%s) = %s, want %s", c.in, got, c.want)
		}
	}
}

func TestDroppable(t *testing.T) {
	for m, want := range map[string]bool{
		"Network.requestWillBeSent": true, "Network.dataReceived": true, "Log.entryAdded": true,
		"Runtime.consoleAPICalled": true, "Runtime.executionContextCreated": false,
		"Target.attachedToTarget": false, "Page.lifecycleEvent": false, "Fetch.requestPaused": false,
		"Network": false, "": false,
	} {
		if droppable(m) != want {
			t.Errorf("droppable(%q) = %v", m, !want)
		}
	}
}

// FuzzScanEnvelope checks the envelope scanner against encoding/json: it
// must never panic, must accept what is a valid CDP command, agree with
// encoding/json on id, method and sessionId, and cut sessionId out so that
// the rest is still valid JSON with the same members.
func FuzzScanEnvelope(f *testing.F) {
	for _, s := range []string{
		`{"id":1,"method":"Runtime.enable"}`,
		`{"id":2,"method":"Runtime.evaluate","params":{"expression":"\"}{\\"},"sessionId":"ABC"}`,
		`{"sessionId":"S","id":3,"method":"A.b","params":[1,{"x":[]}]}`,
		`{"method":"E","params":{"a":null,"b":true,"c":-1.5e3}}`,
		`{"id":4,"method":"\u0041.b","sessionId":"\u00e9"}`,
		` {"id" :5 ,"method": "M" , "sessionId" : "" } `,
		`{"id":1,"method":"M","params":{"a":"\ud83d\ude00"}}`,
		`{"id":99999999999999999999,"method":"M"}`,
		`{"id":1,"method":"M","params":{]}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		env, err := cdp.ScanEnvelope(b)
		var ref map[string]json.RawMessage
		refErr := json.Unmarshal(b, &ref)
		if err != nil {
			// Anything encoding/json takes as a well-formed command must
			// scan (duplicate keys aside, which encoding/json allows).
			if refErr == nil && ref != nil && wellFormedCommand(ref) && !hasDuplicateKeys(b) {
				t.Fatalf("cdp.ScanEnvelope(%q) = %v, encoding/json takes it", b, err)
			}
			return
		}
		if refErr != nil || ref == nil {
			return // the scanner is looser inside values; Chromium checks those
		}
		var want struct {
			ID        *int64  `json:"id"`
			Method    *string `json:"method"`
			SessionID *string `json:"sessionId"`
		}
		if json.Unmarshal(b, &want) != nil || !exactKeys(ref) {
			return
		}
		if want.ID != nil && (!env.HasID || env.ID != *want.ID) {
			t.Fatalf("%q: id %d, want %d", b, env.ID, *want.ID)
		}
		if want.Method != nil && env.Method != *want.Method {
			t.Fatalf("%q: method %q, want %q", b, env.Method, *want.Method)
		}
		if want.SessionID != nil && env.SessionID != *want.SessionID {
			t.Fatalf("%q: sessionId %q, want %q", b, env.SessionID, *want.SessionID)
		}
		out := withoutSession(b, &env)
		var got map[string]json.RawMessage
		if err := json.Unmarshal(out, &got); err != nil {
			t.Fatalf("withoutSession(%q) = %q: %v", b, out, err)
		}
		delete(ref, "sessionId")
		if len(got) != len(ref) {
			t.Fatalf("withoutSession(%q) = %q: members %v, want %v", b, out, got, ref)
		}
		for k, v := range ref {
			if !bytes.Equal(bytes.TrimSpace(got[k]), bytes.TrimSpace(v)) {
				t.Fatalf("withoutSession(%q) changed %s", b, k)
			}
		}
		if !env.HasSessionID {
			tagged := withSession(b, "S")
			var m map[string]json.RawMessage
			if err := json.Unmarshal(tagged, &m); err != nil || string(m["sessionId"]) != `"S"` {
				t.Fatalf("withSession(%q) = %q", b, tagged)
			}
		}
	})
}

// wellFormedCommand reports whether the members CDP routes on have the
// types cdp.ScanEnvelope requires.
func wellFormedCommand(m map[string]json.RawMessage) bool {
	if !exactKeys(m) {
		return false
	}
	if v, ok := m["id"]; ok {
		var n int64
		if json.Unmarshal(v, &n) != nil || bytes.ContainsAny(v, ".eE") {
			return false
		}
	}
	if v, ok := m["method"]; ok {
		var s string
		if json.Unmarshal(v, &s) != nil || s == "" {
			return false
		}
	}
	if v, ok := m["sessionId"]; ok {
		var s string
		if json.Unmarshal(v, &s) != nil {
			return false
		}
	}
	return true
}

// exactKeys rules out keys encoding/json would fold onto id, method or
// sessionId (it matches names without regard to case).
func exactKeys(m map[string]json.RawMessage) bool {
	for k := range m {
		switch strings.ToLower(k) {
		case "id", "method", "sessionid", "params":
			if k != "id" && k != "method" && k != "sessionId" && k != "params" {
				return false
			}
		}
	}
	return true
}

func hasDuplicateKeys(b []byte) bool {
	d := json.NewDecoder(bytes.NewReader(b))
	if t, err := d.Token(); err != nil || t != json.Delim('{') {
		return false
	}
	seen := map[string]bool{}
	for d.More() {
		t, err := d.Token()
		if err != nil {
			return false
		}
		k, _ := t.(string)
		if seen[k] {
			return true
		}
		seen[k] = true
		var skip json.RawMessage
		if d.Decode(&skip) != nil {
			return false
		}
	}
	return false
}

func BenchmarkScanEnvelope(b *testing.B) {
	small := []byte(`{"id":123,"method":"Runtime.callFunctionOn","params":{"functionDeclaration":"(u, ...a) => u.evaluate(...a)","objectId":"1.2.3","arguments":[{"objectId":"1.2.3"},{"value":true}],"returnByValue":true,"awaitPromise":true,"userGesture":true},"sessionId":"6BE6FD2587C2A6762D7AC731F2BA3E16"}`)
	big := []byte(`{"id":7,"result":{"data":"` + strings.Repeat("iVBORw0KGgo", 100000) + `"},"sessionId":"6BE6FD2587C2A6762D7AC731F2BA3E16"}`)
	for _, c := range []struct {
		name string
		b    []byte
	}{{"command", small}, {"1MBreply", big}} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(c.b)))
			for b.Loop() {
				if _, err := cdp.ScanEnvelope(c.b); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
