package trace

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/understudy-dev/understudy/internal/errs"
	"github.com/understudy-dev/understudy/internal/files"
	"github.com/understudy-dev/understudy/internal/surface"
)

// Stream names a per-session log a recording reads between steps.
type Stream int

// The streams a recording keeps a cursor in, per session.
const (
	Console Stream = iota
	Network
)

// Live is a server's one recording, between its start and its stop: the
// recorder, who started it, and what it remembers between steps (where
// each surface is, how far each session's console and network logs were
// read). The zero value records nothing.
type Live struct {
	mu  sync.Mutex
	rec *Recorder
	// live is rec for the dispatch observer, which every call runs: read
	// without mu (docs/adr/028); written with rec.
	live atomic.Pointer[Recorder]
	// owner is the client that started the recording; written with live,
	// before it.
	owner   atomic.Pointer[string]
	places  map[string]*Place   // surface id → where it is
	cursors [2]map[string]int64 // per Stream: session id → last seq recorded
}

// Recorder is the recording, nil when none runs; it takes no lock.
func (l *Live) Recorder() *Recorder { return l.live.Load() }

// Owner is who started the recording ("" and false when none runs).
func (l *Live) Owner() (string, bool) {
	if o := l.owner.Load(); o != nil {
		return *o, true
	}
	return "", false
}

// For is the recording a caller (owner) may see and add to: the live one
// when owner started it or sessions are shared; else nil.
func (l *Live) For(owner string, shared bool) *Recorder {
	rec := l.Recorder()
	if rec == nil || shared {
		return rec
	}
	if o, ok := l.Owner(); !ok || o != owner {
		return nil
	}
	return rec
}

// Start makes the recorder open returns the recording, started by owner,
// unless one runs already (busy, and open is not called). consoleFrom
// gives the console seq each session has reached: earlier lines are not
// part of the recording.
func (l *Live) Start(owner string, open func() (*Recorder, error), consoleFrom func() map[string]int64) (rec *Recorder, busy bool, err error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.rec != nil {
		return nil, true, nil
	}
	if rec, err = open(); err != nil {
		return nil, false, err
	}
	l.rec, l.places = rec, map[string]*Place{}
	l.cursors = [2]map[string]int64{{}, {}}
	l.owner.Store(&owner)
	l.live.Store(rec)
	for id, seq := range consoleFrom() {
		l.cursors[Console][id] = seq
	}
	return rec, false, nil
}

// Take ends the recording: the recorder (nil when none runs) is the
// caller's to stop or abort.
func (l *Live) Take() *Recorder {
	l.mu.Lock()
	defer l.mu.Unlock()
	rec := l.rec
	l.rec, l.places, l.cursors = nil, nil, [2]map[string]int64{}
	l.live.Store(nil)
	return rec
}

// Place locates a surface of reg once per recording.
func (l *Live) Place(ctx context.Context, reg *surface.Registry, id string) *Place {
	l.mu.Lock()
	p, ok := l.places[id]
	l.mu.Unlock()
	if ok {
		return p
	}
	p, err := Locate(ctx, reg, id)
	if err != nil {
		return &Place{SurfaceID: id}
	}
	l.mu.Lock()
	if l.places != nil {
		l.places[id] = p
	}
	l.mu.Unlock()
	return p
}

// Cursor is the last seq of stream s recorded for a session.
func (l *Live) Cursor(s Stream, session string) int64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.cursors[s][session]
}

// Advance records that stream s of a session was read up to seq; nothing
// when the recording ended meanwhile.
func (l *Live) Advance(s Stream, session string, seq int64) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.cursors[s] != nil {
		l.cursors[s][session] = seq
	}
}

// Clip keeps the last max lines and says how many earlier ones (of what)
// were left out.
func Clip(lines []string, max int, what string) []string {
	if len(lines) > max {
		return append(lines[len(lines)-max:], fmt.Sprintf("(%d earlier %s left out)", len(lines)-max, what))
	}
	return lines
}

// Find reads the trace at p under the allowed roots: a trace folder (or
// its trace.json; relative: in the artifacts folder) or a promoted spec
// (a .json file). The live recording's writer is flushed first when p is
// its folder. field names p in errors.
func Find(ctx context.Context, roots *files.Roots, live *Recorder, field, p string) (*Trace, error) {
	if p == "" {
		return nil, errs.BadArg(field, "is required: a trace folder")
	}
	if strings.ContainsRune(p, 0) {
		return nil, errs.BadArg(field, "contains a NUL byte")
	}
	if !filepath.IsAbs(p) {
		art, err := roots.ArtifactsDir()
		if err != nil {
			return nil, err
		}
		p = filepath.Join(art, p)
	}
	if filepath.Base(p) == HeaderFile {
		p = filepath.Dir(p)
	}
	if _, err := os.Stat(filepath.Join(p, HeaderFile)); err != nil {
		if st, e2 := os.Stat(p); e2 == nil && !st.IsDir() {
			if strings.HasSuffix(p, ".json") { // a promoted spec
				real, err := roots.CheckRead(ctx, field, p)
				if err != nil {
					return nil, err
				}
				return LoadSpec(real)
			}
			return nil, errs.New(errs.TraceInvalid, "%s is a file, not a trace folder", p).With("field", field)
		}
		// Judge the roots first: a path outside them says so, not "missing".
		if _, err := roots.CheckDir(ctx, field, filepath.Dir(p)); err != nil && errs.CodeOf(err) == errs.PathNotAllowed {
			return nil, err
		}
		return nil, errs.New(errs.TraceNotFound, "no trace at %s", p).With("field", field)
	}
	real, err := roots.CheckRead(ctx, field, filepath.Join(p, HeaderFile))
	if err != nil {
		return nil, err
	}
	if live != nil && sameDir(live.Dir(), filepath.Dir(real)) {
		live.Flush() // the live trace: what its writer still holds is read too
	}
	return Load(filepath.Dir(real))
}

// sameDir reports whether two paths name one folder.
func sameDir(a, b string) bool {
	ia, err1 := os.Stat(a)
	ib, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(ia, ib)
}

// Named is what a ref named when a step was recorded: its role and name
// and the surface that issued it.
type Named struct{ Role, Name, SurfaceID string }

// Describe fills st with where a call acts: the active surface's place,
// what its ref arguments ("ref", "targetRef") named (known looks a ref up)
// and where its surfaceId argument is. It returns the arguments to redact
// besides the usual ones ("text" for a ref that named a secret field).
func (l *Live) Describe(ctx context.Context, reg *surface.Registry, known func(ref int) (Named, bool), args map[string]any, st *Step) (alsoSecret []string) {
	if id := reg.Active(); id != "" {
		st.Surface = l.Place(ctx, reg, id)
	}
	for _, k := range []string{"ref", "targetRef"} {
		n, ok := args[k].(float64)
		if !ok || n <= 0 || n != math.Trunc(n) {
			continue
		}
		kr, ok := known(int(n))
		if !ok {
			continue
		}
		t := Target{Ref: int(n), Role: kr.Role, Name: kr.Name, Place: l.Place(ctx, reg, kr.SurfaceID)}
		if st.Targets == nil {
			st.Targets = map[string]Target{}
		}
		st.Targets[k] = t
		if IsSecretTarget(t) {
			alsoSecret = append(alsoSecret, "text")
		}
	}
	if id, ok := args["surfaceId"].(string); ok && id != "" {
		if st.Targets == nil {
			st.Targets = map[string]Target{}
		}
		st.Targets["surfaceId"] = Target{Place: l.Place(ctx, reg, id)}
	}
	return alsoSecret
}
