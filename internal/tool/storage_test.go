package tool

import (
	"context"
	"encoding/json"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// originOf is the origin of a surface's document.
func originOf(t *testing.T, s map[string]any) string {
	t.Helper()
	u, err := url.Parse(s["url"].(string))
	if err != nil {
		t.Fatal(err)
	}
	return u.Scheme + "://" + u.Host
}

// TestStorageCookies: cookies set through the protocol are what the page
// sees in document.cookie; reads redact values; reveal needs --allow-secrets;
// a filtered clear deletes only what matches.
func TestStorageCookies(t *testing.T) {
	e, s := surfaceEnv(t)
	e.use(s["top"])
	top := originOf(t, s["top"])
	e.ok("storage_set_cookie", map[string]any{"name": "sid", "value": "s3cret", "url": top + "/"})
	e.ok("storage_set_cookie", map[string]any{"name": "theme", "value": "dark", "url": top + "/", "sameSite": "Strict"})
	if got := e.eval("document.cookie"); !strings.Contains(got.(string), "sid=s3cret") || !strings.Contains(got.(string), "theme=dark") {
		t.Fatalf("document.cookie = %v", got)
	}
	r := e.ok("storage_cookies", map[string]any{"name": "sid"})
	cs := r["cookies"].([]any)
	if num(r["count"]) != 1 || cs[0].(map[string]any)["value"] != "[redacted]" || r["redacted"] != true {
		t.Fatalf("storage_cookies: %v", r)
	}
	if r := e.ok("storage_cookies", map[string]any{"url": top + "/"}); num(r["count"]) != 2 {
		t.Fatalf("cookies for the URL: %v", r)
	}
	if r := e.ok("storage_cookies", map[string]any{"url": "http://elsewhere.test/"}); num(r["count"]) != 0 {
		t.Fatalf("cookies for another host: %v", r)
	}
	e.fails("storage_cookies", map[string]any{"reveal": true}, "SECRETS_NOT_ALLOWED")
	e.fails("storage_set_cookie", map[string]any{"name": "x", "value": "1", "url": top, "sameSite": "Sometimes"}, "BAD_ARGUMENT")
	m := e.fails("storage_set_cookie", map[string]any{"name": "x", "value": "1"}, "BAD_ARGUMENT")
	if d, _ := m["details"].(map[string]any); d["field"] != "url" {
		t.Fatalf("no url or domain: %v", m)
	}
	e.fails("storage_set_cookie", map[string]any{"name": "x", "value": "1", "url": top, "sameSite": "None"}, "BAD_ARGUMENT")
	r = e.ok("storage_clear_cookies", map[string]any{"name": "sid"})
	if num(r["cleared"]) != 1 {
		t.Fatalf("clear: %v", r)
	}
	if got := e.eval("document.cookie").(string); strings.Contains(got, "sid=") || !strings.Contains(got, "theme=dark") {
		t.Fatalf("after the clear, document.cookie = %q", got)
	}
}

// TestStorageCookiesReveal: with --allow-secrets, reveal shows the value.
func TestStorageCookiesReveal(t *testing.T) {
	e := newEnv(t, Config{AllowSecrets: true})
	e.launch("/second.html")
	u := e.app.URL("a.test", "/")
	exp := time.Now().Add(30 * 24 * time.Hour).Unix()
	e.ok("storage_set_cookie", map[string]any{"name": "tok", "value": "abc", "domain": strings.Split(strings.TrimPrefix(u, "http://"), ":")[0], "path": "/", "expires": exp, "httpOnly": true})
	r := e.ok("storage_cookies", map[string]any{"name": "tok", "reveal": true})
	c := r["cookies"].([]any)[0].(map[string]any)
	if c["value"] != "abc" || c["httpOnly"] != true || int64(c["expires"].(float64)) != exp || r["redacted"] != false {
		t.Fatalf("revealed: %v", r)
	}
}

// TestStorageWebStorageEverySurface: localStorage and sessionStorage of the
// top page, of an origin open only in a nested cross-site OOPIF, and of the
// webview guest, read and written through the protocol and checked with the
// page's own Storage API in that document.
func TestStorageWebStorageEverySurface(t *testing.T) {
	e, s := surfaceEnv(t)
	cross2 := originOf(t, s["cross2"])
	for _, name := range []string{"top", "cross2", "guest"} {
		e.use(s[name])
		key := "k-" + name
		// Default origin: the active surface's.
		r := e.ok("storage_local_set", map[string]any{"key": key, "value": "v-" + name})
		if r["origin"] != originOf(t, s[name]) {
			t.Fatalf("%s: set went to %v", name, r)
		}
		if got := e.eval("localStorage.getItem(" + jsString(key) + ")"); got != "v-"+name {
			t.Fatalf("%s: the page reads %v", name, got)
		}
		e.eval("sessionStorage.setItem('s-" + name + "', 'page')")
		r = e.ok("storage_session_get", map[string]any{"key": "s-" + name})
		if r["value"] != "page" || r["found"] != true {
			t.Fatalf("%s: session get: %v", name, r)
		}
		r = e.ok("storage_local_get", map[string]any{"keys": []string{key, "missing"}})
		items := r["items"].(map[string]any)
		if items[key] != "v-"+name || items["missing"] != nil {
			t.Fatalf("%s: keys: %v", name, r)
		}
	}
	// By origin while another surface is active: the OOPIF-only origin.
	e.use(s["top"])
	e.ok("storage_local_set", map[string]any{"origin": cross2, "key": "far", "value": "1"})
	r := e.ok("storage_local_keys", map[string]any{"origin": cross2})
	if num(r["count"]) != 2 {
		t.Fatalf("keys of %s: %v", cross2, r)
	}
	e.ok("storage_local_remove", map[string]any{"origin": cross2, "key": "far"})
	e.use(s["cross2"])
	if got := e.eval("localStorage.getItem('far')"); got != nil {
		t.Fatalf("removed key still reads %v", got)
	}
	snap := e.ok("storage_snapshot", map[string]any{"sessionStorage": true})
	seen := map[string]bool{}
	for _, o := range snap["origins"].([]any) {
		m := o.(map[string]any)
		seen[m["origin"].(string)] = true
		if m["origin"] == cross2 {
			if b, _ := json.Marshal(m["localStorage"]); !strings.Contains(string(b), `"k-cross2"`) {
				t.Fatalf("snapshot of %s: %s", cross2, b)
			}
		}
	}
	for _, n := range []string{"top", "cross1", "cross2"} {
		if !seen[originOf(t, s[n])] {
			t.Fatalf("snapshot lacks %s: %v", n, snap)
		}
	}
	m := e.fails("storage_local_get", map[string]any{"origin": "http://nowhere.test:1", "key": "a"}, "ORIGIN_NOT_OPEN")
	if d := m["details"].(map[string]any); d["field"] != "origin" {
		t.Fatalf("details: %v", m)
	}
	e.fails("storage_local_get", map[string]any{"origin": "file:///x", "key": "a"}, "BAD_ARGUMENT")
	e.ok("storage_local_clear", map[string]any{"origin": cross2})
	if got := e.eval("localStorage.length"); num(got) != 0 {
		t.Fatalf("after clear: %v", got)
	}
}

// TestStorageStateRoundTrip: export writes Playwright's shape; an import
// checks the whole file first (the JSON path of the first problem, nothing
// written), then seeds cookies and localStorage.
func TestStorageStateRoundTrip(t *testing.T) {
	e, s := surfaceEnvWith(t, Config{AllowEvalRenderer: true, AllowSecrets: true})
	top, cross1 := originOf(t, s["top"]), originOf(t, s["cross1"])
	e.use(s["top"])
	e.ok("storage_set_cookie", map[string]any{"name": "sid", "value": "one", "url": top + "/"})
	e.ok("storage_local_set", map[string]any{"key": "flag", "value": "on"})
	e.ok("storage_local_set", map[string]any{"origin": cross1, "key": "x", "value": "y"})
	dir := t.TempDir()
	path := filepath.Join(dir, "state.json")
	r := e.ok("storage_state_export", map[string]any{"path": path, "reveal": true})
	if num(r["cookie_count"]) != 1 || len(r["origin_names"].([]any)) < 2 || r["redacted"] == true {
		t.Fatalf("export: %v", r)
	}
	var st struct {
		Cookies []map[string]any `json:"cookies"`
		Origins []struct {
			Origin       string              `json:"origin"`
			LocalStorage []map[string]string `json:"localStorage"`
		} `json:"origins"`
	}
	data, _ := os.ReadFile(path)
	if err := json.Unmarshal(data, &st); err != nil || len(st.Cookies) != 1 || st.Cookies[0]["value"] != "one" || st.Cookies[0]["sameSite"] != "Lax" || st.Cookies[0]["expires"] != -1.0 {
		t.Fatalf("file: %v %s", err, data)
	}
	// Change the app, then import the file back.
	e.ok("storage_clear_cookies", nil)
	e.ok("storage_local_clear", nil)
	// A bad file: the JSON path of the first problem, and nothing written.
	bad := filepath.Join(dir, "bad.json")
	os.WriteFile(bad, []byte(`{"cookies":[{"name":"a","value":"b","domain":"a.test","path":"/","expires":-1,"httpOnly":false,"secure":false,"sameSite":"Lax"},{"name":"c","value":"d","domain":"a.test","path":"/","sameSite":"Sideways"}],"origins":[]}`), 0o600)
	m := e.fails("storage_state_import", map[string]any{"path": bad}, "STORAGE_STATE_INVALID")
	if d := m["details"].(map[string]any); d["path"] != "$.cookies[1].sameSite" {
		t.Fatalf("path of the problem: %v", m)
	}
	if r := e.ok("storage_cookies", nil); num(r["count"]) != 0 {
		t.Fatalf("a refused import wrote cookies: %v", r)
	}
	os.WriteFile(bad, []byte(`{"cookies":[],"origins":[{"origin":"`+top+`","localStorage":[{"name":"a","value":"b"}]},{"origin":"http://closed.test:9","localStorage":[]}]}`), 0o600)
	e.fails("storage_state_import", map[string]any{"path": bad}, "ORIGIN_NOT_OPEN")
	if got := e.eval("localStorage.getItem('a')"); got != nil {
		t.Fatalf("a refused import wrote localStorage: %v", got)
	}
	os.WriteFile(bad, []byte(`{"cookies":[],"origins":[{"origin":"`+top+`","localStorage":[{"name":"a"}]}]}`), 0o600)
	m = e.fails("storage_state_import", map[string]any{"path": bad}, "STORAGE_STATE_INVALID")
	if d := m["details"].(map[string]any); d["path"] != "$.origins[0].localStorage[0].value" {
		t.Fatalf("path of the problem: %v", m)
	}
	r = e.ok("storage_state_import", map[string]any{"path": path})
	if num(r["cookie_count"]) != 1 {
		t.Fatalf("import: %v", r)
	}
	if got := e.eval("document.cookie + '|' + localStorage.getItem('flag')"); got != "sid=one|on" {
		t.Fatalf("after the import the page reads %v", got)
	}
	e.fails("storage_state_import", map[string]any{"path": "/etc/passwd"}, "PATH_NOT_ALLOWED")
}

// TestStorageStatePlaywright: the agent's exported file loads into
// Playwright's browser.newContext({storageState}) through the relay, and a
// state Playwright's context.storageState() saved imports into the agent's
// app.
func TestStorageStatePlaywright(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: runs node against a real browser")
	}
	node, compat := playwrightNode(t)
	e := newEnv(t, Config{AllowEvalRenderer: true, AllowSecrets: true})
	e.launch("/index.html")
	top := e.app.URL("a.test", "/index.html")
	e.ok("storage_set_cookie", map[string]any{"name": "sid", "value": "agent", "url": top})
	e.ok("storage_local_set", map[string]any{"key": "flag", "value": "from-agent"})
	// IndexedDB: a record with a Date (Playwright's valueEncoded) made by
	// the page, one written by the agent.
	e.eval(`new Promise((res, rej) => { const r = indexedDB.open('agentdb', 1);
	  r.onupgradeneeded = () => r.result.createObjectStore('kv');
	  r.onsuccess = () => { const tx = r.result.transaction('kv', 'readwrite'); tx.objectStore('kv').put({when: new Date(86400000)}, 'a');
	    tx.oncomplete = () => { r.result.close(); res(true); }; }; r.onerror = () => rej(r.error); })`)
	if r := e.ok("storage_idb_set", map[string]any{"database": "agentdb", "store": "kv", "key": "b", "value": "from-agent"}); r["record_key"] != "b" || r["stored"] != true {
		t.Fatalf("idb_set: %v", r)
	}
	dir := t.TempDir()
	in, out := filepath.Join(dir, "agent.json"), filepath.Join(dir, "playwright.json")
	if r := e.ok("storage_state_export", map[string]any{"path": in, "indexedDB": true, "reveal": true}); num(r["database_count"]) != 1 {
		t.Fatalf("export with indexedDB: %v", r)
	}
	ws := e.ok("electron_relay_endpoint", nil)["ws_url"].(string)

	ctx, cancel := context.WithTimeout(t.Context(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, "storagestate.mjs")
	cmd.Dir = compat
	cmd.Env = append(os.Environ(), "RELAY_WS="+ws, "TOP_URL="+top, "STATE_IN="+in, "STATE_OUT="+out, "IDB=1")
	got, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("storagestate.mjs: %v\n%s", err, got)
	}
	var seen struct {
		Cookie, Flag string
		IDB          struct {
			B       string
			AIsDate bool
			ATime   float64
		}
	}
	lines := strings.Split(strings.TrimSpace(string(got)), "\n")
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &seen); err != nil || seen.Cookie != "sid=agent" || seen.Flag != "from-agent" ||
		seen.IDB.B != "from-agent" || !seen.IDB.AIsDate || seen.IDB.ATime != 86400000 {
		t.Fatalf("Playwright's new context with the agent's state sees %+v (%v)\n%s", seen, err, got)
	}
	// Playwright's file into the agent's app, after the app forgot both.
	e.ok("storage_clear_cookies", nil)
	e.ok("storage_local_clear", nil)
	e.eval(`new Promise(res => { const r = indexedDB.deleteDatabase('agentdb'); r.onsuccess = () => res(true); r.onblocked = () => res('blocked'); })`)
	r := e.ok("storage_state_import", map[string]any{"path": out})
	if num(r["cookie_count"]) < 2 || num(r["record_count"]) != 3 {
		t.Fatalf("import of Playwright's state: %v", r)
	}
	v := e.ok("electron_eval_renderer", map[string]any{"code": "document.cookie + '|' + localStorage.getItem('flag') + '|' + localStorage.getItem('fromPlaywright')"})
	if v["result"] != "sid=agent; pw=cookie-from-playwright|from-agent|yes" {
		pw, _ := os.ReadFile(out)
		t.Fatalf("after importing Playwright's state the page reads %v (import: %v)\n%s", v["result"], r, pw)
	}
	// Playwright's IndexedDB (a Uint8Array as valueEncoded) is back in the
	// agent's app, the Date still a Date.
	idb := e.eval(`new Promise(res => { const r = indexedDB.open('agentdb'); r.onsuccess = () => { const s = r.result.transaction('kv').objectStore('kv');
	  const a = s.get('a'), b = s.get('b'), c = s.get('c');
	  c.onsuccess = () => { r.result.close(); res([a.result.when instanceof Date && a.result.when.getTime(), b.result, c.result.by, c.result.bytes instanceof Uint8Array && c.result.bytes.join()].join('|')); }; }; })`)
	if idb != "86400000|from-agent|playwright|1,2,3" {
		pw, _ := os.ReadFile(out)
		t.Fatalf("IndexedDB after importing Playwright's state: %v\n%s", idb, pw)
	}
}

