package page

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	cdpproto "github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/runtime"

	"github.com/understudy-dev/understudy/internal/cdp"
	"github.com/understudy-dev/understudy/internal/errs"
)

// Frame is the renderer context of one surface: everything the package does
// runs in it, and nothing touches another frame.
type Frame struct {
	// Session carries the calls: the surface's eval socket or flattened
	// session.
	Session cdpproto.Session
	// ContextID is the frame's main-world execution context; 0 means the
	// target's main frame (Runtime.evaluate without a context).
	ContextID runtime.ExecutionContextID
	// SurfaceID keys refs and baselines: a ref resolves only in the surface
	// that issued it.
	SurfaceID string
	// Document names the document the caller resolved (its default
	// execution context, surface.Resolution.Document); 0: not known. When
	// it is not the one the surface's last operation ran in, the next
	// operation carries the walker (installed only if missing), so the
	// first operation in a new document costs one round trip.
	Document int64
	// Fallback is the automatic reselection that chose this surface when
	// the selected root had closed (surface.Resolution.Fallback); answers
	// that start with OnSurface report it.
	Fallback *Fallback
}

// Fallback reports an automatic reselection after the active root closed.
type Fallback struct {
	From   string `json:"from"` // the closed surface
	To     string `json:"to"`   // the root now selected
	Reason string `json:"reason"`
}

// OnSurface starts the answer of an operation in one surface: the surface
// it ran in, and the automatic fallback when the surface that had been
// selected was gone.
type OnSurface struct {
	SurfaceID string    `json:"surface_id"`
	Fallback  *Fallback `json:"surface_fallback,omitempty"`
}

// On is the OnSurface of an answer from f.
func (f Frame) On() OnSurface { return OnSurface{SurfaceID: f.SurfaceID, Fallback: f.Fallback} }

// ObjectGroup is the Runtime object group of the remote objects that
// [Store.Resolve] returns; release them with Runtime.releaseObjectGroup.
const ObjectGroup = "understudy-page"

// maxKnown bounds how many refs a surface remembers (role and name, for
// similar_refs); the oldest are forgotten first.
const maxKnown = 50000

// Store keeps, per surface, the ref counter, what every issued ref was, and
// which document the refs belong to. Baselines and the ref → element maps
// live in the renderer (in the walker's registry), keyed by this store and
// the surface. A Store is safe for concurrent use; its operations run one
// at a time, over all its surfaces, so that two operations never issue the
// same ref number (ADR-001). A wait lets the store go while the renderer
// watches (see waitOnce and docs/adr/018), so reads run beside waits.
type Store struct {
	b     bundle
	token string // names this store inside renderers

	// op is held for the whole of an operation, on any surface: every
	// surface's mu points to it.
	op sync.Mutex

	mu       sync.Mutex
	surfaces map[string]*surface
	// next is the store-wide next ref. Every surface numbers from it, so
	// no two surfaces of one store (one session) ever issue the same
	// number and a ref taken in one surface can never name an element of
	// another (ADR-001 in docs/adr).
	next int
	// issued records which surface issued which refs, oldest first, so a
	// ref given to any tool is routed to its own surface (SurfaceOfRef).
	// Bounded: at most maxIssued ranges, the oldest forgotten first (their
	// refs then resolve only in the active surface, as before).
	issued []issuedRange
}

// issuedRange is the refs [lo, hi) a surface issued in one operation.
type issuedRange struct {
	surface string
	lo, hi  int
}

// maxIssued bounds Store.issued.
const maxIssued = 4096

// SurfaceOfRef says which surface issued a ref, and whether that surface
// still has state here (false once [Store.Drop] forgot it: it closed). ok
// is false for a ref this store never issued or has forgotten.
func (s *Store) SurfaceOfRef(ref int) (surfaceID string, live, ok bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i := len(s.issued) - 1; i >= 0; i-- {
		r := s.issued[i]
		if ref >= r.lo && ref < r.hi {
			_, live = s.surfaces[r.surface]
			return r.surface, live, true
		}
	}
	return "", false, false
}

// surface is the Go side of one surface's refs.
type surface struct {
	id         string
	mu         *sync.Mutex // the store's op lock, held for the whole of an operation
	next       int         // the next ref to issue; never goes down
	docKey     string      // the renderer registry's token of the current document
	document   int64       // Frame.Document of the last answered operation
	reloaded   bool        // a new document was seen and not yet reported by a snapshot or find
	known      map[int]refInfo
	injections int // times the walker was installed into a document
}

