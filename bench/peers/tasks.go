package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/understudy-dev/understudy/internal/fixture"
)

// The task benchmark (issue 30, point 8; bench/peers -tasks): six tasks an
// agent does, each run by a scripted careful agent against understudy
// (essential profile), @playwright/mcp and chrome-devtools-mcp on one
// Chromium. Each agent uses its server as an agent would: look at the page,
// act by ref, read what it needs. Per task and server it reports the calls,
// the characters the server returned (all text content), the wall time, and
// whether the task was done. Done is judged from the fixture server's log
// of what the page sent (the save, the form, the archived row…), never
// from a tool's answer; the save task also needs the confirmation text in
// what the agent read.

// taskPages are the task documents, served under /tasks/ on every fixture
// host. Each page reports what the user did to /tasks/log.
var taskPages = map[string]string{
	"save.html": `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Save</title></head><body>
<h1>Draft</h1><p>Three items are waiting.</p>
<button id="save">Save</button>
<script>
document.getElementById('save').onclick = async () => {
  await fetch('/tasks/log?e=save');
  await new Promise((r) => setTimeout(r, 600));
  const p = document.createElement('p'); p.textContent = 'Saved 3 items'; document.body.append(p);
};
</script></body></html>`,
	"form.html": `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Sign up</title></head><body>
<h1>Sign up</h1>
<form id="f">
<label for="name">Full name</label><input id="name">
<label for="email">Email</label><input id="email" type="email">
<label for="country">Country</label><select id="country"><option value="">Choose</option><option value="fr">France</option><option value="jp">Japan</option></select>
<label><input id="news" type="checkbox"> Newsletter</label>
<button id="go" type="submit">Sign up</button>
</form>
<script>
document.getElementById('f').onsubmit = (ev) => {
  ev.preventDefault();
  const q = new URLSearchParams({e: 'form', name: document.getElementById('name').value, email: document.getElementById('email').value,
    country: document.getElementById('country').value, news: document.getElementById('news').checked});
  fetch('/tasks/log?' + q);
  const p = document.createElement('p'); p.textContent = 'Thanks for signing up'; document.body.append(p);
};
</script></body></html>`,
	"inbox.html": `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Inbox</title></head><body>
<h1>Inbox</h1><table aria-label="Inbox"><tbody id="rows"></tbody></table>
<script>
const rows = document.getElementById('rows');
for (let i = 1; i <= 120; i++) {
  const tr = document.createElement('tr');
  tr.innerHTML = '<td>Message subject number ' + i + '</td><td><button>Archive</button></td><td><button>Star</button></td>';
  tr.querySelector('button').onclick = () => { fetch('/tasks/log?e=archive&id=' + i); tr.remove(); };
  rows.append(tr);
}
</script></body></html>`,
	"dialog.html": `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Files</title></head><body>
<h1>report.pdf</h1>
<button id="del">Delete file</button>
<script>
document.getElementById('del').onclick = () => {
  if (confirm('Delete report.pdf?')) { fetch('/tasks/log?e=delete'); document.querySelector('h1').textContent = 'Deleted'; }
};
</script></body></html>`,
	"list.html": `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Items</title>
<style>#list { height: 300px; overflow-y: auto; position: relative; width: 320px; } .row { position: absolute; height: 30px; left: 0; right: 0; }</style></head><body>
<h1>Items</h1>
<div id="list" role="list" aria-label="Items"><div id="spacer"></div></div>
<script>
const N = 1000, H = 30, list = document.getElementById('list'), spacer = document.getElementById('spacer');
spacer.style.height = (N * H) + 'px';
// Rows are keyed by index, as react-window keys them: a row in view stays
// the same element while the list scrolls.
const drawn = new Map();
function draw() {
  const first = Math.floor(list.scrollTop / H), last = Math.min(N, first + 12);
  for (const [i, r] of drawn) if (i < first || i >= last) { r.remove(); drawn.delete(i); }
  for (let i = first; i < last; i++) {
    if (drawn.has(i)) continue;
    const r = document.createElement('div'); r.className = 'row'; r.setAttribute('role', 'listitem'); r.style.top = (i * H) + 'px';
    r.innerHTML = 'Item ' + (i + 1) + ' <button>Pick item ' + (i + 1) + '</button>';
    r.querySelector('button').onclick = () => fetch('/tasks/log?e=pick&id=' + (i + 1));
    spacer.append(r); drawn.set(i, r);
  }
  list.setAttribute('aria-rowcount', N);
}
list.addEventListener('scroll', draw); draw();
</script></body></html>`,
	"frame.html": `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Checkout</title></head><body>
<h1>Checkout</h1>
<iframe title="Terms" src="http://b.test:{{PORT}}/tasks/terms.html" width="400" height="160"></iframe>
</body></html>`,
	"terms.html": `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Terms</title></head><body>
<p>The terms of sale.</p><button id="ok">Accept terms</button>
<script>document.getElementById('ok').onclick = () => { fetch('/tasks/log?e=accept'); document.body.append('Accepted'); };</script>
</body></html>`,
}

