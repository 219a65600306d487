// Command peers runs understudy and peer MCP servers side by side on one
// Chromium and one page, and prints what each costs: the time and size of a
// full text snapshot, one element read, one click by ref on an off-screen
// row, what an agent reads to see the change after a checkbox click, and the
// servers' memory. The peers are the npm packages pinned in bench/package.json
// (@playwright/mcp and chrome-devtools-mcp); bench/run.sh installs them and
// runs this program. Results go to stdout and to a markdown file.
//
// Every server gets the same tab of the same browser: the fixture's
// a.test/large.html (300 table rows with a checkbox and an Edit button each,
// a 20-field form). Calls are timed on the client side, from the MCP request
// to the decoded response, so the stdio round trip is included for everyone.
// Rounds interleave the servers (the order rotates each round) so that a
// burst of load from other work on the machine falls on all of them alike.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/understudy-dev/understudy/internal/fixture"
	"github.com/understudy-dev/understudy/internal/fixture/chromiumtest"
)

// clickRow is the row whose Edit button is clicked: far below the viewport
// once the page is scrolled to the top.
const clickRow = 250

// checkRow is the row whose checkbox is clicked before the change is read.
const checkRow = 3

type options struct {
	n        int
	warmup   int
	bin      string
	benchDir string
	md       string
	jsonOut  string
	only     string
	waitLoad float64
	waitMax  time.Duration
	dump     string
	idle     time.Duration
	tasks    bool
}

func main() {
	var o options
	flag.IntVar(&o.n, "n", 20, "timed calls per measurement and server (the median is reported)")
	flag.IntVar(&o.warmup, "warmup", 2, "untimed calls per measurement and server before the timed ones")
	flag.StringVar(&o.bin, "bin", "bin/understudy", "the understudy binary")
	flag.StringVar(&o.benchDir, "bench-dir", "bench", "the folder whose node_modules holds the peers")
	flag.StringVar(&o.md, "md", "bench/results/peers-latest.md", "write the markdown report here (empty: don't)")
	flag.StringVar(&o.jsonOut, "json", "bench/results/peers-latest.json", "write every sample here (empty: don't)")
	flag.StringVar(&o.only, "only", "", "comma-separated servers to run, by a part of the name: understudy, playwright, settle, devtools (default all)")
	flag.Float64Var(&o.waitLoad, "wait-load", 1.5, "wait for the 1-minute load average to drop below this before starting (0: don't wait)")
	flag.DurationVar(&o.waitMax, "wait-max", 3*time.Minute, "give up waiting for a quiet machine after this long")
	flag.StringVar(&o.dump, "dump", "", "write the last response of every measurement and server into this folder")
	flag.DurationVar(&o.idle, "idle", 200*time.Millisecond, "pause before each server's turn in a round and between a click's page reset and the click, so every call meets a page and a machine at rest (an agent's call comes long after the page last changed)")
	flag.BoolVar(&o.tasks, "tasks", false, "run the task benchmark instead: six agent tasks per server, correctness from the fixture's log (tasks.go)")
	flag.Parse()
	runner := run
	if o.tasks {
		runner = runTasks
	}
	if err := runner(o); err != nil {
		fmt.Fprintln(os.Stderr, "peers:", err)
		os.Exit(1)
	}
}

func logf(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "peers: "+format+"\n", args...)
}

// measure holds the samples of one measurement of one server.
type measure struct {
	Durs     []time.Duration `json:"durations_ns"`
	Chars    []int           `json:"chars"`
	Body     []int           `json:"body_chars,omitempty"`
	Fails    int             `json:"fails"`
	LastErr  string          `json:"last_error,omitempty"`
	Verified int             `json:"verified,omitempty"` // clicks whose effect was seen
	Skipped  string          `json:"skipped,omitempty"`  // why it was not measured

	last string // the last response, for -dump
}

func (m *measure) add(r result, body string) {
	m.last = r.text
	if r.err != nil {
		m.Fails++
		m.LastErr = failCode(r.err)
		return
	}
	m.Durs = append(m.Durs, r.d)
	m.Chars = append(m.Chars, r.chars())
	if body != "" {
		m.Body = append(m.Body, len([]rune(body)))
	}
}

func (m *measure) fail(err error) {
	m.Fails++
	m.LastErr = failCode(err)
}

// ok reports a measurement with at least one good sample.
func (m *measure) ok() bool { return m != nil && len(m.Durs) > 0 }