type refInfo struct{ role, name string }

// NewStore returns an empty store with its own namespace in renderers.
func NewStore() *Store {
	var t [6]byte
	_, _ = rand.Read(t[:])
	return &Store{b: theBundle(), token: hex.EncodeToString(t[:]), surfaces: map[string]*surface{}}
}

// Drop forgets a surface for good: the session calls it when the surface
// registry tombstones the surface (its frame detached or its target went).
// It never waits: an operation in flight on the surface finishes on the
// state it holds. The store-wide ref counter is kept, so a surface id that
// comes back (a frame id that reappears revives its surface) numbers on
// from there and never reuses a ref. Pruning rule of Store.surfaces (see
// docs/adr, bounded state).
func (s *Store) Drop(surfaceID string) {
	s.mu.Lock()
	delete(s.surfaces, surfaceID)
	s.mu.Unlock()
}

// StoreStats counts what a store keeps, for tests that prove it is bounded.
type StoreStats struct {
	Surfaces int // surfaces with state (live ones, and closed ones not yet dropped)
	Refs     int // remembered refs (role and name) over all surfaces
	Issued   int // ranges of refs with the surface that issued them (≤ maxIssued)
}

// Stats counts what the store keeps now.
func (s *Store) Stats() StoreStats {
	s.mu.Lock()
	issued := len(s.issued)
	all := make([]*surface, 0, len(s.surfaces))
	for _, sf := range s.surfaces {
		all = append(all, sf)
	}
	s.mu.Unlock()
	st := StoreStats{Surfaces: len(all), Issued: issued}
	for _, sf := range all {
		if sf.mu.TryLock() { // one busy in an operation is not counted
			st.Refs += len(sf.known)
			sf.mu.Unlock()
		}
	}
	return st
}

// lock returns the surface's state with its lock held.
func (s *Store) lock(f Frame) (*surface, error) {
	if f.SurfaceID == "" {
		return nil, errs.BadArg("surface_id", "the frame names no surface")
	}
	if f.Session == nil {
		return nil, errs.BadArg("session", "the frame has no CDP session")
	}
	s.mu.Lock()
	sf := s.surfaces[f.SurfaceID]
	if sf == nil {
		sf = &surface{id: f.SurfaceID, mu: &s.op, next: max(1, s.next), known: map[int]refInfo{}}
		s.surfaces[f.SurfaceID] = sf
	}
	s.mu.Unlock()
	sf.mu.Lock()
	if sf.known == nil {
		sf.known = map[int]refInfo{}
	}
	return sf, nil
}

// reply is the envelope of every walker operation.
type reply struct {
	// Injected: the operation installed the walker first (guardedExpr).
	Injected bool            `json:"i"`
	Doc      string          `json:"d"`
	Next     int             `json:"n"`
	Memo     string          `json:"m"`
	R        json.RawMessage `json:"r"`
	E        *wireError      `json:"e"`
}

type wireError struct {
	Code    string       `json:"code"`
	Message string       `json:"message"`
	Field   string       `json:"field"`
	Ref     int          `json:"ref"`
	Similar []SimilarRef `json:"similar"`
	// Was and Now are a stale ref's identities (REF_STALE).
	Was *Identity `json:"was"`
	Now *Identity `json:"now"`
}

// Identity is what an element shows an agent: its role and name.
type Identity struct {
	Role string `json:"role"`
	Name string `json:"name"`
}

// RefChange is a ref whose element shows another role or name than the
// agent last saw: an action allowed it (allowChanged), or the action
// itself made it (a toggle renamed by the click). Reporting it makes Now
// what the agent has seen.
type RefChange struct {
	Ref int      `json:"ref"`
	Was Identity `json:"was"`
	Now Identity `json:"now"`
}

// RefNotes lists, in an action's answer, the refs whose element showed
// another role or name than the agent last saw (allowed by allowChanged,
// or made by the action itself).
type RefNotes struct {
	RefChanged []RefChange `json:"ref_changed,omitempty" jsonschema:"refs whose element changed role or name"`
}

