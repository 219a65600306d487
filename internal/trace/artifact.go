package trace

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/understudy-dev/understudy/internal/errs"
	"github.com/understudy-dev/understudy/internal/files"
)

// Format names the artifact; Version is its schema version.
const (
	Format  = "understudy-trace"
	Version = 1
	// HeaderFile is the artifact's index inside its folder.
	HeaderFile = "trace.json"
	// maxResultBytes bounds a step's recorded result envelope.
	maxResultBytes = 64 << 10
	// DefaultMaxSteps bounds the steps written; later calls are counted only.
	DefaultMaxSteps = 10000
)

// Header is trace.json. Footer fields are set when the recording stops.
type Header struct {
	Format        string    `json:"format"`
	Version       int       `json:"version"`
	StartedAt     time.Time `json:"started_at"`
	ServerVersion string    `json:"server_version,omitempty"`
	Screenshots   bool      `json:"screenshots"`
	Budget        *Budget   `json:"budget,omitempty"`

	Complete  bool       `json:"complete"`
	StoppedAt *time.Time `json:"stopped_at,omitempty"`
	Steps     int        `json:"steps,omitempty"`
	Dropped   int        `json:"dropped,omitempty"`
	Spent     int        `json:"spent_tokens,omitempty"`
}

// Budget is a token budget set at trace_start.
type Budget struct {
	Tokens        int     `json:"budget_tokens"`
	Enforce       bool    `json:"enforce"`
	WarnThreshold float64 `json:"warn_threshold"`
}

// Frame is one <iframe> on the way from a window to a surface: the CSS
// selector of the iframe element in its parent document.
type Frame struct {
	Selector string `json:"selector"`
}

// Place says where a surface is: its window (the page or webview target that
// takes its input) and the iframes from that window down to it.
type Place struct {
	SurfaceID string  `json:"surface_id"`
	Kind      string  `json:"kind,omitempty"`
	URL       string  `json:"url,omitempty"`
	WindowID  string  `json:"window_id,omitempty"`
	WindowURL string  `json:"window_url,omitempty"`
	Frames    []Frame `json:"frames,omitempty"`
}

// Target is what a ref argument named when the call was made.
type Target struct {
	Ref   int    `json:"ref"`
	Role  string `json:"role"`
	Name  string `json:"name"`
	Place *Place `json:"place,omitempty"`
}

// Step is one recorded tool call.
type Step struct {
	Seq       int             `json:"seq"`
	Tool      string          `json:"tool"`
	Args      json.RawMessage `json:"args"`
	OK        bool            `json:"ok"`
	Code      string          `json:"code,omitempty"`
	Error     string          `json:"error,omitempty"`
	Result    json.RawMessage `json:"result,omitempty"`
	Truncated bool            `json:"result_truncated,omitempty"`
	StartedAt time.Time       `json:"started_at"`
	ElapsedMS int64           `json:"elapsed_ms"`
	Tokens    int             `json:"estimated_tokens"`
	SessionID string          `json:"session_id,omitempty"`
	// Surface is the active surface when the call started.
	Surface *Place `json:"surface,omitempty"`
	// Targets maps a ref argument ("ref", "targetRef") to what it named.
	Targets map[string]Target `json:"targets,omitempty"`
	// Screenshot is the file (relative to the artifact) taken after the call.
	Screenshot string `json:"screenshot,omitempty"`
	// Console lists console messages seen since the previous step.
	Console []string `json:"console,omitempty"`
	// Network lists the requests that finished since the previous step
	// (method, status, URL, type, time, surface), while the session's
	// network capture is on.
	Network []string `json:"network,omitempty"`
	// Checks are a promoted spec's result checks (never in a trace).
	Checks []*Check `json:"-"`
}

// Options configure a recording.
type Options struct {
	ServerVersion string
	Screenshots   bool
	Budget        *Budget
	MaxSteps      int
}

// writeQueue bounds the steps waiting for the writer; a call that finds it
// full waits (no step is dropped).
const writeQueue = 64

// coalesce is how long the writer gathers steps before it writes them, as
// one file, and maxBatch how many it gathers at most: creating a file is
// the costly part of a step's write (about 0.4 ms of kernel time on ext4),
// so a busy session writes a file every coalesce, not one per call. A
// killed server loses at most the steps of the last coalesce.
const (
	coalesce = 50 * time.Millisecond
	maxBatch = 64
)

// pendingStep is a step on its way to disk.
type pendingStep struct {
	st   Step
	shot []byte
}