// idbStoresSeed makes database kvs with three stores: items (in-line keys
// on id), kv (out-of-line keys), log (a key generator).
const idbStoresSeed = `new Promise((res, rej) => {
  const r = indexedDB.open('kvs', 1);
  r.onupgradeneeded = () => { r.result.createObjectStore('items', {keyPath: 'id'}); r.result.createObjectStore('kv'); r.result.createObjectStore('log', {autoIncrement: true}); };
  r.onsuccess = () => { r.result.close(); res(true); };
  r.onerror = () => rej(r.error);
})`

// idbGetJS reads one record of kvs as JSON in the page.
func idbGetJS(store string, key any) string {
	k, _ := json.Marshal(key)
	return `new Promise(res => { const r = indexedDB.open('kvs'); r.onsuccess = () => { const q = r.result.transaction('` + store + `').objectStore('` + store + `').get(` + string(k) + `);
	  q.onsuccess = () => { r.result.close(); res(JSON.stringify(q.result)); }; }; })`
}

// TestStorageIndexedDBSet: storage_idb_set writes a record in the top page,
// an origin open only in a nested cross-site OOPIF and the webview guest
// (in-line keys, out-of-line keys, a key generator), checked with the
// page's own IndexedDB API; it never creates a database or store.
func TestStorageIndexedDBSet(t *testing.T) {
	e, s := surfaceEnv(t)
	for _, name := range []string{"top", "cross2", "guest"} {
		e.use(s[name])
		if got := e.eval(idbStoresSeed); got != true {
			t.Fatalf("%s: seed: %v", name, got)
		}
		origin := originOf(t, s[name])
		e.use(s["second"]) // write by origin while another window is active
		at := map[string]any{"origin": origin, "database": "kvs"}
		with := func(kv ...any) map[string]any {
			m := map[string]any{}
			for k, v := range at {
				m[k] = v
			}
			for i := 0; i < len(kv); i += 2 {
				m[kv[i].(string)] = kv[i+1]
			}
			return m
		}
		r := e.ok("storage_idb_set", with("store", "items", "value", map[string]any{"id": 7, "name": "seven"}))
		if num(r["record_key"]) != 7 || r["stored"] != true || r["origin"] != origin {
			t.Fatalf("%s: in-line: %v", name, r)
		}
		e.ok("storage_idb_set", with("store", "items", "value", map[string]any{"id": 7, "name": "SEVEN"})) // overwrite
		r = e.ok("storage_idb_set", with("store", "kv", "key", "theme", "value", map[string]any{"dark": true}))
		if r["record_key"] != "theme" {
			t.Fatalf("%s: out-of-line: %v", name, r)
		}
		r = e.ok("storage_idb_set", with("store", "log", "value", "first-"+name))
		logKey := num(r["record_key"]) // the guest shares the top page's origin here
		if logKey < 1 {
			t.Fatalf("%s: generated key: %v", name, r)
		}
		m := e.fails("storage_idb_set", with("store", "items", "key", 1, "value", map[string]any{"id": 1}), "BAD_ARGUMENT")
		if m["details"].(map[string]any)["field"] != "key" {
			t.Fatalf("%s: key for an in-line store: %v", name, m)
		}
		m = e.fails("storage_idb_set", with("store", "kv", "value", 1), "BAD_ARGUMENT")
		if m["details"].(map[string]any)["field"] != "key" {
			t.Fatalf("%s: no key for an out-of-line store: %v", name, m)
		}
		m = e.fails("storage_idb_set", with("store", "nope", "value", 1), "BAD_ARGUMENT")
		if m["details"].(map[string]any)["field"] != "store" {
			t.Fatalf("%s: unknown store: %v", name, m)
		}
		m = e.fails("storage_idb_set", map[string]any{"origin": origin, "database": "nodb", "store": "kv", "key": 1, "value": 1}, "BAD_ARGUMENT")
		if m["details"].(map[string]any)["field"] != "database" {
			t.Fatalf("%s: unknown database: %v", name, m)
		}
		e.use(s[name])
		if got := e.eval(idbGetJS("items", 7)); got != `{"id":7,"name":"SEVEN"}` {
			t.Fatalf("%s: the page reads items/7 = %v", name, got)
		}
		if got := e.eval(idbGetJS("kv", "theme")); got != `{"dark":true}` {
			t.Fatalf("%s: the page reads kv/theme = %v", name, got)
		}
		if got := e.eval(idbGetJS("log", logKey)); got != `"first-`+name+`"` {
			t.Fatalf("%s: the page reads log/1 = %v", name, got)
		}
		if got := e.eval(`indexedDB.databases().then(d => d.map(x => x.name).sort().join())`); strings.Contains(got.(string), "nodb") {
			t.Fatalf("%s: a refused set created a database: %v", name, got)
		}
	}
}

