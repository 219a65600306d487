package network

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/understudy-dev/understudy/internal/errs"
	"github.com/understudy-dev/understudy/internal/secret"
)

func TestRedactBodies(t *testing.T) {
	r := NewRedactor([]string{"X-Api-Key"}, []string{"mySecretField"})
	for _, c := range []struct{ body, ct, want string }{
		{`{"user":"bob","password":"hunter2","nested":{"api_key":"k","list":[{"accessToken":"t"}]}}`, "application/json",
			`{"nested":{"api_key":"[redacted]","list":[{"accessToken":"[redacted]"}]},"password":"[redacted]","user":"bob"}`},
		{`{"pin": 1234, "spin": 5, "my-secret-field": "x"}`, "application/json; charset=utf-8", `{"my-secret-field":"[redacted]","pin":"[redacted]","spin":5}`},
		{`user=bob&password=hunter2&client_secret=s`, "application/x-www-form-urlencoded", `user=bob&password=%5Bredacted%5D&client_secret=%5Bredacted%5D`},
		{`{"user":"bob","token":"abc","rest":"cut sho`, "application/json", `{"user":"bob","token":"[redacted]","rest":"cut sho`},
		{`{"token": 123, "ok": true}`, "", `{"ok":true,"token":"[redacted]"}`},
		{`plain password=hunter2`, "text/plain", `plain password=hunter2`},
	} {
		if got := r.Body(c.body, c.ct); got != c.want {
			t.Errorf("Body(%s):\n got %s\nwant %s", c.body, got, c.want)
		}
	}
	h := r.read(map[string]string{"authorization": "Bearer x", "Cookie": "a=b", "set-cookie": "c", "Proxy-Authorization": "p", "x-api-key": "k", "Accept": "*/*"})
	for k, v := range h {
		if (k == "Accept") == (v.String() == Redacted) || (k == "Accept") == v.IsSecret() {
			t.Errorf("header %s: %s", k, v)
		}
	}
	if b := r.body(`{"password":"p"}`, "base64", "application/json"); b.IsSecret() {
		t.Error("a base64 body is not read for fields")
	}
}

func TestMatchers(t *testing.T) {
	m, err := Compile(Match{Globs: []string{"http://*.test:*/api/*"}, Methods: []string{"post"}}, "")
	if err != nil {
		t.Fatal(err)
	}
	if !m.Request("http://a.test:80/api/x?y=1", "POST", "Fetch", "") || m.Request("http://a.test:80/api/x", "GET", "Fetch", "") || m.Request("https://a.test/api/x", "POST", "Fetch", "") {
		t.Fatal("glob + method")
	}
	m, _ = Compile(Match{URLs: []string{"/echo"}, Regex: `\.png$`, Types: []string{"Image", "fetch"}}, "")
	if !m.Request("http://x/echo", "GET", "Fetch", "") || !m.Request("http://x/a.png", "GET", "Image", "") || m.Request("http://x/a.png", "GET", "Script", "") {
		t.Fatal("urls or regex, types")
	}
	if all, _ := Compile(Match{}, ""); !all.Request("anything", "GET", "", "") {
		t.Fatal("empty match")
	}
	for _, c := range []struct {
		m     Match
		field string
	}{{Match{Regex: "("}, "regex"}, {Match{Globs: []string{""}}, "globs"}, {Match{URLs: []string{""}}, "urls"}, {Match{Types: []string{"nope"}}, "resourceTypes"}} {
		_, err := Compile(c.m, "")
		var e *errs.Error
		if !errorsAs(err, &e) || e.Code != errs.BadArgument || !strings.Contains(e.Message+e.Error(), c.field) {
			t.Errorf("%+v: %v", c.m, err)
		}
	}
}

func errorsAs(err error, e **errs.Error) bool {
	x, ok := err.(*errs.Error)
	*e = x
	return ok
}