// Recorder writes one trace. It is safe for concurrent use. Steps are
// written by a goroutine the recorder owns, so a traced call does not wait
// for its redaction, encoding and file writes; the steps gathered in one
// coalesce go into one file (steps/NNNNNN.json for one step,
// steps/NNNNNN-MMMMMM.json for several), written through a temporary file
// and a rename, so a killed server leaves every file that reached the
// disk whole. Stop and Abort drain the queue and end the goroutine.
type Recorder struct {
	dir string
	out *files.Dir

	mu      sync.Mutex
	header  Header
	seq     int
	written int
	tokens  Tokens
	failed  error // the first write failure
	max     int
	ended   bool // Stop or Abort ran: Add only counts

	queue   chan pendingStep
	senders sync.WaitGroup     // Adds between their check of ended and their send
	flushes chan chan struct{} // Flush asks the writer to write what it has now
	done    chan struct{}      // closed when the writer ends
}

// Start records into dir, a new folder the one writer made for it
// (files.Roots.MakeDir): it creates steps/ and shots/ and writes the header.
func Start(dir *files.Dir, o Options) (*Recorder, error) {
	for _, sub := range []string{"steps", "shots"} {
		if err := dir.Mkdir(sub); err != nil {
			return nil, err
		}
	}
	r := &Recorder{dir: dir.Path(), out: dir, max: o.MaxSteps, tokens: newTokens()}
	if r.max <= 0 {
		r.max = DefaultMaxSteps
	}
	r.header = Header{Format: Format, Version: Version, StartedAt: time.Now().UTC(), ServerVersion: o.ServerVersion,
		Screenshots: o.Screenshots, Budget: o.Budget}
	if err := r.writeJSON(HeaderFile, r.header); err != nil {
		return nil, err
	}
	r.queue, r.flushes, r.done = make(chan pendingStep, writeQueue), make(chan chan struct{}), make(chan struct{})
	go r.writeLoop()
	return r, nil
}

// writeLoop gathers queued steps for up to coalesce (or maxBatch steps)
// and writes them, until the queue closes; a Flush writes at once.
func (r *Recorder) writeLoop() {
	defer close(r.done)
	var batch []pendingStep
	timer := time.NewTimer(coalesce)
	timer.Stop()
	write := func() {
		timer.Stop()
		if len(batch) > 0 {
			r.write(batch)
			batch = nil
		}
	}
	for {
		select {
		case p, ok := <-r.queue:
			if !ok {
				write()
				return
			}
			if len(batch) == 0 {
				timer.Reset(coalesce)
			}
			batch = append(batch, p)
			if len(batch) >= maxBatch {
				write()
			}
		case <-timer.C:
			write()
		case ack := <-r.flushes:
			closed := false
		drain:
			for {
				select {
				case p, ok := <-r.queue:
					if !ok {
						closed = true
						break drain
					}
					batch = append(batch, p)
				default:
					break drain
				}
			}
			write()
			close(ack)
			if closed {
				return
			}
		}
	}
}

// Dir is the artifact folder.
func (r *Recorder) Dir() string { return r.dir }

// Screenshots reports whether steps take a screenshot after actions.
func (r *Recorder) Screenshots() bool { return r.header.Screenshots }

// Next reserves the next step number.
func (r *Recorder) Next() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.seq++
	return r.seq
}

// Add queues step (its Seq from Next) and, when given, its screenshot, for
// the writer. st.Result is the call's envelope as it was answered: the
// writer redacts it (Redact) before it reaches the disk. Past the step cap,
// or after Stop, the step is only counted. A write failure is kept and
// reported by Stop.
func (r *Recorder) Add(st Step, shot []byte) {
	r.mu.Lock()
	r.tokens.add(st.Seq, st.Tool, st.Tokens)
	if r.ended || r.written >= r.max {
		r.header.Dropped++
		r.mu.Unlock()
		return
	}
	r.written++
	r.senders.Add(1)
	r.mu.Unlock()
	r.queue <- pendingStep{st: st, shot: shot}
	r.senders.Done()
}

// Flush waits until every step added before it is on disk.
func (r *Recorder) Flush() {
	ack := make(chan struct{})
	select {
	case r.flushes <- ack:
		<-ack
	case <-r.done:
	}
}

// end stops taking steps and waits for the writer to write those queued.
func (r *Recorder) end() {
	r.mu.Lock()
	already := r.ended
	r.ended = true
	r.mu.Unlock()
	if already {
		<-r.done
		return
	}
	r.senders.Wait()
	close(r.queue)
	<-r.done
}