// taskLog is what the task pages reported, in order.
type taskLog struct {
	mu     sync.Mutex
	events []string
}

func (l *taskLog) ServeHTTP(w http.ResponseWriter, r *http.Request, port int) {
	name := strings.TrimPrefix(r.URL.Path, "/tasks/")
	if name == "log" {
		l.mu.Lock()
		l.events = append(l.events, r.URL.RawQuery)
		l.mu.Unlock()
		w.WriteHeader(http.StatusNoContent)
		return
	}
	page, ok := taskPages[name]
	if !ok {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	_, _ = w.Write([]byte(strings.ReplaceAll(page, "{{PORT}}", strconv.Itoa(port))))
}

// take returns and forgets the events.
func (l *taskLog) take() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := l.events
	l.events = nil
	return out
}

// task is one thing to do: its page, and what the log must hold after it
// (exactly these events).
type task struct {
	key, title, page string
	want             []string
	// answer, when set, must be in what the agent read.
	answer string
}

var tasks = []task{
	{"save", "click Save, then read the confirmation that appears after a fetch", "save.html", []string{"e=save"}, "Saved 3 items"},
	{"form", "fill a four-field form and submit it", "form.html", []string{"e=form&name=Ada+Lovelace&email=ada%40example.org&country=jp&news=true"}, ""},
	{"archive", "archive row 57 of a 120-row inbox", "inbox.html", []string{"e=archive&id=57"}, ""},
	{"dialog", "delete a file through a confirm() dialog", "dialog.html", []string{"e=delete"}, ""},
	{"list", "pick item 700 of a virtualized 1,000-item list", "list.html", []string{"e=pick&id=700"}, ""},
	{"frame", "accept the terms in a cross-site frame (a webview's stand-in: Chromium has no <webview>)", "frame.html", []string{"e=accept"}, ""},
}

// agentRun is one task done by one server's scripted agent.
type agentRun struct {
	s     *server
	calls int
	chars int
	read  strings.Builder // everything the agent read
	err   error
}

// do makes one call and counts it; a failed call ends the run.
func (a *agentRun) do(tool string, args map[string]any) string {
	if a.err != nil {
		return ""
	}
	a.calls++
	r := a.s.do(call{tool, args})
	a.chars += r.chars()
	a.read.WriteString(r.text)
	a.read.WriteByte('\n')
	if r.err != nil {
		a.err = fmt.Errorf("%s: %v", tool, r.err)
	}
	return r.text
}

// dt is a chrome-devtools-mcp call: every tool takes the page's id.
func (a *agentRun) dt(tool string, args map[string]any) string {
	args["pageId"] = a.s.pageID
	return a.do(tool, args)
}