func TestParseHARPaths(t *testing.T) {
	for _, c := range []struct{ doc, path string }{
		{`[]`, "$"},
		{`{"log":{"version":"1.1","entries":[]}}`, "$.log.version"},
		{`{"log":{"version":"1.2"}}`, "$.log.entries"},
		{`{"log":{"version":"1.2","entries":[{"request":{"method":"GET","url":"/rel"}}]}}`, "$.log.entries[0].request.url"},
		{`{"log":{"version":"1.2","entries":[{"request":{"method":"GET","url":"http://a/"},"response":{"status":"200"}}]}}`, "$.log.entries[0].response.status"},
		{`{"log":{"version":"1.2","entries":[{"request":{"method":"GET","url":"http://a/"},"response":{"status":200,"headers":[],"content":{"text":"@@","encoding":"base64"}}}]}}`, "$.log.entries[0].response.content.text"},
	} {
		_, err := ParseHAR([]byte(c.doc))
		e, ok := err.(*errs.Error)
		if !ok || e.Code != errs.HARInvalid || e.Details["path"] != c.path {
			t.Errorf("%s: want path %s, got %v", c.doc, c.path, err)
		}
	}
	a, err := ParseHAR([]byte(`{"log":{"version":"1.2","entries":[
	 {"request":{"method":"POST","url":"http://a/x#f","postData":{"text":"one"}},"response":{"status":200,"headers":[{"name":"Content-Encoding","value":"gzip"},{"name":"X","value":"1"}],"content":{"mimeType":"text/plain","text":"first"}}},
	 {"request":{"method":"POST","url":"http://a/x","postData":{"text":"two"}},"response":{"status":201,"headers":[],"content":{"text":"c2Vjb25k","encoding":"base64"}}}]}}`))
	if err != nil {
		t.Fatal(err)
	}
	if e := a.Lookup("post", "http://a/x", "two"); e == nil || string(e.Body) != "second" || e.Status != 201 {
		t.Fatalf("lookup by body: %+v", e)
	}
	if e := a.Lookup("POST", "http://a/x#other", "zzz"); e == nil || string(e.Body) != "first" || e.Headers["Content-Encoding"] != "" || e.Headers["Content-Type"] != "text/plain" {
		t.Fatalf("lookup fallback: %+v", e)
	}
	if a.Lookup("GET", "http://a/x", "") != nil {
		t.Fatal("method matters")
	}
}

func TestHARExportRedactsAndSplitsRedirects(t *testing.T) {
	red := NewRedactor(nil, nil)
	d, ttfb := 12.5, 4.0
	recs := []Record{{Method: "POST", URL: "http://a/final", Status: 200, MimeType: "application/json", DurationMs: &d, TTFBMs: &ttfb,
		RequestHeaders: red.read(map[string]string{"Authorization": "Bearer s", "Content-Type": "application/json"}), RequestBody: red.body(`{"password":"p"}`, "", "application/json"),
		ResponseHeaders: red.read(map[string]string{"Content-Length": "9", "Set-Cookie": "sid=1\nsid2=2"}), ResponseBody: red.body(`{"ok":1}`, "", "application/json"),
		Redirects: []Redirect{{URL: "http://a/start", Status: 302}}}}
	b, count, err := HAR(recs, "test")
	if err != nil || count != 2 {
		t.Fatalf("%d %v", count, err)
	}
	s := string(b)
	if strings.Contains(s, "Bearer s") || strings.Contains(s, `"p"`) || strings.Contains(s, "sid=1") || strings.Contains(s, "Content-Length") {
		t.Fatalf("not redacted: %s", s)
	}
	var doc harLog
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Log.Entries[0].Response.RedirectURL != "http://a/final" || doc.Log.Entries[1].Response.Content.Text.Reveal() != `{"ok":1}` {
		t.Fatalf("entries: %+v", doc.Log.Entries)
	}
	if n := strings.Count(s, `"value": "[redacted]"`); n != 4 { // Authorization in both hops, two Set-Cookie lines
		t.Fatalf("%d redacted header values: %s", n, s)
	}
	// Shown records (a call allowed to reveal) write the values.
	b, _, _ = HAR([]Record{recs[0].Shown()}, "test")
	if s := string(b); !strings.Contains(s, "Bearer s") || !strings.Contains(s, `\"p\"`) || !strings.Contains(s, "sid2=2") || strings.Contains(s, "[redacted]") {
		t.Fatalf("shown: %s", s)
	}
	if _, err := ParseHAR(b); err != nil {
		t.Fatalf("our HAR does not parse back: %v", err)
	}
}

func TestCapBody(t *testing.T) {
	text, enc, cut := capBody([]byte("héllo wörld"), 2, "text/plain")
	if text != "h" || enc != "" || !cut {
		t.Fatalf("rune boundary: %q %q %v", text, enc, cut)
	}
	text, enc, _ = capBody([]byte{0xff, 0x00, 0x01}, 10, "image/png")
	if enc != "base64" || text != "/wAB" {
		t.Fatalf("binary: %q %q", text, enc)
	}
}