// serverResult is everything measured of one server.
type serverResult struct {
	Name         string              `json:"name"`
	Version      string              `json:"version"`
	Measures     map[string]*measure `json:"measures"`
	Present      int                 `json:"interactive_present"`
	Missing      []string            `json:"interactive_missing,omitempty"`
	RSSMiB       float64             `json:"rss_mib"`
	Procs        int                 `json:"processes"`
	PeakMiB      float64             `json:"peak_rss_main_mib"`
	Calls        map[string]string   `json:"calls"`
	StartupError string              `json:"startup_error,omitempty"`
}

func (r *serverResult) m(key string) *measure {
	if r.Measures[key] == nil {
		r.Measures[key] = &measure{}
	}
	return r.Measures[key]
}

// report is one run.
type report struct {
	Date        time.Time       `json:"date"`
	LoadBefore  string          `json:"load_before"`
	LoadAfter   string          `json:"load_after"`
	WaitedQuiet bool            `json:"quiet_before_start"`
	Idle        string          `json:"idle,omitempty"`
	Cores       int             `json:"cores"`
	Chromium    string          `json:"chromium"`
	Node        string          `json:"node"`
	Commit      string          `json:"commit"` // HEAD of the tree understudy was built from
	N           int             `json:"n"`
	PageURL     string          `json:"page"`
	Servers     []*serverResult `json:"servers"`
}

func run(o options) error {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()

	rep := &report{N: o.n, Cores: runtime.NumCPU(), Node: command("node", "--version"),
		Commit: command("git", "rev-parse", "--short", "HEAD")}
	if o.waitLoad > 0 {
		rep.WaitedQuiet = waitQuiet(o.waitLoad, o.waitMax, logf)
	}
	if o.idle > 0 {
		rep.Idle = o.idle.String()
	}
	rep.Date = time.Now()
	rep.LoadBefore = loadAvg()
	logf("load average %s", rep.LoadBefore)

	w, err := startWorld(ctx, o, "understudy-peers-")
	if err != nil {
		return err
	}
	defer w.close()
	bin, benchDir, work, srv, br := w.bin, w.benchDir, w.work, w.srv, w.br
	rep.Chromium = browserVersion(ctx, br.HTTPURL)
	rep.PageURL = srv.URL(fixture.HostA, "/large.html")

	targetID, err := br.NewPage(ctx, rep.PageURL)
	if err != nil {
		return err
	}
	// Leave only the shared tab, so every server sees the same single page.
	if ts, err := br.List(ctx); err == nil {
		for _, t := range ts {
			if t.Type == "page" && t.ID != targetID {
				_ = br.ClosePage(ctx, t.ID)
			}
		}
	}
	pg, err := dialPage(ctx, br.Port, targetID)
	if err != nil {
		return err
	}
	defer pg.close()
	if err := pg.waitReady(ctx); err != nil {
		return err
	}

	adapters := []*adapter{
		understudyAdapter(bin, br.Port, targetID),
		playwrightAdapter(benchDir, br.Port, rep.PageURL, filepath.Join(work, "playwright-output"), false),
		playwrightAdapter(benchDir, br.Port, rep.PageURL, filepath.Join(work, "playwright-settle0-output"), true),
		devtoolsAdapter(benchDir, br.Port, rep.PageURL),
	}
	var servers []*server
	for _, a := range adapters {
		if !selected(o.only, a.name) {
			continue
		}
		res := &serverResult{Name: a.name, Version: a.version, Measures: map[string]*measure{}, Calls: map[string]string{
			"snapshot": a.snapshotDesc, "read": a.readDesc, "click": a.clickDesc, "change": a.changeDesc,
		}}
		rep.Servers = append(rep.Servers, res)
		dir := filepath.Join(work, slug(a.name))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
		s, err := startServer(ctx, a, dir)
		if err != nil {
			res.StartupError = err.Error()
			logf("%v", err)
			continue
		}
		defer s.close()
		servers = append(servers, s)
		logf("%s %s started (pid %d)", a.name, a.version, s.pid())
	}
	results := map[string]*serverResult{}
	for _, r := range rep.Servers {
		results[r.Name] = r
	}

	b := &bench{o: o, ctx: ctx, page: pg, servers: servers, results: results}
	b.pings()
	b.snapshots()
	b.reads()
	b.clicks()
	b.expectText()
	b.changes()
	for _, s := range servers {
		r := results[s.name]
		r.RSSMiB, r.Procs = treeRSS(s.pid())
		r.PeakMiB, _ = statusKB(s.pid(), "VmHWM:")
		r.PeakMiB /= 1024
	}
	rep.LoadAfter = loadAvg()
	if o.dump != "" {
		if err := dump(o.dump, rep); err != nil {
			return err
		}
	}

	md := renderMarkdown(rep)
	fmt.Print(md)
	if o.md != "" {
		if err := writeFile(o.md, []byte(md)); err != nil {
			return err
		}
		logf("wrote %s", o.md)
	}
	if o.jsonOut != "" {
		j, err := json.MarshalIndent(rep, "", "  ")
		if err != nil {
			return err
		}
		if err := writeFile(o.jsonOut, j); err != nil {
			return err
		}
		logf("wrote %s", o.jsonOut)
	}
	return nil
}

