package network

import (
	"context"
	"slices"
	"strconv"

	"github.com/understudy-dev/understudy/internal/errs"
)

// The answers of the network tools and the operations that give them: each
// checks what the targets took (see [Network.StartCaptureChecked]) and
// shapes the answer.

// CaptureStartResult is the answer of starting a capture.
type CaptureStartResult struct {
	Capturing bool     `json:"capturing"`
	URLs      []string `json:"urls,omitempty"`
	Methods   []string `json:"methods,omitempty"`
	// Targets is how many targets (windows, guests, frames) record now.
	Targets int `json:"targets"`
	// FailedTargets did not answer in time (a page stopped by a dialog,
	// say); a later change of the target retries.
	FailedTargets []Failure `json:"failed_targets,omitempty"`
}

// CaptureStart starts recording as a asks (checked by [CaptureArgs.Check]).
func (n *Network) CaptureStart(ctx context.Context, a *CaptureArgs) (*CaptureStartResult, error) {
	m, _ := a.Compile()
	bodies, _ := a.bodies()
	k, fails, err := n.StartCaptureChecked(ctx, CaptureOptions{Match: m, Bodies: bodies, MaxBodyBytes: a.MaxBodyBytes, BodyTypes: a.BodyContentTypes, BodyBudget: a.BodyBudgetBytes})
	if err != nil {
		return nil, err
	}
	return &CaptureStartResult{Capturing: true, URLs: a.URLs, Methods: a.Methods, Targets: k, FailedTargets: fails}, nil
}

// CapturedResult is the answer of reading the recorded requests.
type CapturedResult struct {
	Count  int      `json:"count"`
	Events []Record `json:"events"`
	// Total is how many records matched, before limit.
	Total         int   `json:"total"`
	NextSince     int64 `json:"next_since"`
	Overflowed    int64 `json:"overflowed"`
	BodiesDropped int64 `json:"bodies_dropped"`
	// Untracked counts requests not recorded because too many were in
	// flight at once.
	Untracked int64 `json:"untracked,omitempty"`
	Capturing bool  `json:"capturing"`
}

// AppendJSON encodes the answer as encoding/json would (the records
// encode themselves, see [Record.AppendJSON]).
func (r *CapturedResult) AppendJSON(b []byte) []byte {
	size := 256
	for i := range r.Events {
		e := &r.Events[i]
		size += 512 + len(e.URL) + e.RequestBody.Len() + e.ResponseBody.Len() + 64*(len(e.RequestHeaders)+len(e.ResponseHeaders))
	}
	b = slices.Grow(b, size)
	b = append(b, `{"count":`...)
	b = strconv.AppendInt(b, int64(r.Count), 10)
	b = append(b, `,"events":`...)
	if r.Events == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i := range r.Events {
			if i > 0 {
				b = append(b, ',')
			}
			b = r.Events[i].AppendJSON(b)
		}
		b = append(b, ']')
	}
	b = append(b, `,"total":`...)
	b = strconv.AppendInt(b, int64(r.Total), 10)
	b = append(b, `,"next_since":`...)
	b = strconv.AppendInt(b, r.NextSince, 10)
	b = append(b, `,"overflowed":`...)
	b = strconv.AppendInt(b, r.Overflowed, 10)
	b = append(b, `,"bodies_dropped":`...)
	b = strconv.AppendInt(b, r.BodiesDropped, 10)
	if r.Untracked != 0 {
		b = append(b, `,"untracked":`...)
		b = strconv.AppendInt(b, r.Untracked, 10)
	}
	b = append(b, `,"capturing":`...)
	b = strconv.AppendBool(b, r.Capturing)
	return append(b, '}')
}

// Captured reads the recorded requests as a asks (checked by
// [CapturedArgs.Check]), secrets shown when reveal; NOT_CAPTURING when no
// capture runs and none was kept.
func (n *Network) Captured(a *CapturedArgs, reveal bool) (*CapturedResult, error) {
	if !n.Capturing() && n.Stats().Records == 0 {
		return nil, errs.New(errs.NotCapturing, "no network capture is running")
	}
	m, _ := a.Compile()
	limit := a.Limit
	if limit == 0 {
		limit = 200
	}
	p := n.Read(ReadOptions{Since: a.Since, Limit: limit, Match: m, Clear: a.Clear, Reveal: reveal, InFlight: a.InFlight})
	if p.Records == nil {
		p.Records = []Record{}
	}
	return &CapturedResult{Count: len(p.Records), Events: p.Records, Total: p.Total, NextSince: p.NextSince, Overflowed: p.Overflowed,
		BodiesDropped: p.BodiesDropped, Untracked: p.Lost, Capturing: n.Capturing()}, nil
}