func TestRingBudget(t *testing.T) {
	n := &Network{red: NewRedactor(nil, nil), opts: CaptureOptions{BodyBudget: 100}, seq: func() int64 { return 0 }}
	var s int64
	n.seq = func() int64 { s++; return s }
	for i := 0; i < DefaultMaxRecords+10; i++ {
		n.addLocked(&Record{URL: "u", ResponseBody: secret.Plain(strings.Repeat("x", 40))})
	}
	if len(n.ring) != DefaultMaxRecords || n.overflowed != 10 || n.bodyBytes > 100 || n.bodiesDrop == 0 {
		t.Fatalf("ring %d overflowed %d bytes %d dropped %d", len(n.ring), n.overflowed, n.bodyBytes, n.bodiesDrop)
	}
	p := n.Read(ReadOptions{Since: s - 3, Limit: 2})
	if len(p.Records) != 2 || p.NextSince != s || p.Records[1].ResponseBody.IsZero() || p.Total != 3 {
		t.Fatalf("read: %+v", p)
	}
}

// TestLateExtraInfoMerged: Chromium's network service may send the
// extra-info events (the only ones with Cookie and Set-Cookie) after
// loadingFinished; their headers still reach the record, typed as
// secrets, in the ring (a copy of the map, so a record read before keeps
// its own) and while its bodies are read. What is remembered stays
// bounded.
func TestLateExtraInfoMerged(t *testing.T) {
	n := &Network{red: NewRedactor(nil, nil), pending: map[pkey]*Record{}, ended: map[pkey]*endedRef{}, early: map[pkey]*earlyInfo{}, opts: CaptureOptions{BodyBudget: DefaultBodyBudget}}
	n.seq = func() int64 { return n.own.Add(1) }
	ev := func(method, id string, params string) {
		n.onNetwork("T", method, []byte(`{"requestId":"`+id+`",`+params+`}`))
	}
	ev("Network.requestWillBeSent", "1", `"request":{"url":"http://a.test/x","method":"GET","headers":{"Accept":"*/*"}},"timestamp":1,"type":"Fetch"`)
	ev("Network.loadingFinished", "1", `"timestamp":2`)
	before := n.Read(ReadOptions{Limit: 10}).Records
	ev("Network.requestWillBeSentExtraInfo", "1", `"headers":{"Cookie":"sid=late-secret"}`)
	ev("Network.responseReceivedExtraInfo", "1", `"headers":{"Set-Cookie":"a=late-set"}`)
	after := n.Read(ReadOptions{Limit: 10}).Records
	if len(after) != 1 || after[0].RequestHeaders.Get("cookie") != "sid=late-secret" || after[0].ResponseHeaders.Get("set-cookie") != "a=late-set" {
		t.Fatalf("late extra-info not merged: %+v", after)
	}
	b, _ := json.Marshal(after[0])
	if strings.Contains(string(b), "late-secret") || strings.Contains(string(b), "late-set") || !strings.Contains(string(b), `"Cookie":"[redacted]"`) {
		t.Fatalf("late headers are not secrets: %s", b)
	}
	if before[0].RequestHeaders.Get("cookie") != "" {
		t.Fatal("a record read before the merge changed under its reader")
	}
	// Extra-info before its request (the network service overtook the renderer).
	ev("Network.requestWillBeSentExtraInfo", "2", `"headers":{"Cookie":"sid=early-secret"}`)
	ev("Network.requestWillBeSent", "2", `"request":{"url":"http://a.test/z","method":"GET","headers":{"Accept":"*/*"}},"timestamp":1,"type":"Fetch"`)
	ev("Network.loadingFinished", "2", `"timestamp":2`)
	if got := n.Read(ReadOptions{Since: after[0].Seq}).Records; len(got) != 1 || got[0].RequestHeaders.Get("cookie") != "sid=early-secret" || !got[0].RequestHeaders["Cookie"].IsSecret() {
		t.Fatalf("early extra-info not merged: %+v", got)
	}
	for i := range 3 * maxEnded {
		id := strconv.Itoa(100 + i)
		ev("Network.responseReceivedExtraInfo", "early-"+id, `"headers":{"X":"1"}`) // never followed by its request
		ev("Network.requestWillBeSent", id, `"request":{"url":"http://a.test/y","method":"GET","headers":{}},"timestamp":1`)
		ev("Network.loadingFinished", id, `"timestamp":2`)
	}
	if st := n.Stats(); st.Ended > 3*maxEnded || len(n.endedKeys) > 2*maxEnded || len(n.earlyKeys) > maxEnded {
		t.Fatalf("ended requests not bounded: %+v, %d keys", st, len(n.endedKeys))
	}
}