// Add adds the refs whose element changed, first sight to last, from the
// lists the steps of an action found.
func (n *RefNotes) Add(lists ...[]RefChange) {
	byRef := map[int]int{}
	var all []RefChange
	for _, l := range lists {
		for _, ch := range l {
			if i, ok := byRef[ch.Ref]; ok {
				all[i].Now = ch.Now
				continue
			}
			byRef[ch.Ref] = len(all)
			all = append(all, ch)
		}
	}
	n.RefChanged = append(n.RefChanged, all...)
}

// SimilarRef is a live entry that looks like a ref that is gone.
type SimilarRef struct {
	Ref  int    `json:"ref"`
	Role string `json:"role"`
	Name string `json:"name"`
}

// opExpr is the expression that runs op with args when the walker is
// installed, and evaluates to 0 when it is not.
func (s *Store) opExpr(method string, args []byte) string {
	return `(function(){var U=window[Symbol.for(` + strconv.Quote(s.b.key) + `)];return U?U.` + method + `(` + string(args) + `):0})()`
}

// installExpr installs the walker and runs op with args.
func (s *Store) installExpr(method string, args []byte) string {
	return s.b.script + ";\nwindow[Symbol.for(" + strconv.Quote(s.b.key) + ")]." + method + "(" + string(args) + ")"
}

// guardedExpr installs the walker unless the document has it, and runs op
// with args, in one evaluation; the answer says "i" when it installed.
// It carries the whole walker, so it is sent only where the walker is
// likely missing: the first operation on a surface.
func (s *Store) guardedExpr(method string, args []byte) string {
	k := "Symbol.for(" + strconv.Quote(s.b.key) + ")"
	return "(function(){var i=!window[" + k + "];if(i){" + s.b.script + "\n}var r=window[" + k + "]." + method + "(" + string(args) +
		");if(i&&r&&typeof r==='object')r.i=true;return r})()"
}

// call runs one walker operation in the frame (callOnce). When a
// navigation or reload replaces the document under a read-only operation
// ("Inspected target navigated or closed"), a page's own frame (no context
// id) is read again in the new document, after a pause that grows by 20 ms
// an attempt, up to readAttempts documents; an in-process frame's context
// id is stale then and only the caller can resolve it again. What is still
// lost is PAGE_NAVIGATING, which the agent may retry, never INTERNAL_ERROR.
// An operation that acts is never run twice: whether it acted before the
// document went is unknown. sf must be locked.
func (s *Store) call(ctx context.Context, f Frame, sf *surface, op string, args map[string]any) (*reply, error) {
	if !readOnly(op) {
		return s.callOnce(ctx, f, sf, op, args)
	}
	for attempt := 1; ; attempt++ {
		r, err := s.callOnce(ctx, f, sf, op, args)
		if err == nil || !errors.Is(err, cdp.ErrContextLost) || ctx.Err() != nil {
			return r, err
		}
		if f.ContextID != 0 || attempt == readAttempts || !Pause(ctx, time.Duration(attempt)*20*time.Millisecond) {
			return nil, errs.Wrap(errs.PageNavigating, err, fmt.Sprintf("surface %s: a navigation replaced its document during the %s (%d attempts)", f.SurfaceID, op, attempt)).With("surface_id", f.SurfaceID)
		}
	}
}

// callOnce runs one walker operation in the frame: one round trip when the
// walker is installed in the document, two when it must be installed
// first, and one on a surface no operation has answered yet or in a
// document it has not answered in (Frame.Document): that one is sent with
// the walker, installed only if missing (guardedExpr), so the first
// operation in a new document (its first snapshot, typically) costs one
// round trip, which counts on an endpoint far away (a Selenium Grid's
// se:cdp). sf must be locked.
func (s *Store) callOnce(ctx context.Context, f Frame, sf *surface, op string, args map[string]any) (*reply, error) {
	if args == nil {
		args = map[string]any{}
	}
	b, err := s.opArgs(f, sf, op, args)
	if err != nil {
		return nil, err
	}
	if sf.docKey == "" || (f.Document != 0 && f.Document != sf.document) {
		ro, err := evaluate(ctx, f, s.guardedExpr("op", b), true, "")
		if err != nil {
			return nil, err
		}
		r, err := s.take(sf, op, ro)
		if err == nil {
			sf.document = f.Document
			if r.Injected {
				sf.injections++
			}
		}
		return r, err
	}
	r, err := s.exchange(sf, op, func(install bool) (*runtime.RemoteObject, error) {
		if install {
			return evaluate(ctx, f, s.installExpr("op", b), true, "")
		}
		return evaluate(ctx, f, s.opExpr("op", b), true, "")
	})
	if err == nil {
		sf.document = f.Document
	}
	return r, err
}