// ref finds a ref in what a call returned; not found ends the run.
func (a *agentRun) ref(text, re string) string {
	if a.err != nil {
		return ""
	}
	m := regexp.MustCompile(re).FindStringSubmatch(text)
	if m == nil {
		at := strings.Index(text, "number 57")
		if at < 0 {
			at = 0
		}
		a.err = fmt.Errorf("no %s in what the server returned (%.300q)", re, text[at:])
		return ""
	}
	return m[1]
}

// A scripted agent per server and task: what a careful agent does with
// that server's tools, reading refs from what it returned.
type script func(a *agentRun, url string)

var understudyScripts = map[string]script{
	"save": func(a *agentRun, url string) {
		t := a.do("electron_navigate", map[string]any{"url": url, "then": "diff"})
		ref := a.ref(t, `\[(\d+)\] button "Save"`)
		a.do("electron_click", map[string]any{"ref": atoi(ref), "then": "text=Saved;diff"})
	},
	"form": func(a *agentRun, url string) {
		t := a.do("electron_navigate", map[string]any{"url": url, "then": "diff"})
		a.do("electron_fill_form", map[string]any{"fields": []map[string]any{
			{"ref": atoi(a.ref(t, `\[(\d+)\] textbox "Full name"`)), "value": "Ada Lovelace"},
			{"ref": atoi(a.ref(t, `\[(\d+)\] textbox "Email"`)), "value": "ada@example.org"},
			{"ref": atoi(a.ref(t, `\[(\d+)\] combobox "Country"`)), "value": "Japan"},
			{"ref": atoi(a.ref(t, `\[(\d+)\] checkbox "Newsletter"`)), "value": true},
		}})
		a.do("electron_click", map[string]any{"ref": atoi(a.ref(t, `\[(\d+)\] button "Sign up"`)), "then": "text=Thanks"})
	},
	"archive": func(a *agentRun, url string) {
		a.do("electron_navigate", map[string]any{"url": url})
		t := a.do("electron_find", map[string]any{"text": "Message subject number 57"})
		a.do("electron_click", map[string]any{"ref": atoi(a.ref(t, `"ref":(\d+),"role":"button","name":"Archive"`))})
	},
	"dialog": func(a *agentRun, url string) {
		t := a.do("electron_navigate", map[string]any{"url": url, "then": "diff"})
		a.do("electron_dialog_handler", map[string]any{"action": "accept", "oneShot": true})
		a.do("electron_click", map[string]any{"ref": atoi(a.ref(t, `\[(\d+)\] button "Delete file"`)), "then": "text=Deleted"})
	},
	"list": func(a *agentRun, url string) {
		a.do("electron_navigate", map[string]any{"url": url})
		t := a.do("electron_find", map[string]any{"role": "button", "name_exact": "Pick item 700", "scroll": true})
		a.do("electron_click", map[string]any{"ref": atoi(a.ref(t, `"ref":(\d+)`))})
	},
	"frame": func(a *agentRun, url string) {
		a.do("electron_navigate", map[string]any{"url": url})
		t := a.do("electron_find", map[string]any{"role": "button", "name_exact": "Accept terms", "surfaces": "all"})
		a.do("electron_click", map[string]any{"ref": atoi(a.ref(t, `"ref":(\d+)`)), "then": "text=Accepted"})
	},
}

