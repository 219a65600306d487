package network

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/understudy-dev/understudy/internal/cdp"
	"github.com/understudy-dev/understudy/internal/errs"
	"github.com/understudy-dev/understudy/internal/secret"
	"github.com/understudy-dev/understudy/internal/surface"
	"github.com/understudy-dev/understudy/internal/target"
)

// Limits.
const (
	// DefaultMaxRecords is the ring's size: the newest records are kept.
	DefaultMaxRecords = 2000
	// DefaultBodyBudget bounds the bytes of bodies kept in the ring; the
	// oldest bodies go first (counted in BodiesDropped).
	DefaultBodyBudget = 32 << 20
	// DefaultMaxBodyBytes caps one body; MaxBodyBytesLimit is the most a
	// capture may ask for.
	DefaultMaxBodyBytes = 64 << 10
	MaxBodyBytesLimit   = 4 << 20
	// resourceBuffer is what Chromium keeps of one response for us to read
	// (Network.enable maxResourceBufferSize): a larger body is never read,
	// so it never enters our memory; its record says truncated.
	resourceBuffer = 8 << 20
	// maxPending bounds requests started and not yet ended.
	maxPending = 4096
	// maxBodyJobs bounds the bodies waiting to be read.
	maxBodyJobs = 512
	// maxEnded bounds the requests remembered after their end, for the
	// extra-info events (Cookie, Set-Cookie and other raw headers) that
	// Chromium's network service may send after loadingFinished.
	maxEnded = 256
	// enableTimeout bounds enabling one target.
	enableTimeout = 10 * time.Second
	// answerTimeout bounds answering one paused request.
	answerTimeout = 5 * time.Second
)

// Config configures a [Network].
type Config struct {
	Pool     *target.Pool
	Surfaces *surface.Registry
	// Redactor says which headers and body fields are secret; nil means
	// the defaults.
	Redactor *Redactor
	// Seq gives the next sequence number; it is shared with the session's
	// console log so that since cursors mean the same in both. Nil: a
	// counter of its own.
	Seq func() int64
	// Life is the session's lifetime.
	Life context.Context
}

// CaptureOptions are what network_capture_start asks.
type CaptureOptions struct {
	Match *Matcher
	// Bodies: "" none, "full" text or base64 capped by MaxBodyBytes,
	// "size" only lengths.
	Bodies       string
	MaxBodyBytes int
	// BodyTypes, when set, limits bodies to content types containing one
	// of these.
	BodyTypes []string
	// BodyBudget bounds kept body bytes; 0 is DefaultBodyBudget.
	BodyBudget int64
}

// Network is a session's network state. It is safe for concurrent use.
type Network struct {
	cfg    Config
	red    *Redactor
	life   context.Context
	cancel context.CancelFunc
	seq    func() int64
	own    atomic.Int64
	wg     sync.WaitGroup // every goroutine it started

	unlisten, unwatch func()

	holdMu sync.Mutex
	unhold func() // the pool hold, while targets need a domain of ours

	capturing atomic.Bool

	mu         sync.Mutex
	closed     bool
	opts       CaptureOptions
	pending    map[pkey]*Record
	ended      map[pkey]*endedRef  // requests that ended lately, by both keys
	endedKeys  []pkey              // ended's keys, oldest first (at most 2*maxEnded)
	early      map[pkey]*earlyInfo // extra-info of requests not seen yet
	earlyKeys  []pkey              // early's keys, oldest first (at most maxEnded)
	ring       []Record
	head       int
	overflowed int64
	bodyBytes  int64
	bodiesDrop int64
	lost       int64 // requests not tracked (too many in flight)
	jobs       chan bodyJob
	stubs      []*Stub
	stubSeq    int
	stubbedBy  map[pkey]string // Fetch networkId → stub id, until the record takes it
	cond       map[string]Conditions
	condGen    int
	targets    map[string]*targetState
	pausedNow  int64
	answered   int64
}

type pkey struct{ target, id string }

// earlyInfo is the headers of extra-info events that came before their
// request's requestWillBeSent.
type earlyInfo struct{ request, response map[string]string }

// endedRef finds a request that ended: its record while its bodies are
// read (rec), then its ring slot (slot, checked against seq).
type endedRef struct {
	rec  *Record
	slot int
	seq  int64
}

type targetState struct {
	mu      sync.Mutex // one apply at a time
	network bool
	buf     int
	fetch   bool
	condGen int
}