// readAttempts is how many documents a read tries on a page's own frame
// that navigations keep replacing before it answers PAGE_NAVIGATING.
const readAttempts = 5

// readOnly names the walker operations that only read the document
// (snapshot, find, the element reads, lists), so running one again changes
// nothing the agent sees.
func readOnly(op string) bool {
	switch op {
	case "snapshot", "find", "read", "probe", "list", "focused":
		return true
	}
	return false
}

// exec runs one walker operation on the surface under its lock and returns
// the answer's result, or the walker's failure as a coded error.
func (s *Store) exec(ctx context.Context, f Frame, op string, args map[string]any) (json.RawMessage, error) {
	sf, err := s.lock(f)
	if err != nil {
		return nil, err
	}
	defer sf.mu.Unlock()
	r, err := s.call(ctx, f, sf, op, args)
	if err != nil {
		return nil, err
	}
	if r.E != nil {
		return nil, sf.toError(f, r.E)
	}
	return r.R, nil
}

// opArgs encodes an operation's arguments with what every operation
// carries: its name, the store's namespace for the surface, and the next
// ref (the store-wide counter, ADR-001). sf must be locked.
func (s *Store) opArgs(f Frame, sf *surface, op string, args map[string]any) ([]byte, error) {
	args["op"] = op
	args["ns"] = s.token + "/" + f.SurfaceID
	s.mu.Lock()
	sf.next = max(sf.next, s.next)
	s.mu.Unlock()
	args["next"] = sf.next
	b, err := json.Marshal(args)
	if err != nil {
		return nil, errs.Wrap(errs.Internal, err, "encoding the arguments of "+op)
	}
	return b, nil
}

// exchange runs one walker operation through eval, installing the walker
// first when the document lacks it (eval(false) then evaluates to 0), and
// takes in what the answer says about the document and the refs.
func (s *Store) exchange(sf *surface, op string, eval func(install bool) (*runtime.RemoteObject, error)) (*reply, error) {
	ro, installed, err := evalInstalling(eval)
	if installed {
		sf.injections++
	}
	if err != nil {
		return nil, err
	}
	return s.take(sf, op, ro)
}

// evalInstalling runs eval, and again installing the walker when the
// document lacks it; installed says whether it had to.
func evalInstalling(eval func(install bool) (*runtime.RemoteObject, error)) (ro *runtime.RemoteObject, installed bool, err error) {
	if ro, err = eval(false); err != nil {
		return nil, false, err
	}
	if isZero(ro) {
		ro, err = eval(true)
		return ro, true, err
	}
	return ro, false, nil
}

// take decodes a walker answer and takes in what it says about the
// document and the refs. sf must be locked.
func (s *Store) take(sf *surface, op string, ro *runtime.RemoteObject) (*reply, error) {
	var r reply
	if err := json.Unmarshal(ro.Value, &r); err != nil {
		return nil, errs.Wrap(errs.Internal, err, "decoding the walker's answer to "+op)
	}
	before := sf.next
	sf.absorb(&r)
	s.mu.Lock()
	s.next = max(s.next, sf.next)
	if sf.next > before {
		s.noteIssued(sf.id, before, sf.next)
	}
	s.mu.Unlock()
	return &r, nil
}

// noteIssued records that the surface issued the refs lo..hi-1, so that a
// ref given to any tool acts in the surface that issued it. s.mu is held.
func (s *Store) noteIssued(surfaceID string, lo, hi int) {
	if surfaceID == "" || hi <= lo {
		return
	}
	if n := len(s.issued); n > 0 && s.issued[n-1].surface == surfaceID && s.issued[n-1].hi == lo {
		s.issued[n-1].hi = hi // the same surface numbering on
		return
	}
	if n := len(s.issued); n >= maxIssued {
		s.issued = append(s.issued[:0], s.issued[n-maxIssued+1:]...)
	}
	s.issued = append(s.issued, issuedRange{surface: surfaceID, lo: lo, hi: hi})
}

