package tool

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// on returns the env reporting to t (a subtest).
func (e *env) on(t *testing.T) *env {
	c := *e
	c.t = t
	return &c
}

// recorded returns the entries of window.__events in the active surface
// that the JavaScript predicate x => … keeps.
func (e *env) recorded(pred string) []map[string]any {
	e.t.Helper()
	v := e.eval("window.__events.filter(x => " + pred + ")")
	b, _ := json.Marshal(v)
	var out []map[string]any
	if err := json.Unmarshal(b, &out); err != nil {
		e.t.Fatalf("events: %v (%s)", err, b)
	}
	return out
}

// recordedSoon is recorded, polled until at least n entries match (2 s at
// most), for what the page records asynchronously.
func (e *env) recordedSoon(pred string, n int) []map[string]any {
	e.t.Helper()
	deadline := time.Now().Add(2 * time.Second)
	for {
		got := e.recorded(pred)
		if len(got) >= n || time.Now().After(deadline) {
			return got
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func (e *env) evalString(code string) string {
	e.t.Helper()
	s, _ := e.eval(code).(string)
	return s
}

// freshActions loads actions.html again (its timers start over).
func (e *env) freshActions() {
	e.t.Helper()
	e.ok("electron_navigate", map[string]any{"url": e.app.URL("a.test", "/actions.html")})
}

// waitTrue polls a JavaScript expression in the active surface until it is
// true, 10 s at most: it returns as soon as expr holds, and every caller
// fails when it never does, so the bound is only what a loaded machine
// needs (a page with four cross-site frames took over 2 s to load at load
// 20, failing TestClickBelowTheFoldPastFrames).
func (e *env) waitTrue(expr string) bool {
	e.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for e.eval(expr) != true {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(20 * time.Millisecond)
	}
	return true
}

func details(m map[string]any) map[string]any {
	d, _ := m["details"].(map[string]any)
	return d
}

// TestInteractTopPage drives every interaction tool on actions.html in a
// top-level page. Every effect is checked from the page's own record
// (window.__events, the DOM), never from the tool's answer alone.
func TestInteractTopPage(t *testing.T) {
	e := newEnv(t, Config{AllowEvalRenderer: true})
	e.launch("/actions.html")

	t.Run("auto-wait for a late element and a toast", func(t *testing.T) {
		e := e.on(t)
		e.freshActions()
		// The fixture's own timers run from load, which a busy machine
		// may reach late: let them finish, then start them again from now.
		e.eval(`new Promise(r => { const ready = () => document.getElementById('late') && !document.getElementById('toast');
			const poll = () => ready() ? r(true) : setTimeout(poll, 20); poll() })`)
		e.eval(`(() => {
			const late = document.getElementById('late'); if (late) late.remove();
			setTimeout(() => { const b = document.createElement('button'); b.id = 'late'; b.textContent = 'Late button';
				document.getElementById('late-slot').appendChild(b) }, 800);
			let toast = document.getElementById('toast');
			if (!toast) { toast = document.createElement('div'); toast.id = 'toast'; toast.textContent = 'Saving…';
				document.getElementById('toasted').after(toast) }
			setTimeout(() => toast.remove(), 1000); return true })()`)
		r := e.ok("electron_click", map[string]any{"selector": "#late"})
		if num(r["waited_ms"]) < 200 {
			t.Errorf("clicked #late after %v ms: it appears 800 ms after it was armed", r["waited_ms"])
		}
		if e.clicksOn("late") != 1 {
			t.Fatalf("#late recorded %d clicks", e.clicksOn("late"))
		}
		e.ok("electron_click", map[string]any{"selector": "#toasted"})
		if e.clicksOn("toasted") != 1 || e.clicksOn("toast") != 0 || e.eval("document.getElementById('toast') === null") != true {
			t.Fatalf("#toasted: %d clicks, toast %d clicks, toast gone %v", e.clicksOn("toasted"), e.clicksOn("toast"), e.eval("document.getElementById('toast') === null"))
		}
	})

	t.Run("covered, disabled, forced", func(t *testing.T) {
		e := e.on(t)
		m := e.fails("electron_click", map[string]any{"selector": "#covered-forever", "timeoutMs": 400}, "ELEMENT_NOT_VISIBLE")
		if !strings.Contains(m["error"].(string), "Blocking banner") || details(m)["reason"] != "covered" {
			t.Fatalf("covered error does not name the banner: %v", m)
		}
		if c, _ := details(m)["covering"].(map[string]any); c["name"] != "Blocking banner" || c["selector"] != "div#blocker" {
			t.Fatalf("covering: %v", details(m))
		}
		m = e.fails("electron_click", map[string]any{"selector": "#disabled", "timeoutMs": 300}, "ELEMENT_DISABLED")
		if !strings.Contains(m["error"].(string), "disabled") {
			t.Fatalf("disabled: %v", m)
		}
		m = e.fails("electron_click", map[string]any{"selector": "#in-fieldset", "timeoutMs": 300}, "ELEMENT_DISABLED")
		if !strings.Contains(m["error"].(string), "fieldset") {
			t.Fatalf("fieldset: %v", m)
		}
		e.fails("electron_click", map[string]any{"selector": "#nope", "timeoutMs": 200}, "SELECTOR_NO_MATCH")
		// force skips the checks, not the browser's hit-testing: the
		// banner gets the click, and the error says so.
		m = e.fails("electron_click", map[string]any{"selector": "#covered-forever", "force": true}, "ELEMENT_NOT_VISIBLE")
		if !strings.Contains(m["error"].(string), "Blocking banner") {
			t.Fatalf("forced click error: %v", m)
		}
		if e.clicksOn("covered-forever") != 0 || e.clicksOn("blocker") != 1 || e.clicksOn("disabled") != 0 || e.clicksOn("in-fieldset") != 0 {
			t.Fatalf("clicks: covered %d, blocker %d, disabled %d, fieldset %d", e.clicksOn("covered-forever"), e.clicksOn("blocker"),
				e.clicksOn("disabled"), e.clicksOn("in-fieldset"))
		}
	})

	t.Run("moving element", func(t *testing.T) {
		e := e.on(t)
		e.eval(`(() => { const b = document.createElement('button'); b.id = 'mover'; b.textContent = 'Mover';
			b.style.cssText = 'position:fixed;left:0;top:400px';
			document.body.appendChild(b);
			b.animate([{left: '0px'}, {left: '600px'}], {duration: 1000, iterations: Infinity});
			setTimeout(() => b.getAnimations().forEach(a => a.cancel()), 800);
			return new Promise(r => setTimeout(() => r(true), 100)) })()`)
		m := e.fails("electron_click", map[string]any{"selector": "#mover", "timeoutMs": 200}, "ELEMENT_NOT_VISIBLE")
		if details(m)["reason"] != "unstable" {
			t.Fatalf("moving element: %v", m)
		}
		// Once it stops, the click waits for it and lands.
		e.ok("electron_click", map[string]any{"selector": "#mover"})
		if e.clicksOn("mover") != 1 {
			t.Fatalf("#mover recorded %d clicks", e.clicksOn("mover"))
		}
	})

	t.Run("click options, hover, nested scroll", func(t *testing.T) {
		e := e.on(t)
		e.eval(`document.getElementById('btn').addEventListener('click', ev => window.__record({type: 'detail', target: 'btn', value: ev.detail + (ev.shiftKey ? '+shift' : '')})); 
			document.getElementById('btn').addEventListener('mouseover', () => window.__record({type: 'over', target: 'btn'})); true`)
		e.ok("electron_hover", map[string]any{"selector": "#btn"})
		if n := len(e.recorded("x.type === 'over'")); n != 1 {
			t.Fatalf("hover: %d mouseovers", n)
		}
		e.ok("electron_click", map[string]any{"selector": "#btn", "clickCount": 2, "modifiers": []string{"Shift"}})
		got := e.recorded("x.type === 'detail'")
		if len(got) != 2 || got[0]["value"] != "1+shift" || got[1]["value"] != "2+shift" {
			t.Fatalf("double shift click: %v", got)
		}
		e.eval("document.getElementById('scroller').scrollTop = 0; true")
		e.ok("electron_click", map[string]any{"selector": "#deep"})
		if e.clicksOn("deep") != 1 {
			t.Fatalf("#deep (inside a scroll box) recorded %d clicks", e.clicksOn("deep"))
		}
	})

	t.Run("type", func(t *testing.T) {
		e := e.on(t)
		r := e.ok("electron_type", map[string]any{"selector": "#text", "text": "hello"})
		if r["value"] != "hello" || e.evalString("document.getElementById('text').value") != "hello" {
			t.Fatalf("type: %v", r)
		}
		if got := e.recorded("x.target === 'text' && (x.type === 'input' || x.type === 'change')"); len(got) != 2 || got[0]["value"] != "hello" || got[1]["type"] != "change" {
			t.Fatalf("type events: %v", got)
		}
		m := e.fails("electron_type", map[string]any{"selector": "#controlled", "text": "abc"}, "TYPE_NO_EFFECT")
		if details(m)["after"] != "" {
			t.Fatalf("controlled: %v", m)
		}
		e.eval(`(() => { const i = document.createElement('input'); i.id = 'upper'; document.body.prepend(i);
			i.addEventListener('input', () => { i.value = i.value.toUpperCase() }); return true })()`)
		r = e.ok("electron_type", map[string]any{"selector": "#upper", "text": "shout"})
		if r["value"] != "SHOUT" || r["altered"] != true {
			t.Fatalf("a text the page changed: %v", r)
		}
		e.eval("document.getElementById('upper').remove(); true")
		e.fails("electron_type", map[string]any{"selector": "#btn", "text": "x"}, "BAD_ARGUMENT")
		e.fails("electron_type", map[string]any{"selector": "#text"}, "BAD_ARGUMENT")
		e.ok("electron_clear_input", map[string]any{"selector": "#text"})
		if v := e.evalString("document.getElementById('text').value"); v != "" {
			t.Fatalf("cleared value %q", v)
		}
		// Real keys, one per character, appended at the caret.
		e.ok("electron_type", map[string]any{"selector": "#text", "text": "x"})
		r = e.ok("electron_keyboard_type", map[string]any{"selector": "#text", "text": "yZ!"})
		if r["value"] != "xyZ!" {
			t.Fatalf("keyboard_type: %v", r)
		}
		keys := e.recorded("x.type === 'keydown' && x.target === 'text'")
		if len(keys) != 3 || keys[0]["key"] != "y" || keys[1]["key"] != "Z" || keys[1]["mods"] != "Shift" || keys[2]["key"] != "!" {
			t.Fatalf("keydowns: %v", keys)
		}
		e.fails("electron_keyboard_type", map[string]any{"selector": "#controlled", "text": "abc"}, "TYPE_NO_EFFECT")
		e.ok("electron_press_sequence", map[string]any{"selector": "#text", "keys": []string{"End", "Backspace", "Backspace", "q"}})
		if v := e.evalString("document.getElementById('text').value"); v != "xyq" {
			t.Fatalf("after the sequence: %q", v)
		}
		m = e.fails("electron_press_sequence", map[string]any{"keys": []string{"a", "Control+Nope"}}, "BAD_ARGUMENT")
		if details(m)["field"] != "keys[1]" {
			t.Fatalf("sequence field: %v", m)
		}
	})

	t.Run("editor", func(t *testing.T) {
		e := e.on(t)
		if r := e.ok("electron_type_into_editor", map[string]any{"selector": "#editor", "text": "Hello\nworld"}); r["match"] != "exact" {
			t.Fatalf("editor answer %v", r)
		}
		if v := e.evalString("document.getElementById('editor').innerText"); !strings.Contains(v, "Hello\nworld") {
			t.Fatalf("editor text %q", v)
		}
		e.ok("electron_type_into_editor", map[string]any{"selector": "#editor", "text": " again"})
		if v := e.evalString("document.getElementById('editor').innerText"); !strings.HasPrefix(v, "Hello\nworld again") {
			t.Fatalf("editor text after appending %q", v)
		}
		e.ok("electron_type_into_editor", map[string]any{"selector": "#editor", "text": "Replaced", "replace": true})
		if v := strings.TrimSpace(e.evalString("document.getElementById('editor').innerText")); v != "Replaced" {
			t.Fatalf("editor text after replace %q", v)
		}
		inputs := e.recorded("x.type === 'input' && x.target === 'editor'")
		if len(inputs) == 0 || inputs[len(inputs)-1]["value"] != "Replaced" {
			t.Fatalf("editor input events: %v", inputs)
		}
		// electron_type sets an editing host's text too.
		e.ok("electron_type", map[string]any{"selector": "#editor", "text": "Set"})
		if v := strings.TrimSpace(e.evalString("document.getElementById('editor').innerText")); v != "Set" {
			t.Fatalf("editor text after electron_type %q", v)
		}
		e.fails("electron_type_into_editor", map[string]any{"selector": "#covered-forever", "text": "x", "timeoutMs": 200}, "ELEMENT_NOT_VISIBLE")
	})

	t.Run("keys and shortcuts", func(t *testing.T) {
		e := e.on(t)
		e.ok("electron_key", map[string]any{"key": "Control+Shift+P", "selector": "#text"})
		if v := e.evalString("document.getElementById('shortcut-out').textContent"); v != "Control+Shift+P" {
			t.Fatalf("shortcut out %q", v)
		}
		e.ok("electron_key", map[string]any{"key": "Meta+K"})
		sc := e.recorded("x.type === 'shortcut'")
		if len(sc) != 2 || sc[0]["target"] != "text" || sc[1]["value"] != "Meta+K" {
			t.Fatalf("shortcuts: %v", sc)
		}
		e.fails("electron_key", map[string]any{"key": "Enter", "selector": "#disabled", "timeoutMs": 200}, "ELEMENT_DISABLED")
	})

	t.Run("check and select", func(t *testing.T) {
		e := e.on(t)
		r := e.ok("electron_check", map[string]any{"selector": "#agree"})
		if r["changed"] != true || e.eval("document.getElementById('agree').checked") != true {
			t.Fatalf("check: %v", r)
		}
		if r = e.ok("electron_check", map[string]any{"selector": "#agree"}); r["changed"] != false {
			t.Fatalf("check again: %v", r)
		}
		if n := e.clicksOn("agree"); n != 1 {
			t.Fatalf("#agree recorded %d clicks, want 1 (a checked box is not clicked again)", n)
		}
		e.ok("electron_uncheck", map[string]any{"selector": "#agree"})
		if ch := e.recorded("x.type === 'change' && x.target === 'agree'"); len(ch) != 2 || ch[1]["checked"] != false {
			t.Fatalf("agree changes: %v", ch)
		}
		e.ok("electron_check", map[string]any{"selector": "#size-l"})
		if e.eval("document.getElementById('size-l').checked && !document.getElementById('size-m').checked") != true {
			t.Fatal("radio Large not checked")
		}
		e.fails("electron_uncheck", map[string]any{"selector": "#size-l"}, "BAD_ARGUMENT")
		e.fails("electron_check", map[string]any{"selector": "#btn"}, "BAD_ARGUMENT")

		r = e.ok("electron_select_option", map[string]any{"selector": "#fruit", "values": []string{"Banana"}})
		if v := e.evalString("document.getElementById('fruit').value"); v != "b" || r["labels"].([]any)[0] != "Banana" {
			t.Fatalf("select by label: value %q, %v", v, r)
		}
		if ch := e.recorded("x.type === 'change' && x.target === 'fruit'"); len(ch) != 1 || ch[0]["value"] != "b" {
			t.Fatalf("fruit change: %v", ch)
		}
		e.ok("electron_select_option", map[string]any{"selector": "#colors", "values": []string{"r", "Blue"}})
		if ch := e.recorded("x.type === 'change' && x.target === 'colors'"); len(ch) != 1 || ch[0]["value"] != "r,bl" {
			t.Fatalf("colors change: %v", ch)
		}
		m := e.fails("electron_select_option", map[string]any{"selector": "#fruit", "values": []string{"Durian"}}, "BAD_ARGUMENT")
		if !strings.Contains(m["error"].(string), "b/Banana") {
			t.Fatalf("unknown option error does not list the options: %v", m)
		}
		e.fails("electron_select_option", map[string]any{"selector": "#fruit", "values": []string{"a", "b"}}, "BAD_ARGUMENT")
	})

	t.Run("files", func(t *testing.T) {
		e := e.on(t)
		dir := t.TempDir()
		a, b := filepath.Join(dir, "a.txt"), filepath.Join(dir, "b.json")
		if err := os.WriteFile(a, []byte("alpha"), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(b, []byte(`{"b":1}`), 0o600); err != nil {
			t.Fatal(err)
		}
		r := e.ok("electron_set_files", map[string]any{"selector": "#file", "paths": []string{a, b}})
		if num(r["count"]) != 2 {
			t.Fatalf("set files: %v", r)
		}
		if f := e.recorded("x.type === 'files'"); len(f) != 1 || f[0]["value"] != "a.txt,b.json" {
			t.Fatalf("files event: %v", f)
		}
		if v := e.evalString("document.getElementById('file-names').textContent"); v != "a.txt,b.json" {
			t.Fatalf("file names %q", v)
		}
		e.fails("electron_set_files", map[string]any{"selector": "#file", "paths": []string{"a.txt"}}, "ABSOLUTE_PATH_REQUIRED")
		e.fails("electron_set_files", map[string]any{"selector": "#file", "paths": []string{filepath.Join(dir, "missing")}}, "FILE_NOT_FOUND")
		e.fails("electron_set_files", map[string]any{"selector": "#text", "paths": []string{a}}, "BAD_ARGUMENT")

		r = e.ok("electron_drop_file", map[string]any{"selector": "#dropzone", "paths": []string{a, b}})
		if r["default_prevented"] != true || num(r["count"]) != 2 {
			t.Fatalf("drop: %v", r)
		}
		if d := e.recorded("x.type === 'drop'"); len(d) != 1 || d[0]["value"] != "a.txt,b.json" {
			t.Fatalf("drop event: %v", d)
		}
		// The page reads the dropped bytes.
		e.eval(`document.getElementById('dropzone').addEventListener('drop', ev => ev.dataTransfer.files[0].text().then(t => window.__record({type: 'bytes', target: 'dropzone', value: t}))); true`)
		e.ok("electron_drop_file", map[string]any{"selector": "#dropzone", "paths": []string{a}})
		if got := e.recordedSoon("x.type === 'bytes'", 1); len(got) != 1 || got[0]["value"] != "alpha" {
			t.Fatalf("dropped bytes: %v", got)
		}
		e.fails("electron_drop_file", map[string]any{"selector": "#btn", "paths": []string{a}}, "TYPE_NO_EFFECT")
	})

	t.Run("drag", func(t *testing.T) {
		e := e.on(t)
		r := e.ok("electron_drag", map[string]any{"selector": "#s-1", "targetSelector": "#s-3"})
		if r["mode"] != "html5" || r["trusted"] != true {
			t.Fatalf("sortable drag: %v", r)
		}
		if s := e.recorded("x.type === 'sort'"); len(s) != 1 || s[0]["value"] != "s-2,s-3,s-1,s-4,s-5" {
			t.Fatalf("sort: %v", s)
		}
		if v := e.eval("[...document.querySelectorAll('#sortable li')].map(l => l.id).join()"); v != "s-2,s-3,s-1,s-4,s-5" {
			t.Fatalf("list order %v", v)
		}
		r = e.ok("electron_drag", map[string]any{"selector": "#drag-handle", "targetSelector": "#drag-target"})
		if r["mode"] != "pointer" {
			t.Fatalf("pointer drag: %v", r)
		}
		if len(e.recorded("x.type === 'pointer-drop'")) != 1 || e.eval("document.getElementById('drag-target').dataset.dropped") != "true" {
			t.Fatal("the pointer drag did not drop on the target")
		}
		e.fails("electron_drag", map[string]any{"selector": "#s-1"}, "BAD_ARGUMENT")

		// A drag the page refuses: dragstart cancelled (known at once, not
		// after a wait), and a target that takes no drop.
		e.eval("document.getElementById('s-4').addEventListener('dragstart', ev => ev.preventDefault(), {once: true}); true")
		t0 := time.Now()
		m := e.fails("electron_drag", map[string]any{"selector": "#s-4", "targetSelector": "#s-5"}, "TYPE_NO_EFFECT")
		if !strings.Contains(m["error"].(string), "cancelled dragstart") || time.Since(t0) > time.Second {
			t.Fatalf("cancelled dragstart: %v after %v", m["error"], time.Since(t0))
		}
		m = e.fails("electron_drag", map[string]any{"selector": "#s-4", "targetSelector": "#btn"}, "TYPE_NO_EFFECT")
		if !strings.Contains(m["error"].(string), "did not accept") {
			t.Fatalf("a target that takes no drop: %v", m["error"])
		}
		if v := e.eval("[...document.querySelectorAll('#sortable li')].map(l => l.id).join()"); v != "s-2,s-3,s-1,s-4,s-5" {
			t.Fatalf("refused drags changed the list: %v", v)
		}
		// The mouse is not left pressed: a click still clicks.
		e.ok("electron_click", map[string]any{"selector": "#btn"})
	})

	t.Run("a click that opens a dialog", func(t *testing.T) {
		e := e.on(t)
		// The page stops in the click handler; the click answers at once
		// and names the dialog instead of waiting for the protocol's reply.
		r := e.ok("electron_click", map[string]any{"selector": "#confirm"})
		d, _ := r["dialog_opened"].(map[string]any)
		if d["type"] != "confirm" || d["message"] != "Are you sure?" || num(r["_meta"].(map[string]any)["elapsed_ms"]) > 5000 {
			t.Fatalf("click on #confirm: %v", r)
		}
		sess, err := e.srv.sessions.Resolve("")
		if err != nil {
			t.Fatal(err)
		}
		res, err := sess.Surfaces.Resolve(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		if err := res.InputRoot.Call(t.Context(), "Page.handleJavaScriptDialog", map[string]any{"accept": true}, nil); err != nil {
			t.Fatal(err)
		}
		if v := e.evalString("document.getElementById('dialog-result').textContent"); v != "confirm: true" {
			t.Fatalf("dialog result %q", v)
		}
		e.ok("electron_click", map[string]any{"selector": "#btn"})
	})

	t.Run("scroll", func(t *testing.T) {
		e := e.on(t)
		e.eval("document.getElementById('scroller').scrollTop = 0; true")
		r := e.ok("electron_scroll", map[string]any{"selector": "#scroller", "dy": 300})
		if y := e.eval("document.getElementById('scroller').scrollTop"); y.(float64) < 100 || r["scrolled"] != true {
			t.Fatalf("wheel over the scroll box: scrollTop %v, %v", y, r)
		}
		e.eval("document.getElementById('scroller').scrollTop = 0; true")
		r = e.ok("electron_scroll_into_view", map[string]any{"selector": "#deep"})
		if e.eval("(() => { const s = document.getElementById('scroller').getBoundingClientRect(), d = document.getElementById('deep').getBoundingClientRect(); return d.top >= s.top && d.bottom <= s.bottom })()") != true {
			t.Fatalf("#deep is not inside the scroll box's view: %v", r)
		}
		// The window itself, with the wheel at the viewport's centre.
		e.ok("electron_navigate", map[string]any{"url": e.app.URL("a.test", "/large.html")})
		r = e.ok("electron_scroll", map[string]any{"dy": 500})
		if y := e.eval("window.scrollY"); y.(float64) < 400 || r["scrolled"] != true {
			t.Fatalf("window wheel: scrollY %v, %v", y, r)
		}
		r = e.ok("electron_scroll", map[string]any{"selector": "#edit-300"})
		if e.eval("(() => { const r = document.getElementById('edit-300').getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight })()") != true {
			t.Fatalf("#edit-300 not in view: %v", r)
		}
		e.fails("electron_scroll", map[string]any{}, "BAD_ARGUMENT")
	})
}

// TestInteractSurfaces clicks, types and presses keys in an in-process
// frame two deep (same2), a nested OOPIF (cross2) and a webview guest,
// selected through electron_switch_surface, and shows that an overlay in
// the top page takes a click aimed into the frame under it.
func TestInteractSurfaces(t *testing.T) {
	e, s := surfaceEnv(t)
	for _, name := range []string{"same2", "cross2", "guest"} {
		t.Run(name, func(t *testing.T) {
			e := e.on(t)
			e.use(s[name])
			e.ok("electron_click", map[string]any{"selector": "#btn"})
			if e.clicksOn("btn") != 1 {
				t.Fatalf("%s recorded %d clicks", name, e.clicksOn("btn"))
			}
			e.ok("electron_type", map[string]any{"selector": "#inp", "text": "in " + name})
			if v := e.evalString("document.getElementById('inp').value"); v != "in "+name {
				t.Fatalf("%s: value %q", name, v)
			}
			e.ok("electron_keyboard_type", map[string]any{"selector": "#inp", "text": "!"})
			e.ok("electron_key", map[string]any{"key": "Control+Shift+P", "selector": "#inp"})
			keys := e.recorded("x.type === 'keydown' && x.target === 'inp' && x.key !== 'Control' && x.key !== 'Shift'")
			if len(keys) != 2 || keys[0]["key"] != "!" || keys[1]["key"] != "P" || keys[1]["mods"] != "Control+Shift" {
				t.Fatalf("%s keydowns: %v", name, keys)
			}
			if v := e.evalString("document.getElementById('inp').value"); v != "in "+name+"!" {
				t.Fatalf("%s: value after keys %q", name, v)
			}
			e.ok("electron_hover", map[string]any{"selector": "#btn"})

			// An HTML drag inside the surface: trusted events, routed by the
			// browser's hit-testing from the window root into the frame.
			e.eval(`(() => {
  const mk = (id, left, text) => { const el = document.createElement('span'); el.id = id; el.textContent = text;
    el.style.cssText = 'position:fixed;top:4px;left:' + left + 'px;width:40px;height:20px;background:#ddd;z-index:9'; document.body.append(el); return el; };
  const chip = mk('chip', 150, 'chip'); chip.draggable = true;
  chip.addEventListener('dragstart', ev => ev.dataTransfer.setData('text/plain', 'chip-data'));
  const bin = mk('bin', 220, 'bin');
  bin.addEventListener('dragover', ev => ev.preventDefault());
  bin.addEventListener('drop', ev => { ev.preventDefault(); window.__record({type: 'html5-drop', target: 'bin', value: ev.dataTransfer.getData('text/plain') + ' trusted=' + ev.isTrusted}); });
  return true; })()`)
			r := e.ok("electron_drag", map[string]any{"selector": "#chip", "targetSelector": "#bin"})
			if r["mode"] != "html5" || r["trusted"] != true || r["drop_prevented"] != true {
				t.Fatalf("%s: html5 drag %v", name, r)
			}
			if d := e.recorded("x.type === 'html5-drop'"); len(d) != 1 || d[0]["value"] != "chip-data trusted=true" {
				t.Fatalf("%s: the drop the page saw: %v", name, d)
			}
		})
	}
	// The rest of the interaction tools on a kit of controls added below a
	// tall spacer, so every surface also has to scroll to reach them.
	file := filepath.Join(t.TempDir(), "kit.txt")
	if err := os.WriteFile(file, []byte("kit"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"same2", "cross2", "guest"} {
		t.Run(name+" kit", func(t *testing.T) {
			e := e.on(t)
			e.use(s[name])
			e.eval(`(() => {
  const kit = document.createElement('div'); kit.id = 'kit';
  kit.innerHTML = '<div style="height:1500px"></div>' +
    '<input type="checkbox" id="kit-check" aria-label="Kit check">' +
    '<select id="kit-sel" aria-label="Kit select"><option value="a">Alpha</option><option value="b">Bravo</option></select>' +
    '<input id="kit-text" aria-label="Kit text" value="abc">' +
    '<div id="kit-ed" contenteditable="true" role="textbox" aria-label="Kit editor" style="min-height:20px;border:1px solid #999"></div>' +
    '<input type="file" id="kit-file" aria-label="Kit file">' +
    '<div id="kit-drop" style="height:30px;border:1px dashed #999">drop</div>';
  document.body.append(kit);
  const drop = document.getElementById('kit-drop');
  drop.addEventListener('dragover', ev => ev.preventDefault());
  drop.addEventListener('drop', ev => { ev.preventDefault(); window.__record({type: 'kit-drop', target: 'kit-drop', value: [...ev.dataTransfer.files].map(f => f.name).join()}); });
  return true; })()`)
			val := func(expr string) any { return e.eval(expr) }
			e.ok("electron_check", map[string]any{"selector": "#kit-check"})
			if val("document.getElementById('kit-check').checked") != true {
				t.Fatalf("%s: check", name)
			}
			e.ok("electron_uncheck", map[string]any{"selector": "#kit-check"})
			if val("document.getElementById('kit-check').checked") != false {
				t.Fatalf("%s: uncheck", name)
			}
			e.ok("electron_select_option", map[string]any{"selector": "#kit-sel", "values": []string{"Bravo"}})
			if val("document.getElementById('kit-sel').value") != "b" {
				t.Fatalf("%s: select", name)
			}
			e.ok("electron_clear_input", map[string]any{"selector": "#kit-text"})
			e.ok("electron_press_sequence", map[string]any{"selector": "#kit-text", "keys": []string{"x", "y", "Backspace", "z"}})
			if v := val("document.getElementById('kit-text').value"); v != "xz" {
				t.Fatalf("%s: clear and press keys: %q", name, v)
			}
			e.ok("electron_type_into_editor", map[string]any{"selector": "#kit-ed", "text": "one\ntwo"})
			if v := e.evalString("document.getElementById('kit-ed').innerText"); !strings.Contains(v, "one\ntwo") {
				t.Fatalf("%s: editor %q", name, v)
			}
			e.ok("electron_set_files", map[string]any{"selector": "#kit-file", "paths": []string{file}})
			if v := val("document.getElementById('kit-file').files[0]?.name"); v != "kit.txt" {
				t.Fatalf("%s: files %v", name, v)
			}
			e.ok("electron_drop_file", map[string]any{"selector": "#kit-drop", "paths": []string{file}})
			if d := e.recorded("x.type === 'kit-drop'"); len(d) != 1 || d[0]["value"] != "kit.txt" {
				t.Fatalf("%s: drop %v", name, d)
			}
			// The wheel turns in the surface's own document (routed through
			// the window root); the answer says where it ended, as the page
			// does. (One large wheel in an OOPIF sometimes stops a few pixels
			// short of the top: Chromium's own scrolling.)
			y0 := num(val("window.scrollY"))
			if y0 < 500 {
				t.Fatalf("%s: the kit is in view without scrolling (scrollY %v)", name, y0)
			}
			r := e.ok("electron_scroll", map[string]any{"dy": -5000})
			after, _ := r["after"].(map[string]any)
			win, _ := after["window"].(map[string]any)
			if y := num(val("window.scrollY")); y > y0/4 || r["scrolled"] != true || win == nil || num(win["y"]) != y {
				t.Fatalf("%s: the wheel moved scrollY from %v to %v; answer %v", name, y0, y, r)
			}
			e.ok("electron_scroll_into_view", map[string]any{"selector": "#kit-drop"})
			if val("(r => r.top >= 0 && r.bottom <= innerHeight)(document.getElementById('kit-drop').getBoundingClientRect())") != true {
				t.Fatalf("%s: scroll into view", name)
			}
		})
	}

	t.Run("overlay over a frame", func(t *testing.T) {
		e := e.on(t)
		e.use(s["covered"])
		m := e.fails("electron_click", map[string]any{"selector": "#btn", "timeoutMs": 500}, "ELEMENT_NOT_VISIBLE")
		if !strings.Contains(m["error"].(string), "overlay") {
			t.Fatalf("the error does not name the overlay: %v", m["error"])
		}
		if n := len(e.recorded("true")); n != 0 {
			t.Fatalf("the covered frame recorded %d events", n)
		}
		// The cover goes away after a while: the click waits for it
		// (checked in the enclosing document before any event is sent)
		// and lands in the frame; the overlay never gets a click.
		e.use(s["top"])
		e.eval("(() => { const o = document.getElementById('overlay'); o.addEventListener('mousedown', () => window.__record({type: 'overlay-press', target: 'overlay'})); setTimeout(() => o.remove(), 600); return true })()")
		e.use(s["covered"])
		r := e.ok("electron_click", map[string]any{"selector": "#btn", "timeoutMs": 5000})
		if e.clicksOn("btn") != 1 || num(r["waited_ms"]) < 300 {
			t.Fatalf("the click after the cover went: %d clicks, answer %v", e.clicksOn("btn"), r)
		}
		e.use(s["top"])
		if n := len(e.recorded("x.type === 'overlay-press'")); n != 0 {
			t.Fatalf("the overlay was pressed %d times", n)
		}

		// The same across a process boundary: a cover in cross1 (an OOPIF)
		// over the nested OOPIF cross2, named while it stays, waited for
		// when it goes.
		e.use(s["cross1"])
		e.eval(`(() => { const r = document.getElementById('cross2').getBoundingClientRect(); const c = document.createElement('div'); c.id = 'shade';
  c.setAttribute('aria-label', 'Shade'); c.style.cssText = 'position:fixed;z-index:99;background:rgba(0,0,0,.3);left:' + r.left + 'px;top:' + r.top + 'px;width:' + r.width + 'px;height:' + r.height + 'px';
  document.body.append(c); return true })()`)
		e.use(s["cross2"])
		before := e.clicksOn("btn")
		m = e.fails("electron_click", map[string]any{"selector": "#btn", "timeoutMs": 300}, "ELEMENT_NOT_VISIBLE")
		if !strings.Contains(m["error"].(string), "div#shade") || e.clicksOn("btn") != before {
			t.Fatalf("a cover in cross1: %v (clicks %d, before %d)", m["error"], e.clicksOn("btn"), before)
		}
		e.use(s["cross1"])
		e.eval("setTimeout(() => document.getElementById('shade').remove(), 500); true")
		e.use(s["cross2"])
		e.ok("electron_click", map[string]any{"selector": "#btn", "timeoutMs": 5000})
		if e.clicksOn("btn") != before+1 {
			t.Fatalf("the click after the cross1 cover went: %d clicks, want %d", e.clicksOn("btn"), before+1)
		}
	})
}

// TestTypeIntoCodeEditor types code into the fixture's Monaco-shaped editor
// (code.html: a hidden text area takes the keyboard, Enter indents, brackets
// close themselves) and checks the editor's model, not the tool's answer.
func TestTypeIntoCodeEditor(t *testing.T) {
	e := newEnv(t, Config{AllowEvalRenderer: true})
	e.launch("/code.html")
	code := "function f(a) {\n    if (a) {\n        return [a, \"x\"];\n    }\n}"
	r := e.ok("electron_type_into_editor", map[string]any{"selector": "#code", "text": code})
	if got := e.evalString("window.__code.value()"); got != code || r["match"] != "exact" {
		t.Fatalf("the editor holds\n%s\nwant\n%s\n(answer %v)", got, code, r)
	}
	e.ok("electron_type_into_editor", map[string]any{"selector": "#code", "text": "\nf(1);"})
	if got := e.evalString("window.__code.value()"); got != code+"\nf(1);" {
		t.Fatalf("after appending: %q", got)
	}
	e.ok("electron_type_into_editor", map[string]any{"selector": "#code", "text": "x = {\n  y: 1\n}", "replace": true})
	if got := e.evalString("window.__code.value()"); got != "x = {\n  y: 1\n}" {
		t.Fatalf("after replace: %q", got)
	}
	// Typing key by key goes through the editor's own rules, as a user's
	// typing does: the bracket closes itself.
	e.ok("electron_type_into_editor", map[string]any{"selector": "#code", "text": "", "replace": true})
	e.ok("electron_keyboard_type", map[string]any{"text": "g("})
	if got := e.evalString("window.__code.value()"); got != "g()" {
		t.Fatalf("typed key by key: %q", got)
	}
	// A click that focuses nothing that takes text is an error, not a
	// silent no-op.
	m := e.fails("electron_type_into_editor", map[string]any{"selector": "h1", "text": "x"}, "TYPE_NO_EFFECT")
	if !strings.Contains(m["error"].(string), "focus") {
		t.Fatalf("typing into a heading: %v", m["error"])
	}
}