// New starts listening to the pool's sockets. Close undoes everything it
// enabled.
func New(cfg Config) *Network {
	n := &Network{cfg: cfg, red: cfg.Redactor, pending: map[pkey]*Record{}, ended: map[pkey]*endedRef{}, early: map[pkey]*earlyInfo{}, stubbedBy: map[pkey]string{},
		cond: map[string]Conditions{}, targets: map[string]*targetState{}}
	if n.red == nil {
		n.red = NewRedactor(nil, nil)
	}
	n.seq = cfg.Seq
	if n.seq == nil {
		n.seq = func() int64 { return n.own.Add(1) }
	}
	life := cfg.Life
	if life == nil {
		life = context.Background()
	}
	n.life, n.cancel = context.WithCancel(life)
	n.unlisten = cfg.Pool.Listen(n.onEvent)
	n.unwatch = cfg.Pool.Watch(func(ch target.Change) {
		if !target.IsRenderer(ch.Target.Type) {
			return
		}
		if ch.Kind == target.Destroyed {
			n.forget(ch.Target.ID)
			return
		}
		if n.wanted() {
			n.spawn(func() { _ = n.apply(n.life, ch.Target.ID) })
		}
	})
	return n
}

// spawn runs fn in a goroutine Close waits for, unless closed.
func (n *Network) spawn(fn func()) bool {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.closed {
		return false
	}
	n.wg.Go(fn)
	return true
}

// wanted reports whether targets need any domain of ours.
func (n *Network) wanted() bool {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.capturing.Load() || len(n.stubs) > 0 || len(n.cond) > 0
}

func (n *Network) forget(targetID string) {
	n.mu.Lock()
	defer n.mu.Unlock()
	delete(n.targets, targetID)
	if targetID != "" {
		delete(n.cond, targetID) // a window's conditions go with it ("" is every window's)
	}
	for k := range n.pending {
		if k.target == targetID {
			delete(n.pending, k)
		}
	}
	for k := range n.ended {
		if k.target == targetID {
			delete(n.ended, k) // endedKeys keeps the key until it ages out
		}
	}
	for k := range n.early {
		if k.target == targetID {
			delete(n.early, k)
		}
	}
	for k := range n.stubbedBy {
		if k.target == targetID {
			delete(n.stubbedBy, k)
		}
	}
}

// syncHold keeps a pool hold (ADR-033) while targets need a domain of
// ours, so that a target opening later (a popup, a new OOPIF) is brought
// to the desired state before its first request; without it (auto-attach
// refused) such a target is enabled when the watcher reports it.
func (n *Network) syncHold(ctx context.Context) {
	want := n.wanted()
	n.holdMu.Lock()
	defer n.holdMu.Unlock()
	n.mu.Lock()
	closed := n.closed
	n.mu.Unlock()
	switch {
	case want && !closed && n.unhold == nil:
		if rm, err := n.cfg.Pool.Hold(ctx, n.onHold); err == nil {
			n.unhold = rm
		}
	case !want && n.unhold != nil:
		n.unhold()
		n.unhold = nil
	}
}

// onHold runs in the pool's goroutine while a new window or OOPIF waits
// to start.
func (n *Network) onHold(ctx context.Context, t target.Info) {
	if browserUI(t.URL) || !n.wanted() {
		return
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	stop := context.AfterFunc(n.life, cancel)
	defer stop()
	_ = n.apply(ctx, t.ID)
}

// Failure is a target that did not take the desired state.
type Failure struct {
	TargetID string `json:"target_id"`
	URL      string `json:"url,omitempty"`
	Error    string `json:"error"`
}

// browserUI reports whether a target is Chromium's own UI (new tab page,
// DevTools), which is not the app's and is left alone.
func browserUI(url string) bool {
	return strings.HasPrefix(url, "chrome://") || strings.HasPrefix(url, "devtools://") || strings.HasPrefix(url, "chrome-untrusted://")
}

// Sync applies the desired state to every renderer target now, and
// returns how many targets have it and the ones that failed (a target
// that went away meanwhile is neither).
func (n *Network) Sync(ctx context.Context) (int, []Failure, error) {
	n.syncHold(ctx)
	infos, err := n.cfg.Pool.List(ctx)
	if err != nil {
		return 0, nil, err
	}
	var (
		mu    sync.Mutex
		ok    int
		fails []Failure
		wg    sync.WaitGroup
	)
	for _, info := range infos {
		if browserUI(info.URL) {
			continue
		}
		wg.Go(func() {
			err := n.apply(n.life, info.ID)
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil:
				ok++
			case errs.CodeOf(err) == errs.SurfaceClosed || errs.CodeOf(err) == errs.SurfaceNotFound:
				// gone while we listed it
			default:
				fails = append(fails, Failure{TargetID: info.ID, URL: info.URL, Error: err.Error()})
			}
		})
	}
	wg.Wait()
	return ok, fails, nil
}