// CaptureStopResult is the answer of stopping a capture.
type CaptureStopResult struct {
	Stopped bool `json:"stopped"`
	// Events is how many records the buffer held.
	Events int `json:"events"`
}

// CaptureStop stops recording and clears the buffer; NOT_CAPTURING when
// none ran.
func (n *Network) CaptureStop(ctx context.Context) (*CaptureStopResult, error) {
	p, err := n.StopCapture(ctx)
	if err != nil && errs.CodeOf(err) == errs.NotCapturing {
		return nil, err
	}
	// A target that could not drop the Network domain still records
	// nothing: capture is off here.
	return &CaptureStopResult{Stopped: true, Events: p.Total}, nil
}

// StubResult is the answer of adding a stub.
type StubResult struct {
	Stubbed bool   `json:"stubbed"`
	ID      string `json:"id"`
	Action  string `json:"action"`
	Abort   string `json:"abort,omitempty"`
	// Targets is how many targets intercept now.
	Targets       int       `json:"targets"`
	FailedTargets []Failure `json:"failed_targets,omitempty"`
}

// StubRequests adds s ([Network.AddStubChecked]) and says what it does.
func (n *Network) StubRequests(ctx context.Context, s *Stub) (*StubResult, error) {
	id, k, fails, err := n.AddStubChecked(ctx, s)
	if err != nil {
		return nil, err
	}
	return &StubResult{Stubbed: true, ID: id, Action: s.Action(), Abort: s.Abort, Targets: k, FailedTargets: fails}, nil
}

// UnstubResult is the answer of removing stubs.
type UnstubResult struct {
	Unstubbed int      `json:"unstubbed"`
	IDs       []string `json:"ids"`
	// Remaining is how many stubs are still active.
	Remaining int `json:"remaining"`
}

// Unstub removes the stubs a names.
func (n *Network) Unstub(ctx context.Context, a *UnstubArgs) (*UnstubResult, error) {
	ids, err := n.RemoveStubs(ctx, a.ID, a.URL)
	if err != nil {
		return nil, errs.Wrap(errs.CodeOf(err), err, "ending interception")
	}
	if ids == nil {
		ids = []string{}
	}
	return &UnstubResult{Unstubbed: len(ids), IDs: ids, Remaining: len(n.Stubs())}, nil
}

// ExportHARResult is the answer of writing a HAR.
type ExportHARResult struct {
	Path    string `json:"path"`
	Entries int    `json:"entry_count"`
	Bytes   int    `json:"bytes"`
}

// ExportHAR encodes the records a selects (checked by
// [ExportHARArgs.Check]) as HAR 1.2 written by version; secrets are
// shown only when reveal. It returns the HAR and its entry count.
func (n *Network) ExportHAR(a *ExportHARArgs, reveal bool, version string) ([]byte, int, error) {
	m, _ := a.Compile()
	p := n.Read(ReadOptions{Since: a.Since, Match: m, Reveal: reveal})
	return HAR(p.Records, version)
}

// ReplayHARResult is the answer of replaying a HAR.
type ReplayHARResult struct {
	ID            string    `json:"id"`
	Entries       int       `json:"entry_count"`
	NotFound      string    `json:"notFound"`
	Targets       int       `json:"targets"`
	FailedTargets []Failure `json:"failed_targets,omitempty"`
}

// ReplayHAR serves the requests a selects from arch, as a stub.
func (n *Network) ReplayHAR(ctx context.Context, a *ReplayHARArgs, arch *Archive) (*ReplayHARResult, error) {
	m, _ := a.Compile()
	nf := a.NotFound
	if nf == "" {
		nf = "abort"
	}
	id, k, fails, err := n.AddStubChecked(ctx, &Stub{Match: m, HAR: arch, NotFound: nf})
	if err != nil {
		return nil, err
	}
	return &ReplayHARResult{ID: id, Entries: arch.Count, NotFound: nf, Targets: k, FailedTargets: fails}, nil
}

// ConditionsResult is the answer of setting network conditions.
type ConditionsResult struct {
	WindowID      string     `json:"windowId,omitempty"`
	Conditions    Conditions `json:"conditions"`
	Cleared       bool       `json:"cleared"`
	Targets       int        `json:"targets"`
	FailedTargets []Failure  `json:"failed_targets,omitempty"`
}

// ApplyConditions sets the conditions a asks ([Network.SetConditionsChecked]).
func (n *Network) ApplyConditions(ctx context.Context, a *ConditionsArgs) (*ConditionsResult, error) {
	cond := a.Conditions()
	k, fails, err := n.SetConditionsChecked(ctx, a.WindowID, cond)
	if err != nil {
		return nil, err
	}
	return &ConditionsResult{WindowID: a.WindowID, Conditions: cond, Cleared: cond.Zero(), Targets: k, FailedTargets: fails}, nil
}