// TestStorageStateIndexedDB: export with indexedDB writes Playwright's shape
// (valueEncoded for a Date and bytes, key for out-of-line keys); a file
// with a problem in its IndexedDB is refused with the JSON path before
// anything is written; a good one recreates a deleted database.
func TestStorageStateIndexedDB(t *testing.T) {
	e, s := surfaceEnv(t)
	e.use(s["top"])
	top := originOf(t, s["top"])
	e.eval(idbStoresSeed)
	e.ok("storage_idb_set", map[string]any{"database": "kvs", "store": "kv", "key": "plain", "value": map[string]any{"n": 1}})
	e.eval(`new Promise(res => { const r = indexedDB.open('kvs'); r.onsuccess = () => { const tx = r.result.transaction(['kv', 'items'], 'readwrite');
	  tx.objectStore('kv').put({when: new Date(5000), bytes: new Uint8Array([9, 8])}, 'rich');
	  tx.objectStore('items').put({id: 1, tags: ['a']});
	  tx.oncomplete = () => { r.result.close(); res(true); }; }; })`)
	dir := t.TempDir()
	path := filepath.Join(dir, "state.json")
	r := e.ok("storage_state_export", map[string]any{"path": path, "indexedDB": true})
	if num(r["database_count"]) < 1 {
		t.Fatalf("export: %v", r)
	}
	data, _ := os.ReadFile(path)
	var st struct {
		Origins []struct {
			Origin    string `json:"origin"`
			IndexedDB []struct {
				Name    string  `json:"name"`
				Version float64 `json:"version"`
				Stores  []struct {
					Name    string           `json:"name"`
					KeyPath *string          `json:"keyPath"`
					Records []map[string]any `json:"records"`
				} `json:"stores"`
			} `json:"indexedDB"`
		} `json:"origins"`
	}
	if err := json.Unmarshal(data, &st); err != nil {
		t.Fatal(err)
	}
	var kv []map[string]any
	for _, o := range st.Origins {
		if o.Origin != top {
			continue
		}
		for _, d := range o.IndexedDB {
			for _, s := range d.Stores {
				if d.Name == "kvs" && s.Name == "kv" {
					kv = s.Records
				}
			}
		}
	}
	b, _ := json.Marshal(kv)
	if len(kv) != 2 || kv[0]["key"] != "plain" || kv[1]["key"] != "rich" || kv[1]["valueEncoded"] == nil ||
		!strings.Contains(string(b), `{"d":"1970-01-01T00:00:05.000Z"}`) || !strings.Contains(string(b), `"ta":{"b":"CQg=","k":"ui8"}`) {
		t.Fatalf("kvs.kv in the file: %s", b)
	}
	// Bad files: the path of the first problem, nothing written.
	bad := filepath.Join(dir, "bad.json")
	write := func(idb string) {
		os.WriteFile(bad, []byte(`{"cookies":[],"origins":[{"origin":"`+top+`","localStorage":[{"name":"touched","value":"1"}],"indexedDB":`+idb+`}]}`), 0o600)
	}
	write(`[{"name":"kvs","version":0,"stores":[]}]`)
	m := e.fails("storage_state_import", map[string]any{"path": bad}, "STORAGE_STATE_INVALID")
	if d := m["details"].(map[string]any); d["path"] != "$.origins[0].indexedDB[0].version" {
		t.Fatalf("version: %v", m)
	}
	write(`[{"name":"kvs","version":1,"stores":[{"name":"kv","autoIncrement":false,"records":[{"value":1}],"indexes":[]}]}]`)
	m = e.fails("storage_state_import", map[string]any{"path": bad}, "STORAGE_STATE_INVALID")
	if d := m["details"].(map[string]any); d["path"] != "$.origins[0].indexedDB[0].stores[0].records[0].key" {
		t.Fatalf("out-of-line without key: %v", m)
	}
	write(`[{"name":"kvs","version":1,"stores":[{"name":"kv","autoIncrement":false,"records":[{"key":"x","valueEncoded":{"ta":{"b":"AA==","k":"nope"}}}],"indexes":[]}]}]`)
	m = e.fails("storage_state_import", map[string]any{"path": bad}, "STORAGE_STATE_INVALID")
	if d := m["details"].(map[string]any); d["path"] != "$.origins[0].indexedDB[0].stores[0].records[0]" {
		t.Fatalf("undecodable value: %v", m)
	}
	write(`[{"name":"kvs","version":1,"stores":[{"name":"missing","autoIncrement":true,"records":[],"indexes":[]}]}]`)
	m = e.fails("storage_state_import", map[string]any{"path": bad}, "STORAGE_STATE_INVALID")
	if d := m["details"].(map[string]any); d["path"] != "$.origins[0].indexedDB[0].stores[0].name" {
		t.Fatalf("a store the existing database lacks: %v", m)
	}
	if got := e.eval("localStorage.getItem('touched')"); got != nil {
		t.Fatalf("a refused import wrote localStorage: %v", got)
	}
	// Delete the database, import the good file: all of it comes back.
	e.eval(`new Promise(res => { const r = indexedDB.deleteDatabase('kvs'); r.onsuccess = () => res(true); r.onblocked = () => res('blocked'); })`)
	r = e.ok("storage_state_import", map[string]any{"path": path})
	if num(r["record_count"]) != 3 {
		t.Fatalf("import: %v", r)
	}
	got := e.eval(`new Promise(res => { const r = indexedDB.open('kvs'); r.onsuccess = () => { const db = r.result; const s = db.transaction('kv').objectStore('kv'); const q = s.get('rich');
	  q.onsuccess = () => { const v = q.result; db.close(); res([db.version, [...db.objectStoreNames].join(), v.when instanceof Date && v.when.getTime(), v.bytes instanceof Uint8Array && v.bytes.join()].join('|')); }; }; })`)
	if got != "1|items,kv,log|5000|9,8" {
		t.Fatalf("after the import the page reads %v", got)
	}
	if got := e.eval(idbGetJS("items", 1)); got != `{"id":1,"tags":["a"]}` {
		t.Fatalf("items/1 = %v", got)
	}
}