// absorb takes in what every answer says about the document and the refs.
func (sf *surface) absorb(r *reply) {
	if r.Doc != "" && r.Doc != sf.docKey {
		if sf.docKey != "" {
			sf.reloaded = true
		}
		sf.docKey = r.Doc
	}
	if r.Next > sf.next {
		sf.next = r.Next
	}
	if r.Memo != "" {
		for _, rec := range strings.Split(r.Memo, "\x1e") {
			parts := strings.SplitN(rec, "\x1f", 3)
			if len(parts) != 3 {
				continue
			}
			ref, err := strconv.Atoi(parts[0])
			if err != nil {
				continue
			}
			sf.known[ref] = refInfo{role: parts[1], name: parts[2]}
		}
		if len(sf.known) > maxKnown+maxKnown/10 {
			cut := sf.next - maxKnown
			for ref := range sf.known {
				if ref < cut {
					delete(sf.known, ref)
				}
			}
		}
	}
}

// evaluate runs expr in the frame's context.
func evaluate(ctx context.Context, f Frame, expr string, byValue bool, group string) (*runtime.RemoteObject, error) {
	silent := true
	p := runtime.EvaluateParams{
		Expression:    expr,
		ContextID:     f.ContextID,
		ReturnByValue: &byValue,
		Silent:        &silent,
		ObjectGroup:   group,
	}
	res, err := cdpproto.Call(ctx, f.Session, runtime.Evaluate, p)
	if err != nil {
		if errs.As(err) != nil {
			return nil, err
		}
		if ctx.Err() != nil {
			return nil, err
		}
		return nil, errs.Wrap(errs.Internal, err, "Runtime.evaluate in surface "+f.SurfaceID)
	}
	if res.ExceptionDetails != nil {
		return nil, errs.New(errs.Internal, "the walker threw in surface %s: %s", f.SurfaceID, exceptionText(res.ExceptionDetails))
	}
	if res.Result == nil {
		return nil, errs.New(errs.Internal, "Runtime.evaluate in surface %s returned no result", f.SurfaceID)
	}
	return res.Result, nil
}

func exceptionText(d *runtime.ExceptionDetails) string {
	if d.Exception != nil && d.Exception.Description != "" {
		return d.Exception.Description
	}
	return fmt.Sprintf("%s (line %d, column %d)", d.Text, d.LineNumber, d.ColumnNumber)
}

func isZero(ro *runtime.RemoteObject) bool {
	return ro.Type == runtime.RemoteObjectTypeNumber && string(ro.Value) == "0"
}

// toError turns a walker failure into a coded error.
func (sf *surface) toError(f Frame, we *wireError) error {
	switch errs.Code(we.Code) {
	case errs.RefNotFound:
		e := errs.New(errs.RefNotFound, "%s", we.Message).With("ref", we.Ref).With("surface_id", f.SurfaceID)
		for _, r := range we.Similar {
			e.SimilarRefs = append(e.SimilarRefs, r)
		}
		return e
	case errs.RefStale:
		e := errs.New(errs.RefStale, "%s", we.Message).With("ref", we.Ref).With("surface_id", f.SurfaceID)
		if we.Was != nil && we.Now != nil {
			e.With("was", *we.Was).With("now", *we.Now)
		}
		for _, r := range we.Similar {
			e.SimilarRefs = append(e.SimilarRefs, r)
		}
		return e
	case errs.SelectorNoMatch:
		return errs.New(errs.SelectorNoMatch, "%s", we.Message).With("surface_id", f.SurfaceID)
	case errs.BadArgument:
		field := we.Field
		if field == "" {
			field = "argument"
		}
		return errs.BadArg(field, "%s", we.Message)
	case errs.ElementNotVisible:
		return errs.New(errs.ElementNotVisible, "%s", we.Message)
	}
	return errs.New(errs.Internal, "walker: %s", we.Message)
}

// checkRef fails fast for a ref this surface never issued.
func (sf *surface) checkRef(f Frame, ref int) error {
	if ref < sf.next {
		return nil
	}
	msg := fmt.Sprintf("ref %d was never issued in surface %s", ref, f.SurfaceID)
	if sf.next > 1 {
		msg += fmt.Sprintf(" (its refs so far are 1–%d)", sf.next-1)
	} else {
		msg += " (no snapshot or find has run there yet)"
	}
	return errs.New(errs.RefNotFound, "%s", msg).With("ref", ref).With("surface_id", f.SurfaceID)
}