// world is what a run needs: the understudy binary and the peers' folder
// (absolute), a scratch folder, the fixture server and a Chromium.
type world struct {
	bin, benchDir, work string
	srv                 *fixture.Server
	br                  *chromiumtest.Browser
	closers             []func()
}

// startWorld starts the fixture server and Chromium; close ends them and
// removes the scratch folder.
func startWorld(ctx context.Context, o options, scratch string) (*world, error) {
	w := &world{}
	var err error
	if w.bin, err = filepath.Abs(o.bin); err != nil {
		return nil, err
	}
	if w.benchDir, err = filepath.Abs(o.benchDir); err != nil {
		return nil, err
	}
	if w.work, err = os.MkdirTemp("", scratch); err != nil {
		return nil, err
	}
	w.closers = append(w.closers, func() { _ = os.RemoveAll(w.work) })
	if w.srv, err = fixture.Serve(ctx); err != nil {
		w.close()
		return nil, err
	}
	w.closers = append(w.closers, func() { _ = w.srv.Close() })
	br, stop, err := chromiumtest.StartForMain()
	if err != nil {
		w.close()
		return nil, fmt.Errorf("start Chromium: %w", err)
	}
	w.br = br
	w.closers = append(w.closers, stop)
	return w, nil
}

// close ends what startWorld started, last first.
func (w *world) close() {
	for i := len(w.closers) - 1; i >= 0; i-- {
		w.closers[i]()
	}
}

// bench runs the measurements over the started servers.
type bench struct {
	o       options
	ctx     context.Context
	page    *page
	servers []*server
	results map[string]*serverResult
}

// rounds calls f n times for every server, rotating the order each round.
func (b *bench) rounds(n int, f func(s *server)) {
	for i := range n {
		for j := range b.servers {
			if b.o.idle > 0 {
				time.Sleep(b.o.idle)
			}
			f(b.servers[(i+j)%len(b.servers)])
		}
	}
}

func (b *bench) warm(f func(s *server)) {
	for range b.o.warmup {
		for _, s := range b.servers {
			f(s)
		}
	}
}

// pings: the MCP ping request, the floor of any call over this transport.
func (b *bench) pings() {
	logf("ping: %d calls per server", b.o.n)
	b.warm(func(s *server) { s.ping() })
	b.rounds(b.o.n, func(s *server) { b.results[s.name].m("ping").add(s.ping(), "") })
}

// snapshots: the full text snapshot, time and size, and whether every
// interactive element of the page is in it.
func (b *bench) snapshots() {
	logf("snapshot: %d calls per server", b.o.n)
	b.warm(func(s *server) { s.do(s.snapshot(s)) })
	last := map[string]string{}
	b.rounds(b.o.n, func(s *server) {
		r := s.do(s.snapshot(s))
		body := ""
		if r.err == nil {
			body = s.body(r.text)
			last[s.name] = body
		}
		b.results[s.name].m("snapshot").add(r, body)
	})
	for _, s := range b.servers {
		res := b.results[s.name]
		res.Present, res.Missing = completeness(last[s.name])
	}
}

// reads: one element's text.
func (b *bench) reads() {
	logf("read: %d calls per server", b.o.n)
	want, err := b.page.status(b.ctx)
	if err != nil {
		logf("read: %v", err)
	}
	one := func(s *server, key string) {
		r := s.do(s.read(s))
		if r.err == nil && !strings.Contains(r.text, want) {
			r.err = fmt.Errorf("read returned %q, want %q", firstLine(r.text), want)
		}
		b.results[s.name].m(key).add(r, "")
	}
	b.warm(func(s *server) { s.do(s.read(s)) })
	b.rounds(b.o.n, func(s *server) { one(s, "read") })
	// The same calls back to back: one server's n reads in a row, so its
	// process, sockets and caches stay warm between calls.
	logf("read back to back: %d calls per server", b.o.n)
	for _, s := range b.servers {
		for range b.o.n {
			one(s, "read-burst")
		}
	}
}