var playwrightScripts = map[string]script{
	"save": func(a *agentRun, url string) {
		a.do("browser_navigate", map[string]any{"url": url})
		t := a.do("browser_snapshot", map[string]any{})
		a.do("browser_click", map[string]any{"element": "Save", "target": a.ref(t, `button "Save" \[ref=(\w+)\]`)})
		a.do("browser_wait_for", map[string]any{"text": "Saved"})
		a.do("browser_snapshot", map[string]any{}) // the answer links the page; reading it takes a snapshot
	},
	"form": func(a *agentRun, url string) {
		a.do("browser_navigate", map[string]any{"url": url})
		t := a.do("browser_snapshot", map[string]any{})
		a.do("browser_fill_form", map[string]any{"fields": []map[string]any{
			{"name": "Full name", "type": "textbox", "target": a.ref(t, `textbox "Full name" \[ref=(\w+)\]`), "value": "Ada Lovelace"},
			{"name": "Email", "type": "textbox", "target": a.ref(t, `textbox "Email" \[ref=(\w+)\]`), "value": "ada@example.org"},
			{"name": "Country", "type": "combobox", "target": a.ref(t, `combobox "Country" \[ref=(\w+)\]`), "value": "Japan"},
			{"name": "Newsletter", "type": "checkbox", "target": a.ref(t, `checkbox "Newsletter" \[ref=(\w+)\]`), "value": "true"},
		}})
		a.do("browser_click", map[string]any{"element": "Sign up", "target": a.ref(t, `button "Sign up" \[ref=(\w+)\]`)})
	},
	"archive": func(a *agentRun, url string) {
		a.do("browser_navigate", map[string]any{"url": url})
		t := a.do("browser_snapshot", map[string]any{})
		a.do("browser_click", map[string]any{"element": "Archive of row 57", "target": a.ref(t, `"Message subject number 57"[^\n]*\n(?:[^\n]*\n)*?[^\n]*button "Archive" \[ref=(\w+)\]`)})
	},
	"dialog": func(a *agentRun, url string) {
		a.do("browser_navigate", map[string]any{"url": url})
		t := a.do("browser_snapshot", map[string]any{})
		a.do("browser_click", map[string]any{"element": "Delete file", "target": a.ref(t, `button "Delete file" \[ref=(\w+)\]`)})
		a.do("browser_handle_dialog", map[string]any{"accept": true})
	},
	"list": func(a *agentRun, url string) {
		a.do("browser_navigate", map[string]any{"url": url})
		a.do("browser_evaluate", map[string]any{"function": "() => { const l = document.querySelector('#list'); l.scrollTop = 699 * 30; }"})
		t := a.do("browser_snapshot", map[string]any{})
		a.do("browser_click", map[string]any{"element": "Pick item 700", "target": a.ref(t, `button "Pick item 700" \[ref=(\w+)\]`)})
	},
	"frame": func(a *agentRun, url string) {
		a.do("browser_navigate", map[string]any{"url": url})
		t := a.do("browser_snapshot", map[string]any{})
		a.do("browser_click", map[string]any{"element": "Accept terms", "target": a.ref(t, `button "Accept terms" \[ref=(\w+)\]`)})
	},
}

var devtoolsScripts = map[string]script{
	"save": func(a *agentRun, url string) {
		a.dt("navigate_page", map[string]any{"type": "url", "url": url})
		t := a.dt("take_snapshot", map[string]any{})
		a.dt("click", map[string]any{"uid": a.ref(t, `uid=(\S+) button "Save"`)})
		a.dt("wait_for", map[string]any{"text": []string{"Saved"}})
	},
	"form": func(a *agentRun, url string) {
		a.dt("navigate_page", map[string]any{"type": "url", "url": url})
		t := a.dt("take_snapshot", map[string]any{})
		a.dt("fill_form", map[string]any{"elements": []map[string]any{
			{"uid": a.ref(t, `uid=(\S+) textbox "Full name"`), "value": "Ada Lovelace"},
			{"uid": a.ref(t, `uid=(\S+) textbox "Email"`), "value": "ada@example.org"},
			{"uid": a.ref(t, `uid=(\S+) combobox "Country"`), "value": "Japan"},
			{"uid": a.ref(t, `uid=(\S+) checkbox "Newsletter"`), "value": "true"},
		}})
		a.dt("click", map[string]any{"uid": a.ref(t, `uid=(\S+) button "Sign up"`)})
	},
	"archive": func(a *agentRun, url string) {
		a.dt("navigate_page", map[string]any{"type": "url", "url": url})
		t := a.dt("take_snapshot", map[string]any{})
		a.dt("click", map[string]any{"uid": a.ref(t, `Message subject number 57"?[^\n]*\n(?:[^\n]*\n)*?[^\n]*uid=(\S+) button "Archive"`)})
	},
	"dialog": func(a *agentRun, url string) {
		a.dt("navigate_page", map[string]any{"type": "url", "url": url})
		t := a.dt("take_snapshot", map[string]any{})
		a.dt("click", map[string]any{"uid": a.ref(t, `uid=(\S+) button "Delete file"`)})
		a.dt("handle_dialog", map[string]any{"action": "accept"})
	},
	"list": func(a *agentRun, url string) {
		a.dt("navigate_page", map[string]any{"type": "url", "url": url})
		a.dt("evaluate_script", map[string]any{"function": "() => { document.querySelector('#list').scrollTop = 699 * 30; }"})
		t := a.dt("take_snapshot", map[string]any{})
		a.dt("click", map[string]any{"uid": a.ref(t, `uid=(\S+) button "Pick item 700"`)})
	},
	"frame": func(a *agentRun, url string) {
		a.dt("navigate_page", map[string]any{"type": "url", "url": url})
		t := a.dt("take_snapshot", map[string]any{})
		a.dt("click", map[string]any{"uid": a.ref(t, `uid=(\S+) button "Accept terms"`)})
	},
}