const idbSeed = `new Promise((res, rej) => {
  const r = indexedDB.open('shop', 1);
  r.onupgradeneeded = () => { const s = r.result.createObjectStore('items', {keyPath: 'id'}); s.createIndex('byName', 'name'); };
  r.onsuccess = () => { const db = r.result; const tx = db.transaction('items', 'readwrite');
    for (let i = 1; i <= 150; i++) tx.objectStore('items').put({id: i, name: 'item ' + String(i).padStart(3, '0'), when: new Date(0), bytes: new Uint8Array(4)});
    tx.oncomplete = () => { db.close(); res(true); }; };
  r.onerror = () => rej(r.error);
})`

const idbCountJS = `new Promise(res => { const r = indexedDB.open('shop'); r.onsuccess = () => { const q = r.result.transaction('items').objectStore('items').count(); q.onsuccess = () => { r.result.close(); res(q.result); }; }; })`

// TestStorageIndexedDB: schema, paged reads by key range and index, count,
// delete and clear of IndexedDB in the top page, an origin open only in a
// nested cross-site OOPIF, and the webview guest; deletes are checked with
// the page's own IndexedDB API.
func TestStorageIndexedDB(t *testing.T) {
	e, s := surfaceEnv(t)
	for _, name := range []string{"top", "cross2", "guest"} {
		e.use(s[name])
		if got := e.eval(idbSeed); got != true {
			t.Fatalf("%s: seed: %v", name, got)
		}
		origin := originOf(t, s[name])
		e.use(s["second"]) // read by origin while another window is active
		r := e.ok("storage_idb_schema", map[string]any{"origin": origin})
		if b, _ := json.Marshal(r["databases"]); !strings.Contains(string(b), `"shop"`) {
			t.Fatalf("%s: names: %v", name, r)
		}
		r = e.ok("storage_idb_schema", map[string]any{"origin": origin, "database": "shop"})
		st := r["database"].(map[string]any)["stores"].([]any)[0].(map[string]any)
		if st["name"] != "items" || st["keyPath"] != "id" || st["indexes"].([]any)[0].(map[string]any)["name"] != "byName" {
			t.Fatalf("%s: schema: %v", name, r)
		}
		r = e.ok("storage_idb_get", map[string]any{"origin": origin, "database": "shop", "store": "items", "range": map[string]any{"lower": 10, "upper": 20}, "skip": 2, "limit": 5})
		recs := r["records"].([]any)
		first := recs[0].(map[string]any)
		v := first["value"].(map[string]any)
		if len(recs) != 5 || r["hasMore"] != true || num(first["key"]) != 12 || v["name"] != "item 012" || v["when"] != "1970-01-01T00:00:00.000Z" || v["bytes"].(map[string]any)["byteLength"] != 4.0 {
			t.Fatalf("%s: get: %v", name, r)
		}
		r = e.ok("storage_idb_get", map[string]any{"origin": origin, "database": "shop", "store": "items", "index": "byName", "range": map[string]any{"lower": "item 149"}})
		if r["count"] != 2.0 || r["records"].([]any)[0].(map[string]any)["key"] != "item 149" || num(r["records"].([]any)[0].(map[string]any)["primaryKey"]) != 149 {
			t.Fatalf("%s: by index: %v", name, r)
		}
		// storage_idb_keys: primary keys only, by key range, through an
		// index (primary keys in index order) and all of them.
		r = e.ok("storage_idb_keys", map[string]any{"origin": origin, "database": "shop", "store": "items", "range": map[string]any{"lower": 10, "upper": 20, "lowerOpen": true}, "limit": 5})
		if b, _ := json.Marshal(r["keys"]); string(b) != "[11,12,13,14,15]" || r["hasMore"] != true || num(r["count"]) != 5 {
			t.Fatalf("%s: keys by range: %v", name, r)
		}
		r = e.ok("storage_idb_keys", map[string]any{"origin": origin, "database": "shop", "store": "items", "index": "byName", "range": map[string]any{"lower": "item 148"}})
		if b, _ := json.Marshal(r["keys"]); string(b) != "[148,149,150]" || r["hasMore"] != false {
			t.Fatalf("%s: keys by index: %v", name, r)
		}
		r = e.ok("storage_idb_keys", map[string]any{"origin": origin, "database": "shop", "store": "items", "limit": 1000})
		if ks := r["keys"].([]any); len(ks) != 150 || num(ks[0]) != 1 || num(ks[149]) != 150 || r["hasMore"] != false {
			t.Fatalf("%s: every key: %v", name, r)
		}
		if m := e.fails("storage_idb_keys", map[string]any{"origin": origin, "database": "shop", "store": "items", "index": "nope"}, "BAD_ARGUMENT"); m["details"].(map[string]any)["field"] != "index" {
			t.Fatalf("%s: unknown index: %v", name, m)
		}
		if r := e.ok("storage_idb_count", map[string]any{"origin": origin, "database": "shop", "store": "items"}); num(r["count"]) != 150 {
			t.Fatalf("%s: count: %v", name, r)
		}
		r = e.ok("storage_idb_delete", map[string]any{"origin": origin, "database": "shop", "store": "items", "key": 7})
		if num(r["count_before"]) != 150 || num(r["count_after"]) != 149 {
			t.Fatalf("%s: delete: %v", name, r)
		}
		e.use(s[name])
		if got := e.eval(idbCountJS); num(got) != 149 {
			t.Fatalf("%s: the page counts %v after the delete", name, got)
		}
		r = e.ok("storage_idb_keys", map[string]any{"database": "shop", "store": "items", "limit": 3}) // the active surface's origin
		if b, _ := json.Marshal(r["keys"]); string(b) != "[1,2,3]" || r["hasMore"] != true || r["origin"] != origin {
			t.Fatalf("%s: keys of the active surface: %v", name, r)
		}
		e.ok("storage_idb_clear", map[string]any{"database": "shop", "store": "items"})
		if got := e.eval(idbCountJS); num(got) != 0 {
			t.Fatalf("%s: the page counts %v after the clear", name, got)
		}
		m := e.fails("storage_idb_get", map[string]any{"database": "nope", "store": "items"}, "BAD_ARGUMENT")
		if m["details"].(map[string]any)["field"] != "database" {
			t.Fatalf("%s: unknown database: %v", name, m)
		}
		m = e.fails("storage_idb_count", map[string]any{"database": "shop", "store": "nope"}, "BAD_ARGUMENT")
		if m["details"].(map[string]any)["field"] != "store" {
			t.Fatalf("%s: unknown store: %v", name, m)
		}
	}
}