// clicks: the Edit button of an off-screen row, by the ref of a snapshot
// taken before; the page is scrolled back to the top before every click.
func (b *bench) clicks() {
	logf("click: %d calls per server (row %d, off-screen)", b.o.n, clickRow)
	refs := map[string]string{}
	for _, s := range b.servers {
		m, again := b.results[s.name].m("click"), b.results[s.name].m("click-inview")
		r := s.do(s.snapshot(s))
		if r.err != nil {
			m.Skipped = "snapshot for the ref failed: " + failCode(r.err)
			again.Skipped = m.Skipped
			continue
		}
		ref, err := s.editRef(r.text, clickRow)
		if err != nil {
			m.Skipped = err.Error()
			again.Skipped = m.Skipped
			continue
		}
		refs[s.name] = ref
	}
	// one clicks once; scrolled scrolls the page back to the top first, so
	// the row is off-screen, else the row stays where the last click left it.
	one := func(s *server, timed, scrolled bool) {
		ref, ok := refs[s.name]
		if !ok {
			return
		}
		key := "click"
		if !scrolled {
			key = "click-inview"
		}
		m := b.results[s.name].m(key)
		off, err := b.page.resetForClick(b.ctx, clickRow, scrolled)
		if err != nil {
			m.fail(err)
			return
		}
		if off != scrolled {
			m.fail(fmt.Errorf("row %d: off-screen %v before the click, want %v", clickRow, off, scrolled))
			return
		}
		if b.o.idle > 0 {
			time.Sleep(b.o.idle)
		}
		r := s.do(s.click(s, ref))
		if !timed {
			return
		}
		if r.err == nil {
			want := fmt.Sprintf("Editing Item %d", clickRow)
			if got, err := b.page.status(b.ctx); err != nil || got != want {
				r.err = fmt.Errorf("click had no effect: #status is %q, want %q", got, want)
			} else {
				m.Verified++
			}
		}
		m.add(r, "")
	}
	b.warm(func(s *server) { one(s, false, true) })
	b.rounds(b.o.n, func(s *server) { one(s, true, true) })
	logf("click again, row %d already in view: %d calls per server", clickRow, b.o.n)
	b.rounds(b.o.n, func(s *server) {
		one(s, false, true) // bring the row into view with a click of its own
		one(s, true, false)
	})
}

// expectText: electron_expect_text on a text that already holds, ours only
// and only when the tool exists.
func (b *bench) expectText() {
	for _, s := range b.servers {
		if s.name != "understudy" {
			continue
		}
		m := b.results[s.name].m("expect")
		t := s.tools["electron_expect_text"]
		if t == nil {
			m.Skipped = "electron_expect_text is not in the tool list yet"
			logf("expect_text: %s", m.Skipped)
			return
		}
		want, err := b.page.status(b.ctx)
		if err != nil {
			m.Skipped = err.Error()
			return
		}
		logf("expect_text: %d calls", b.o.n)
		c := call{"electron_expect_text", map[string]any{"selector": "#status", "equals": want}}
		for range b.o.warmup {
			s.do(c)
		}
		for range b.o.n {
			m.add(s.do(c), "")
		}
	}
}

// changes: what an agent reads to learn what one checkbox click changed.
// Before each server's turn the page is reloaded, so every server starts
// from the same pristine page; then a full snapshot (size kept as "full"),
// a click on the checkbox by ref, and the server's way to see the change.
func (b *bench) changes() {
	logf("change after a checkbox click: %d rounds per server", b.o.n)
	b.rounds(b.o.n, func(s *server) {
		res := b.results[s.name]
		full, change := res.m("full"), res.m("change")
		if err := b.page.reload(b.ctx); err != nil {
			change.fail(err)
			return
		}
		r := s.do(s.snapshot(s))
		full.add(r, bodyOf(s, r))
		if r.err != nil {
			change.fail(fmt.Errorf("snapshot: %w", r.err))
			return
		}
		ref, err := s.checkboxRef(r.text, checkRow)
		if err != nil {
			change.fail(err)
			return
		}
		c := s.do(s.click(s, ref))
		if c.err != nil {
			change.fail(fmt.Errorf("click: %w", c.err))
			return
		}
		var checked bool
		if err := b.page.eval(b.ctx, fmt.Sprintf("document.querySelector('#sel-%d').checked", checkRow), &checked); err != nil || !checked {
			change.fail(fmt.Errorf("the checkbox click had no effect"))
			return
		}
		switch s.name {
		case "understudy":
			d := s.do(call{"electron_snapshot", map[string]any{"format": "text", "since": "last"}})
			change.add(d, bodyOf(s, d))
		default:
			d := s.do(s.snapshot(s))
			change.add(d, bodyOf(s, d))
		}
	})
}

func bodyOf(s *server, r result) string {
	if r.err != nil {
		return ""
	}
	return s.body(r.text)
}