func atoi(s string) int { n, _ := strconv.Atoi(s); return n }

// taskResult is one cell of the table.
type taskResult struct {
	Calls   int    `json:"calls"`
	Chars   int    `json:"chars"`
	WallMS  int64  `json:"wall_ms"`
	Correct bool   `json:"correct"`
	Why     string `json:"why,omitempty"`
}

// runTasks is bench/peers -tasks.
func runTasks(o options) error {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if o.waitLoad > 0 {
		waitQuiet(o.waitLoad, o.waitMax, logf)
	}
	load := loadAvg()
	wld, err := startWorld(ctx, o, "understudy-tasks-")
	if err != nil {
		return err
	}
	defer wld.close()
	bin, benchDir, work, srv, br := wld.bin, wld.benchDir, wld.work, wld.srv, wld.br
	var log taskLog
	port := srv.Port()
	srv.Mount("/tasks/", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { log.ServeHTTP(w, r, port) }))
	home := srv.URL(fixture.HostA, "/second.html")
	// freshTab leaves one tab, at home, for the next server.
	freshTab := func() (string, error) {
		id, err := br.NewPage(ctx, home)
		if err != nil {
			return "", err
		}
		if ts, err := br.List(ctx); err == nil {
			for _, t := range ts {
				if t.Type == "page" && t.ID != id {
					_ = br.ClosePage(ctx, t.ID)
				}
			}
		}
		return id, nil
	}
	type entry struct {
		a       func(targetID string) *adapter
		scripts map[string]script
	}
	entries := []entry{
		{func(id string) *adapter {
			a := understudyAdapter(bin, br.Port, id)
			a.name += " (essential)"
			a.argv = append(a.argv, "--tool-profile", "essential")
			return a
		}, understudyScripts},
		{func(string) *adapter {
			return playwrightAdapter(benchDir, br.Port, home, filepath.Join(work, "pw"), false)
		}, playwrightScripts},
		{func(string) *adapter { return devtoolsAdapter(benchDir, br.Port, home) }, devtoolsScripts},
	}
	results := map[string]map[string]*taskResult{}
	var names []string
	for _, en := range entries {
		targetID, err := freshTab()
		if err != nil {
			return err
		}
		ad := en.a(targetID)
		if !selected(o.only, ad.name) {
			continue
		}
		dir := filepath.Join(work, slug(ad.name))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
		s, err := startServer(ctx, ad, dir)
		if err != nil {
			logf("%v", err)
			continue
		}
		names = append(names, ad.name)
		results[ad.name] = map[string]*taskResult{}
		for _, t := range tasks {
			log.take()
			a := &agentRun{s: s}
			start := time.Now()
			en.scripts[t.key](a, srv.URL(fixture.HostA, "/tasks/"+t.page))
			r := &taskResult{Calls: a.calls, Chars: a.chars, WallMS: time.Since(start).Milliseconds()}
			time.Sleep(300 * time.Millisecond) // the page's last report reaches the log
			got := log.take()
			r.Correct = a.err == nil && strings.Join(got, " ") == strings.Join(t.want, " ") && (t.answer == "" || strings.Contains(a.read.String(), t.answer))
			if !r.Correct {
				r.Why = fmt.Sprintf("log %v", got)
				if a.err != nil {
					r.Why = a.err.Error() + "; " + r.Why
				} else if t.answer != "" && !strings.Contains(a.read.String(), t.answer) {
					r.Why += "; the agent never read " + strconv.Quote(t.answer)
				}
			}
			results[ad.name][t.key] = r
			logf("%s %s: %d calls, %d chars, %d ms, correct %v %s", ad.name, t.key, r.Calls, r.Chars, r.WallMS, r.Correct, r.Why)
		}
		s.close()
	}
	md := renderTasks(names, results, load)
	fmt.Print(md)
	if o.md != "" {
		if err := writeFile(strings.Replace(o.md, "peers-latest", "tasks-latest", 1), []byte(md)); err != nil {
			return err
		}
	}
	if o.jsonOut != "" {
		j, _ := json.MarshalIndent(results, "", "  ")
		if err := writeFile(strings.Replace(o.jsonOut, "peers-latest", "tasks-latest", 1), j); err != nil {
			return err
		}
	}
	return nil
}