// Abort ends the recording without its footer, as a killed server would
// leave it (the trace opens as incomplete), after writing what is queued.
func (r *Recorder) Abort() { r.end() }

// write puts gathered steps on disk: each one's screenshot, then the steps
// (in seq order) as one file named after their first and last seq.
func (r *Recorder) write(batch []pendingStep) {
	steps := make([]Step, 0, len(batch))
	var err error
	for _, p := range batch {
		st := p.st
		if len(st.Result) > maxResultBytes {
			st.Result, st.Truncated = nil, true
		} else {
			st.Result = Redact(st.Result)
		}
		if len(p.shot) > 0 && err == nil {
			name := filepath.Join("shots", stepName(st.Seq)+".png")
			if err = r.out.Write(name, p.shot); err == nil {
				st.Screenshot = name
			}
		}
		steps = append(steps, st)
	}
	slices.SortFunc(steps, func(a, b Step) int { return a.Seq - b.Seq })
	if err == nil {
		if len(steps) == 1 {
			err = r.writeJSON("steps/"+stepName(steps[0].Seq)+".json", steps[0])
		} else {
			name := stepName(steps[0].Seq) + "-" + stepName(steps[len(steps)-1].Seq) + ".json"
			err = r.writeJSON("steps/"+name, steps)
		}
	}
	if err != nil {
		r.mu.Lock()
		if r.failed == nil {
			r.failed = err
		}
		r.mu.Unlock()
	}
}

// Spent is the estimated tokens of every call so far (dropped ones too).
func (r *Recorder) Spent() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.tokens.Total
}

// Budget returns the budget's status, or nil without a budget.
func (r *Recorder) Budget() *BudgetStatus {
	r.mu.Lock()
	defer r.mu.Unlock()
	return budgetStatus(r.header.Budget, r.tokens.Total)
}

// Status is the live state of a recording.
type Status struct {
	Path    string        `json:"path"`
	Steps   int           `json:"steps"`
	Dropped int           `json:"dropped"`
	Spent   int           `json:"spent_tokens"`
	Budget  *BudgetStatus `json:"budget,omitempty"`
}

// Status reports the recording's progress.
func (r *Recorder) Status() Status {
	r.mu.Lock()
	defer r.mu.Unlock()
	return Status{Path: r.dir, Steps: r.written, Dropped: r.header.Dropped, Spent: r.tokens.Total,
		Budget: budgetStatus(r.header.Budget, r.tokens.Total)}
}

// TokenReport is the token summary of the live recording.
func (r *Recorder) TokenReport() Tokens {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.tokens.clone()
}

// Stop writes the footer (complete:true) and returns the final status.
func (r *Recorder) Stop() (Status, error) {
	r.end()
	r.mu.Lock()
	now := time.Now().UTC()
	r.header.Complete = true
	r.header.StoppedAt = &now
	r.header.Steps = r.written
	r.header.Spent = r.tokens.Total
	h := r.header
	failed := r.failed
	r.mu.Unlock()
	st := r.Status()
	if failed != nil {
		return st, errs.Wrap(errs.TraceWriteFailed, failed, "a step of the trace could not be written; the trace stays incomplete")
	}
	return st, r.writeJSON(HeaderFile, h)
}

func stepName(seq int) string { return fmt.Sprintf("%06d", seq) }

// writeJSON writes v to the file name of the trace folder through a
// temporary file and a rename.
func (r *Recorder) writeJSON(name string, v any) error {
	b, err := json.MarshalIndent(v, "", " ")
	if err != nil {
		return errs.Wrap(errs.TraceWriteFailed, err, "encoding "+name)
	}
	return r.out.Write(name, b)
}

// Trace is an artifact read back.
type Trace struct {
	Dir    string
	Header Header
	Steps  []Step
	// Complete is false for a recording that never stopped (a killed
	// server); StoppedAfter is then the last step it wrote.
	Complete     bool
	StoppedAfter int
	// Normalize is a spec's list of what result checks do not compare.
	Normalize []string
}

// maxLoadSteps bounds what Load reads.
const maxLoadSteps = 100000