// apply brings one target to the desired state, within ctx and
// enableTimeout.
func (n *Network) apply(ctx context.Context, targetID string) error {
	n.mu.Lock()
	if n.closed {
		n.mu.Unlock()
		return errs.New(errs.NotRunning, "the session is closing")
	}
	st := n.targets[targetID]
	if st == nil {
		st = &targetState{}
		n.targets[targetID] = st
	}
	n.mu.Unlock()
	if info, ok := n.cfg.Pool.Known(targetID); ok && browserUI(info.URL) {
		return nil
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	ctx, cancel := context.WithTimeout(ctx, enableTimeout)
	defer cancel()
	var conn *cdp.Conn
	for {
		c, err := n.cfg.Pool.Conn(ctx, targetID)
		if err == nil {
			conn = c
			break
		}
		if code := errs.CodeOf(err); code == errs.SurfaceClosed || code == errs.SurfaceNotFound || ctx.Err() != nil {
			return err
		}
		select { // announced before /json/list has its socket URL
		case <-ctx.Done():
			return err
		case <-time.After(100 * time.Millisecond):
		}
	}
	n.mu.Lock()
	wantNet := n.capturing.Load() || len(n.cond) > 0
	buf := 0
	if n.opts.Bodies == "full" && n.capturing.Load() {
		buf = resourceBuffer
	}
	wantFetch := len(n.stubs) > 0
	gen := n.condGen
	window, _ := n.cfg.Surfaces.WindowOf(targetID)
	cond, hasCond := n.cond[window]
	if !hasCond {
		cond, hasCond = n.cond[""]
	}
	n.mu.Unlock()
	if wantNet && (!st.network || st.buf != buf) {
		p := map[string]any{}
		if buf > 0 {
			p["maxTotalBufferSize"] = 4 * resourceBuffer
			p["maxResourceBufferSize"] = buf
		} else {
			p["maxTotalBufferSize"] = 1 << 20
			p["maxResourceBufferSize"] = 0
		}
		if err := conn.Call(ctx, "Network.enable", p, nil); err != nil {
			info, _ := n.cfg.Pool.Known(targetID)
			return fmt.Errorf("target %s (%s %s): %w", targetID, info.Type, info.URL, err)
		}
		st.network, st.buf = true, buf
	}
	if wantFetch != st.fetch {
		if wantFetch {
			p := map[string]any{"patterns": []map[string]any{{"urlPattern": "*", "requestStage": "Request"}}}
			if err := conn.Call(ctx, "Fetch.enable", p, nil); err != nil {
				return err
			}
		} else if err := conn.Call(ctx, "Fetch.disable", nil, nil); err != nil {
			return err
		}
		st.fetch = wantFetch
	}
	if st.condGen != gen {
		if !hasCond {
			cond = Conditions{}
		}
		if err := applyConditions(ctx, conn, cond); err != nil {
			return err
		}
		st.condGen = gen
	}
	if !wantNet && st.network {
		if err := conn.Call(ctx, "Network.disable", nil, nil); err != nil {
			return err
		}
		st.network = false
	}
	return nil
}

// StartCapture arms capture with opts and enables the Network domain on
// every target. It fails with ALREADY_CAPTURING when a capture runs.
func (n *Network) StartCapture(ctx context.Context, opts CaptureOptions) (int, []Failure, error) {
	if opts.BodyBudget <= 0 {
		opts.BodyBudget = DefaultBodyBudget
	}
	if opts.MaxBodyBytes <= 0 {
		opts.MaxBodyBytes = DefaultMaxBodyBytes
	}
	n.mu.Lock()
	if n.capturing.Load() {
		n.mu.Unlock()
		return 0, nil, errs.New(errs.AlreadyCapturing, "a network capture is already running")
	}
	n.opts = opts
	n.capturing.Store(true)
	if opts.Bodies == "full" || opts.Bodies == "size" {
		n.jobs = make(chan bodyJob, maxBodyJobs)
		jobs := n.jobs
		n.wg.Go(func() { n.bodyWorker(jobs) })
	}
	n.mu.Unlock()
	return n.Sync(ctx)
}

// Capturing reports whether a capture runs.
func (n *Network) Capturing() bool { return n.capturing.Load() }

// StopCapture disarms capture, disables the Network domain where nothing
// else needs it, and returns the records (then cleared). NOT_CAPTURING
// when none ran.
func (n *Network) StopCapture(ctx context.Context) (Page, error) {
	if !n.capturing.Load() {
		return Page{}, errs.New(errs.NotCapturing, "no network capture is running")
	}
	p := n.Read(ReadOptions{Limit: DefaultMaxRecords, Clear: true})
	n.mu.Lock()
	n.capturing.Store(false)
	clear(n.pending)
	clear(n.ended)
	n.endedKeys = nil
	clear(n.early)
	n.earlyKeys = nil
	if n.jobs != nil {
		close(n.jobs)
		n.jobs = nil
	}
	n.mu.Unlock()
	_, _, err := n.Sync(ctx)
	return p, err
}

// onEvent runs on a socket's reader: it decodes only what it needs and
// never waits for a call.
func (n *Network) onEvent(s *target.Socket, ev cdp.Event) {
	if ev.SessionID != "" {
		return
	}
	switch ev.Method {
	case "Fetch.requestPaused":
		n.onPaused(s.TargetID(), ev.Params)
		return
	}
	if !n.capturing.Load() || len(ev.Method) < 9 || ev.Method[:8] != "Network." {
		return
	}
	switch ev.Method {
	case "Network.requestWillBeSent", "Network.responseReceived", "Network.loadingFinished", "Network.loadingFailed",
		"Network.requestServedFromCache", "Network.requestWillBeSentExtraInfo", "Network.responseReceivedExtraInfo":
		n.onNetwork(s.TargetID(), ev.Method, ev.Params)
	}
}

type wireRequest struct {
	URL         string            `json:"url"`
	Method      string            `json:"method"`
	Headers     map[string]string `json:"headers"`
	PostData    string            `json:"postData"`
	HasPostData bool              `json:"hasPostData"`
}

type wireResponse struct {
	URL               string            `json:"url"`
	Status            int               `json:"status"`
	StatusText        string            `json:"statusText"`
	Headers           map[string]string `json:"headers"`
	MimeType          string            `json:"mimeType"`
	FromDiskCache     bool              `json:"fromDiskCache"`
	FromPrefetchCache bool              `json:"fromPrefetchCache"`
	FromServiceWorker bool              `json:"fromServiceWorker"`
	EncodedDataLength float64           `json:"encodedDataLength"`
	Protocol          string            `json:"protocol"`
	RemoteIPAddress   string            `json:"remoteIPAddress"`
	RemotePort        int               `json:"remotePort"`
	Timing            *struct {
		RequestTime       float64 `json:"requestTime"`
		SendEnd           float64 `json:"sendEnd"`
		ReceiveHeadersEnd float64 `json:"receiveHeadersEnd"`
	} `json:"timing"`
}

type wireEvent struct {
	RequestID string          `json:"requestId"`
	Timestamp float64         `json:"timestamp"`
	WallTime  float64         `json:"wallTime"`
	Request   *wireRequest    `json:"request"`
	Response  *wireResponse   `json:"response"`
	Redirect  *wireResponse   `json:"redirectResponse"`
	Type      string          `json:"type"`
	FrameID   string          `json:"frameId"`
	Initiator json.RawMessage `json:"initiator"`
	Headers   map[string]string
	// loadingFinished / loadingFailed
	EncodedDataLength float64 `json:"encodedDataLength"`
	ErrorText         string  `json:"errorText"`
	Canceled          bool    `json:"canceled"`
	BlockedReason     string  `json:"blockedReason"`
	StatusCode        int     `json:"statusCode"`
}

func (n *Network) onNetwork(targetID, method string, params []byte) {
	switch method {
	case "Network.requestWillBeSent", "Network.responseReceived", "Network.loadingFinished", "Network.loadingFailed",
		"Network.requestServedFromCache", "Network.requestWillBeSentExtraInfo", "Network.responseReceivedExtraInfo":
	default:
		return
	}
	var ev wireEvent
	if json.Unmarshal(params, &ev) != nil || ev.RequestID == "" {
		return
	}
	k := pkey{targetID, ev.RequestID}
	switch method {
	case "Network.requestWillBeSent":
		n.onRequest(k, &ev)
		return
	}
	n.mu.Lock()
	r := n.pending[k]
	if r == nil {
		if method == "Network.requestWillBeSentExtraInfo" || method == "Network.responseReceivedExtraInfo" {
			n.lateExtraInfoLocked(k, method == "Network.requestWillBeSentExtraInfo", ev.Headers)
		}
		n.mu.Unlock()
		return
	}
	switch method {
	case "Network.requestWillBeSentExtraInfo":
		n.mergeHeaders(&r.RequestHeaders, ev.Headers)
	case "Network.responseReceivedExtraInfo":
		n.mergeHeaders(&r.ResponseHeaders, ev.Headers)
	case "Network.requestServedFromCache":
		r.FromCache = true
	case "Network.responseReceived":
		if ev.Response != nil {
			n.takeResponse(r, ev.Response, ev.Timestamp)
		}
		if ev.Type != "" {
			r.ResourceType = ev.Type
		}
	case "Network.loadingFinished", "Network.loadingFailed":
		n.dropPendingLocked(k, r)
		d := (ev.Timestamp - r.mono) * 1000
		if r.mono > 0 && d >= 0 {
			r.DurationMs = &d
		}
		if ev.EncodedDataLength > 0 {
			r.TransferBytes = int64(ev.EncodedDataLength)
		}
		if method == "Network.loadingFailed" {
			r.Failure, r.Canceled, r.BlockedReason = ev.ErrorText, ev.Canceled, ev.BlockedReason
			f := false
			r.OK = &f
		}
		if r.SurfaceID == "" && n.cfg.Surfaces != nil {
			// A popup's first request starts before the registry knows
			// the popup (ADR-033); by its end it usually does.
			n.attribute(r, k.target)
		}
		for _, sk := range []pkey{k, {r.TargetID, r.ID}} { // an OOPIF's document was paused on its parent
			if s, ok := n.stubbedBy[sk]; ok {
				r.Stubbed = s
				delete(n.stubbedBy, sk)
				break
			}
		}
		ref := n.endedLocked(k, r)
		bodies := n.opts.Bodies
		if bodies != "" && n.jobs != nil && method == "Network.loadingFinished" {
			select {
			case n.jobs <- bodyJob{rec: r, key: k}:
				ref.rec = r
				n.mu.Unlock()
				return
			default: // the reader must not wait: this one goes without body
				r.ResponseBodyTruncated = true
			}
		}
		n.addLocked(r)
	}
	n.mu.Unlock()
}

// mergeHeaders reads h into *dst, secret headers as secrets.
func (n *Network) mergeHeaders(dst *Headers, h map[string]string) {
	if len(h) == 0 {
		return
	}
	if *dst == nil {
		*dst = Headers{}
	}
	n.red.merge(*dst, h)
}

func (n *Network) onRequest(k pkey, ev *wireEvent) {
	if ev.Request == nil {
		return
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	if r := n.pending[k]; r != nil && ev.Redirect == nil && r.TargetID != k.target {
		return // an OOPIF's document request, announced again by the OOPIF (see below)
	}
	if r := n.pending[k]; r != nil && ev.Redirect != nil {
		// A redirect: the same request id goes on with a new URL.
		r.Redirects = append(r.Redirects, Redirect{URL: r.URL, Status: ev.Redirect.Status})
		r.URL = ev.Request.URL
		r.Method = ev.Request.Method
		r.RequestHeaders = n.red.read(ev.Request.Headers)
		return
	}
	probe := Record{FrameID: ev.FrameID}
	n.attribute(&probe, k.target)
	sid, window := probe.SurfaceID, probe.WindowID
	if !n.opts.Match.Request(ev.Request.URL, ev.Request.Method, ev.Type, sid) {
		return
	}
	if len(n.pending) >= maxPending {
		n.lost++
		return
	}
	wall := time.Now()
	if ev.WallTime > 0 {
		wall = time.Unix(0, int64(ev.WallTime*1e9))
	}
	r := &Record{ID: ev.RequestID, SurfaceID: sid, WindowID: window, WindowIDCompat: window, FrameID: ev.FrameID, TargetID: k.target,
		Method: ev.Request.Method, URL: ev.Request.URL, ResourceType: ev.Type, RequestHeaders: n.red.read(ev.Request.Headers),
		wall: wall, mono: ev.Timestamp, Timestamp: wall.UTC().Format(time.RFC3339Nano)}
	if len(ev.Initiator) > 0 {
		var in struct {
			Type       string `json:"type"`
			URL        string `json:"url"`
			LineNumber int    `json:"lineNumber"`
			Stack      *struct {
				CallFrames []struct {
					URL        string `json:"url"`
					LineNumber int    `json:"lineNumber"`
				} `json:"callFrames"`
			} `json:"stack"`
		}
		if json.Unmarshal(ev.Initiator, &in) == nil {
			i := &Initiator{Type: in.Type, URL: in.URL}
			if in.URL != "" {
				i.Line = in.LineNumber + 1
			}
			if i.URL == "" && in.Stack != nil && len(in.Stack.CallFrames) > 0 {
				i.URL, i.Line = in.Stack.CallFrames[0].URL, in.Stack.CallFrames[0].LineNumber+1
			}
			r.Initiator = i
		}
	}
	if e := n.early[k]; e != nil { // extra-info that came first
		n.mergeHeaders(&r.RequestHeaders, e.request)
		n.mergeHeaders(&r.ResponseHeaders, e.response)
		delete(n.early, k) // earlyKeys keeps the key until it ages out
	}
	if n.opts.Bodies != "" && (ev.Request.PostData != "" || ev.Request.HasPostData) {
		n.takeRequestBody(r, ev.Request.PostData, ev.Request.HasPostData)
	}
	n.pending[k] = r
	if ev.Type == "Document" && ev.FrameID != "" && ev.FrameID != k.target {
		// A frame's document: if the frame becomes an OOPIF, Chromium
		// reports the request's start here (its parent's target) and the
		// rest on the OOPIF's target, whose id is the frame's.
		n.pending[pkey{ev.FrameID, ev.RequestID}] = r
	}
}

// endedLocked remembers that request k (record r) ended, under both its
// keys, for extra-info events that come after; the oldest go past
// maxEnded. n.mu is held.
func (n *Network) endedLocked(k pkey, r *Record) *endedRef {
	ref := &endedRef{slot: -1}
	for _, pk := range []pkey{k, {r.TargetID, r.ID}} {
		if _, ok := n.ended[pk]; !ok {
			n.endedKeys = append(n.endedKeys, pk)
		}
		n.ended[pk] = ref
	}
	for len(n.endedKeys) > 2*maxEnded {
		delete(n.ended, n.endedKeys[0])
		n.endedKeys = n.endedKeys[1:]
	}
	if cap(n.endedKeys) > 8*maxEnded { // let the slice's front go
		n.endedKeys = append([]pkey(nil), n.endedKeys...)
	}
	return ref
}

// lateExtraInfoLocked merges the headers of an extra-info event that came
// after its request ended (Chromium sends Cookie and Set-Cookie only
// there, from another process than the rest): into the record while its
// bodies are read, else into its ring slot, copying the map first since
// reads hand out records sharing it. n.mu is held.
func (n *Network) lateExtraInfoLocked(k pkey, request bool, h map[string]string) {
	if len(h) == 0 {
		return
	}
	ref := n.ended[k]
	if ref == nil {
		// Not seen yet: the network service's event overtook the
		// renderer's requestWillBeSent. Kept (bounded) for it.
		e := n.early[k]
		if e == nil {
			e = &earlyInfo{}
			n.early[k] = e
			n.earlyKeys = append(n.earlyKeys, k)
			for len(n.earlyKeys) > maxEnded {
				delete(n.early, n.earlyKeys[0])
				n.earlyKeys = n.earlyKeys[1:]
			}
			if cap(n.earlyKeys) > 4*maxEnded {
				n.earlyKeys = append([]pkey(nil), n.earlyKeys...)
			}
		}
		dst := &e.response
		if request {
			dst = &e.request
		}
		if *dst == nil {
			*dst = map[string]string{}
		}
		maps.Copy(*dst, h)
		return
	}
	r := ref.rec
	if r == nil {
		if ref.slot < 0 || ref.slot >= len(n.ring) || n.ring[ref.slot].Seq != ref.seq {
			return // gone from the ring
		}
		r = &n.ring[ref.slot]
		r.RequestHeaders, r.ResponseHeaders = maps.Clone(r.RequestHeaders), maps.Clone(r.ResponseHeaders)
		r.enc = nil
	}
	if request {
		n.mergeHeaders(&r.RequestHeaders, h)
	} else {
		n.mergeHeaders(&r.ResponseHeaders, h)
	}
}

// dropPendingLocked ends request k's record r in flight, under both keys
// it may have (see onRequest). n.mu is held.
func (n *Network) dropPendingLocked(k pkey, r *Record) {
	for _, pk := range []pkey{k, {r.TargetID, r.ID}, {r.FrameID, r.ID}} {
		if n.pending[pk] == r {
			delete(n.pending, pk)
		}
	}
}

// attribute sets a record's surface and window from its frame, else (a
// worker's request) from its target's own surface.
func (n *Network) attribute(r *Record, targetID string) {
	if n.cfg.Surfaces == nil {
		return
	}
	var sid, window string
	if r.FrameID != "" {
		sid, _ = n.cfg.Surfaces.SurfaceOf(r.FrameID)
		window, _ = n.cfg.Surfaces.WindowOf(r.FrameID)
	}
	if sid == "" {
		sid, _ = n.cfg.Surfaces.SurfaceOf(targetID)
		window, _ = n.cfg.Surfaces.WindowOf(targetID)
	}
	r.SurfaceID, r.WindowID, r.WindowIDCompat = sid, window, window
}

// takeRequestBody keeps a request body as the capture asks. n.mu is held.
func (n *Network) takeRequestBody(r *Record, data string, more bool) {
	r.RequestBodyBytes = int64(len(data))
	if more && data == "" {
		r.RequestBodyTruncated = true // read later by the body worker
	}
	ct := r.RequestHeaders.Get("content-type")
	if n.opts.Bodies == "size" || !bodyType(n.opts.BodyTypes, ct) {
		return
	}
	text, enc, cut := capBody([]byte(data), n.opts.MaxBodyBytes, ct)
	r.RequestBody, r.RequestBodyEncoding = n.red.body(text, enc, ct), enc
	r.RequestBodyTruncated = r.RequestBodyTruncated || cut
}

func (n *Network) takeResponse(r *Record, resp *wireResponse, ts float64) {
	r.Status, r.StatusText, r.MimeType = resp.Status, resp.StatusText, resp.MimeType
	ok := resp.Status >= 200 && resp.Status < 400
	r.OK = &ok
	n.mergeHeaders(&r.ResponseHeaders, resp.Headers)
	r.FromCache = r.FromCache || resp.FromDiskCache || resp.FromPrefetchCache
	r.FromServiceWorker = resp.FromServiceWorker
	r.Protocol = resp.Protocol
	if resp.RemoteIPAddress != "" {
		r.RemoteAddress = resp.RemoteIPAddress
	}
	var ttfb float64
	if t := resp.Timing; t != nil && t.RequestTime > 0 && r.mono > 0 {
		ttfb = (t.RequestTime-r.mono)*1000 + t.ReceiveHeadersEnd
		r.sendS, r.sent = t.RequestTime, t.SendEnd
	} else if r.mono > 0 && ts > 0 {
		ttfb = (ts - r.mono) * 1000
	}
	if ttfb >= 0 {
		r.TTFBMs = &ttfb
	}
}

// addLocked puts a finished record in the ring. n.mu is held.
func (n *Network) addLocked(r *Record) {
	r.Seq = n.seq()
	r.body = int64(r.RequestBody.Len() + r.ResponseBody.Len())
	slot := len(n.ring)
	if len(n.ring) < DefaultMaxRecords {
		n.ring = append(n.ring, *r)
	} else {
		slot = n.head
		old := &n.ring[n.head]
		n.bodyBytes -= old.body
		n.ring[n.head] = *r
		n.head = (n.head + 1) % len(n.ring)
		n.overflowed++
	}
	if ref := n.ended[pkey{r.TargetID, r.ID}]; ref != nil && (ref.rec == nil || ref.rec == r) {
		ref.rec, ref.slot, ref.seq = nil, slot, r.Seq // late extra-info goes to the ring now
	}
	n.bodyBytes += r.body
	if n.bodyBytes > n.opts.BodyBudget {
		for i := 0; i < len(n.ring) && n.bodyBytes > n.opts.BodyBudget; i++ {
			o := &n.ring[(n.head+i)%len(n.ring)]
			if o.body == 0 {
				continue
			}
			n.bodyBytes -= o.body
			o.body = 0
			o.RequestBody, o.ResponseBody = secret.String{}, secret.String{}
			o.BodyDropped = true
			o.enc = nil
			n.bodiesDrop++
		}
	}
}

// ReadOptions filter a read of the ring.
type ReadOptions struct {
	Since int64
	Limit int
	Match *Matcher
	// Clear empties the ring after the read.
	Clear bool
	// Reveal shows secrets (Record.Shown): only for a call allowed to
	// reveal (--allow-secrets and reveal:true).
	Reveal bool
	// InFlight adds requests not finished yet (without seq).
	InFlight bool
}

// Page is what a read returns.
type Page struct {
	Records       []Record
	NextSince     int64
	Overflowed    int64
	BodiesDropped int64
	Lost          int64
	Total         int
}

// Read returns the records with seq > Since, oldest first, at most Limit
// (the newest ones).
func (n *Network) Read(o ReadOptions) Page {
	n.mu.Lock()
	recs := make([]Record, 0, min(len(n.ring), max(o.Limit, 0)))
	count := len(n.ring)
	idx := make([]int, 0, count)
	for i := range count {
		j := (n.head + i) % count
		r := &n.ring[j]
		if r.Seq <= o.Since || !o.Match.Request(r.URL, r.Method, r.ResourceType, r.SurfaceID) {
			continue
		}
		idx = append(idx, j)
	}
	total := len(idx)
	if o.Limit > 0 && len(idx) > o.Limit {
		idx = idx[len(idx)-o.Limit:]
	}
	for _, j := range idx {
		r := &n.ring[j]
		if !o.Reveal && r.enc == nil && r.body == 0 && !o.Clear {
			// Encode a finished record once (its secrets redacted by their
			// type): later reads append these bytes (network_captured
			// polled with since).
			r.enc = r.appendJSON(nil)
		}
		c := *r
		if o.Reveal {
			c = c.Shown()
		}
		recs = append(recs, c)
	}
	if o.InFlight {
		seen := make(map[*Record]bool, len(n.pending))
		for _, r := range n.pending {
			if seen[r] {
				continue // an OOPIF's document, kept under two keys
			}
			seen[r] = true
			if o.Match.Request(r.URL, r.Method, r.ResourceType, r.SurfaceID) {
				// the reader goroutine still merges into these
				c := r.clone()
				c.InFlight = true
				c.Redirects = slices.Clone(r.Redirects)
				if o.Reveal {
					c = c.Shown()
				}
				recs = append(recs, c)
			}
		}
	}
	p := Page{NextSince: o.Since, Overflowed: n.overflowed, BodiesDropped: n.bodiesDrop, Lost: n.lost, Total: total}
	if o.Clear {
		n.ring, n.head, n.bodyBytes = nil, 0, 0
	}
	n.mu.Unlock()
	if o.Limit > 0 && len(recs) > o.Limit {
		recs = recs[len(recs)-o.Limit:]
	}
	for i := range recs {
		if recs[i].Seq > p.NextSince {
			p.NextSince = recs[i].Seq
		}
	}
	p.Records = recs
	return p
}

// Stats counts what the Network keeps, for tests that prove it bounded.
type Stats struct {
	Records, Pending, Targets, Stubs, StubbedBy int
	Ended                                       int // requests remembered after their end (at most 2*maxEnded keys) or before their start (maxEnded)
	Conditions                                  int // windows with conditions of their own (and "" for every window)
	BodyBytes                                   int64
	Paused, Answered                            int64
}

// Stats returns the counts now.
func (n *Network) Stats() Stats {
	n.mu.Lock()
	defer n.mu.Unlock()
	return Stats{Records: len(n.ring), Pending: len(n.pending), Targets: len(n.targets), Stubs: len(n.stubs),
		StubbedBy: len(n.stubbedBy), Ended: len(n.ended) + len(n.early), Conditions: len(n.cond), BodyBytes: n.bodyBytes, Paused: n.pausedNow, Answered: n.answered}
}

// Close disables interception and capture on every target (so the app
// keeps loading without us), answers what is paused, and waits for its
// goroutines.
func (n *Network) Close() error {
	n.unlisten()
	n.unwatch()
	n.holdMu.Lock()
	if n.unhold != nil {
		n.unhold()
		n.unhold = nil
	}
	n.holdMu.Unlock()
	n.mu.Lock()
	if n.closed {
		n.mu.Unlock()
		return nil
	}
	n.stubs = nil
	hadCond := len(n.cond) > 0
	n.cond = map[string]Conditions{}
	n.capturing.Store(false)
	if n.jobs != nil {
		close(n.jobs)
		n.jobs = nil
	}
	targets := make(map[string]*targetState, len(n.targets))
	for id, st := range n.targets {
		targets[id] = st
	}
	n.closed = true
	n.mu.Unlock()
	// Paused requests are answered with the stubs gone (continue); then
	// every target drops Fetch and Network (which also lets go of
	// anything still paused).
	n.cancel()
	n.wg.Wait()
	var wg sync.WaitGroup
	for id, st := range targets {
		wg.Go(func() {
			st.mu.Lock()
			defer st.mu.Unlock()
			if !st.fetch && !st.network && !hadCond {
				return
			}
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
			defer cancel()
			conn, err := n.cfg.Pool.Conn(ctx, id)
			if err != nil {
				return
			}
			if st.fetch {
				_ = conn.Call(ctx, "Fetch.disable", nil, nil)
			}
			if hadCond {
				_ = applyConditions(ctx, conn, Conditions{})
			}
			if st.network {
				_ = conn.Call(ctx, "Network.disable", nil, nil)
			}
		})
	}
	wg.Wait()
	return nil
}