// completeness counts the page's interactive elements present in a snapshot
// body: 20 nav links, 300 checkboxes, 300 Edit buttons, the form's 22
// controls, the header's button and input, Save, Shuffle and the footer link.
func completeness(body string) (int, []string) {
	present := 0
	var missing []string
	check := func(ok bool, what string) {
		if ok {
			present++
		} else {
			missing = append(missing, what)
		}
	}
	for _, name := range navLinks {
		check(strings.Contains(body, `link "`+name+`"`), "link "+name)
	}
	check(strings.Contains(body, `link "Back to top page"`), "link Back to top page")
	for _, name := range []string{"Click large", "Save profile", "Shuffle"} {
		check(strings.Contains(body, `button "`+name+`"`), "button "+name)
	}
	for _, name := range []string{"Free", "Pro", "Team"} {
		check(strings.Contains(body, `radio "`+name+`"`), "radio "+name)
	}
	check(strings.Contains(body, `checkbox "Subscribe to newsletter"`), "checkbox Subscribe to newsletter")
	for _, name := range fields {
		check(hasControl(body, name), "field "+name)
	}
	for i := 1; i <= 300; i++ {
		check(strings.Contains(body, fmt.Sprintf(`checkbox "Select Item %d"`, i)), fmt.Sprintf("checkbox %d", i))
	}
	edits := min(strings.Count(body, `button "Edit"`), 300)
	for i := range 300 {
		check(i < edits, fmt.Sprintf("Edit button %d", i+1))
	}
	return present, missing
}

var navLinks = []string{"Dashboard", "Inbox", "Calendar", "Contacts", "Projects", "Tasks", "Documents",
	"Reports", "Analytics", "Billing", "Invoices", "Customers", "Suppliers", "Inventory", "Shipping",
	"Returns", "Team", "Settings", "Help", "Sign out"}

// fields are the text-like controls, named by their labels; their roles
// differ between servers (textbox, combobox, spinbutton, slider, …).
var fields = []string{"Input large", "Full name", "Email", "Age", "Country", "Bio", "Account ID", "Phone",
	"Website", "Password", "Birthday", "Search items", "Role", "Quantity", "City", "Postal code",
	"Timezone", "Volume", "Notes"}

// notControls are roles that name text, not a control.
var notControls = []string{"heading", "region", "generic", "paragraph", "cell", "row", "text", "StaticText",
	"LabelText", "caption", "group", "list", "listitem", "navigation", "status", "option", "columnheader"}

// hasControl reports `ROLE "name"` with a role that is a control.
func hasControl(body, name string) bool {
	q := ` "` + name + `"`
	for i := 0; ; {
		j := strings.Index(body[i:], q)
		if j < 0 {
			return false
		}
		at := i + j
		k := at
		for k > 0 && isLetter(body[k-1]) {
			k--
		}
		if role := body[k:at]; role != "" && !slices.Contains(notControls, role) {
			return true
		}
		i = at + len(q)
	}
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

func selected(only, name string) bool {
	if only == "" {
		return true
	}
	for _, w := range strings.Split(only, ",") {
		w = strings.TrimSpace(w)
		if w != "" && strings.Contains(name, w) {
			return true
		}
	}
	return false
}

func browserVersion(ctx context.Context, httpURL string) string {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, httpURL+"/json/version", nil)
	if err != nil {
		return "unknown"
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return "unknown"
	}
	defer resp.Body.Close()
	var v struct {
		Browser string `json:"Browser"`
	}
	b, _ := io.ReadAll(resp.Body)
	if json.Unmarshal(b, &v) != nil || v.Browser == "" {
		return "unknown"
	}
	return v.Browser
}

func command(name string, args ...string) string {
	out, err := exec.Command(name, args...).Output()
	if err != nil {
		return "not found"
	}
	return strings.TrimSpace(string(out))
}

func writeFile(path string, b []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, b, 0o644)
}

// dump writes the last response of every measurement, one file each.
func dump(dir string, rep *report) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, r := range rep.Servers {
		for key, m := range r.Measures {
			name := slug(r.Name) + "-" + key + ".txt"
			if err := os.WriteFile(filepath.Join(dir, name), []byte(m.last), 0o644); err != nil {
				return err
			}
		}
	}
	return nil
}

// slug turns a server name into a file name: letters, digits and dashes.
func slug(name string) string {
	var b strings.Builder
	dash := false
	for _, c := range strings.TrimPrefix(name, "@") {
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' {
			b.WriteRune(c)
			dash = false
		} else if !dash {
			b.WriteByte('-')
			dash = true
		}
	}
	return strings.Trim(b.String(), "-")
}