// Load reads the artifact in dir (or the folder of dir's trace.json).
func Load(path string) (*Trace, error) {
	dir := path
	if filepath.Base(path) == HeaderFile {
		dir = filepath.Dir(path)
	}
	b, err := os.ReadFile(filepath.Join(dir, HeaderFile))
	if err != nil {
		if os.IsNotExist(err) {
			return nil, errs.New(errs.TraceNotFound, "no trace at %s (no %s)", path, HeaderFile).With("field", "path")
		}
		return nil, errs.Wrap(errs.TraceInvalid, err, "reading "+path)
	}
	t := &Trace{Dir: dir}
	if err := json.Unmarshal(b, &t.Header); err != nil {
		return nil, errs.New(errs.TraceInvalid, "%s: %s is not JSON: %v", path, HeaderFile, err).With("field", "path")
	}
	if t.Header.Format != Format || t.Header.Version != Version {
		return nil, errs.New(errs.TraceInvalid, "%s: not an %s v%d artifact (format %q, version %d)", path, Format, Version, t.Header.Format, t.Header.Version).With("field", "path")
	}
	ents, err := os.ReadDir(filepath.Join(dir, "steps"))
	if err != nil {
		return nil, errs.New(errs.TraceInvalid, "%s: no steps folder: %v", path, err).With("field", "path")
	}
	var names []string
	for _, e := range ents {
		n := e.Name()
		if strings.HasPrefix(n, ".") { // a write cut off by a kill (the one writer's temporary file)
			continue
		}
		if !strings.HasSuffix(n, ".json") {
			return nil, errs.New(errs.TraceInvalid, "%s: unexpected file steps/%s", path, n).With("field", "path")
		}
		names = append(names, n)
	}
	bad := func(n string) error {
		return errs.New(errs.TraceInvalid, "%s: steps/%s is not a step of this trace", path, n).With("field", "path")
	}
	seen := map[int]bool{}
	for _, n := range names {
		first, last, ok := stepRange(n)
		if !ok {
			return nil, errs.New(errs.TraceInvalid, "%s: unexpected file steps/%s", path, n).With("field", "path")
		}
		b, err := os.ReadFile(filepath.Join(dir, "steps", n))
		if err != nil {
			return nil, errs.Wrap(errs.TraceInvalid, err, "reading steps/"+n)
		}
		var steps []Step
		if first == last {
			var st Step
			if json.Unmarshal(b, &st) != nil {
				return nil, bad(n)
			}
			steps = []Step{st}
		} else if json.Unmarshal(b, &steps) != nil || len(steps) < 2 {
			return nil, bad(n)
		}
		for i, st := range steps {
			if st.Seq < first || st.Seq > last || seen[st.Seq] || (i > 0 && st.Seq <= steps[i-1].Seq) ||
				(i == 0 && st.Seq != first) || (i == len(steps)-1 && st.Seq != last) {
				return nil, bad(n)
			}
			seen[st.Seq] = true
		}
		t.Steps = append(t.Steps, steps...)
		if len(t.Steps) > maxLoadSteps {
			return nil, errs.New(errs.TraceInvalid, "%s: more than %d steps", path, maxLoadSteps).With("field", "path")
		}
	}
	slices.SortFunc(t.Steps, func(a, b Step) int { return a.Seq - b.Seq })
	prev := 0
	if len(t.Steps) > 0 {
		prev = t.Steps[len(t.Steps)-1].Seq
	}
	t.Complete = t.Header.Complete
	if t.Complete && t.Header.Steps != len(t.Steps) {
		return nil, errs.New(errs.TraceInvalid, "%s: the footer says %d steps, the folder holds %d", path, t.Header.Steps, len(t.Steps)).With("field", "path")
	}
	t.StoppedAfter = prev
	return t, nil
}

// stepRange reads a step file's name: NNNNNN.json (one step) or
// NNNNNN-MMMMMM.json (steps NNNNNN to MMMMMM, some of them).
func stepRange(name string) (first, last int, ok bool) {
	a, b, two := strings.Cut(strings.TrimSuffix(name, ".json"), "-")
	first, err := strconv.Atoi(a)
	if err != nil || first <= 0 {
		return 0, 0, false
	}
	if !two {
		return first, first, true
	}
	last, err = strconv.Atoi(b)
	if err != nil || last <= first {
		return 0, 0, false
	}
	return first, last, true
}

// Screenshot reads a step's screenshot, or nil.
func (t *Trace) Screenshot(st Step) []byte {
	if st.Screenshot == "" || strings.Contains(st.Screenshot, "..") {
		return nil
	}
	b, err := os.ReadFile(filepath.Join(t.Dir, filepath.FromSlash(st.Screenshot)))
	if err != nil {
		return nil
	}
	return b
}