// renderTasks is the markdown table: per task, each server's calls,
// characters, wall time and correctness, and understudy's ratios to
// Playwright MCP.
func renderTasks(names []string, res map[string]map[string]*taskResult, load string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Task benchmark (bench/peers -tasks), load before %s. Cells: calls / characters returned / wall ms / correct (from the fixture's log).\n\n", load)
	b.WriteString("| task |")
	for _, n := range names {
		b.WriteString(" " + n + " |")
	}
	b.WriteString("\n|---|")
	for range names {
		b.WriteString("---|")
	}
	b.WriteString("\n")
	for _, t := range tasks {
		b.WriteString("| " + t.title + " |")
		for _, n := range names {
			r := res[n][t.key]
			mark := "✓"
			if !r.Correct {
				mark = "✗ " + r.Why
			}
			fmt.Fprintf(&b, " %d / %d / %d / %s |", r.Calls, r.Chars, r.WallMS, mark)
		}
		b.WriteString("\n")
	}
	// Totals and understudy's ratios to Playwright MCP.
	tot := map[string][2]int{}
	right := map[string]int{}
	for _, n := range names {
		for _, t := range tasks {
			r := res[n][t.key]
			v := tot[n]
			v[0] += r.Calls
			v[1] += r.Chars
			tot[n] = v
			if r.Correct {
				right[n]++
			}
		}
	}
	b.WriteString("| **total** |")
	for _, n := range names {
		fmt.Fprintf(&b, " %d / %d / — / %d of %d |", tot[n][0], tot[n][1], right[n], len(tasks))
	}
	b.WriteString("\n")
	var u, pw string
	for _, n := range names {
		if strings.HasPrefix(n, "understudy") {
			u = n
		}
		if strings.HasPrefix(n, "@playwright/mcp") {
			pw = n
		}
	}
	if u != "" && pw != "" && tot[pw][0] > 0 && tot[pw][1] > 0 {
		fmt.Fprintf(&b, "\nunderstudy / Playwright MCP: calls %.2f×, characters %.2f× (targets: ≤ 1×, ≤ 0.4×).\n",
			float64(tot[u][0])/float64(tot[pw][0]), float64(tot[u][1])/float64(tot[pw][1]))
	}
	return b.String()
}
