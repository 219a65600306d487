package trace

import (
	"encoding/json"
	"path/filepath"
	"strconv"

	"github.com/understudy-dev/understudy/internal/errs"
)

// The answers of the trace tools.

// MaxViewSteps bounds the steps a view lists.
const MaxViewSteps = 200

// State is a recording's state.
type State struct {
	Recording bool          `json:"recording"`
	Path      string        `json:"path,omitempty"`
	Steps     int           `json:"step_count"`
	Dropped   int           `json:"dropped,omitempty"`
	Spent     int           `json:"spent_tokens"`
	Budget    *BudgetStatus `json:"budget,omitempty"`
}

// StateOf is the state of a recording (recording: it still runs) at st.
func StateOf(recording bool, st Status) *State {
	return &State{Recording: recording, Path: st.Path, Steps: st.Steps, Dropped: st.Dropped, Spent: st.Spent, Budget: st.Budget}
}

// StatusOf is rec's state: not recording when rec is nil.
func StatusOf(rec *Recorder) *State {
	if rec == nil {
		return &State{}
	}
	return StateOf(true, rec.Status())
}

// NotRecording is TRACE_NOT_RECORDING.
func NotRecording() error { return errs.New(errs.TraceNotRecording, "no trace is recording") }

// Stop stops the recording and closes its trace: TRACE_NOT_RECORDING when
// none runs.
func (l *Live) Stop() (*State, error) {
	rec := l.Take()
	if rec == nil {
		return nil, NotRecording()
	}
	st, err := rec.Stop()
	if err != nil {
		return nil, err
	}
	return StateOf(false, st), nil
}

// Busy is TRACE_ALREADY_RECORDING when rec runs (nil when it is nil):
// with its folder when the caller sees it (theirs), without for another
// client (one recording per server; its folder is not theirs to know).
func Busy(rec *Recorder, theirs bool) error {
	switch {
	case rec == nil:
		return nil
	case !theirs:
		return errs.New(errs.TraceAlreadyRecording, "another MCP client of this server is recording a trace (one recording per server); try again when it stops")
	}
	return errs.New(errs.TraceAlreadyRecording, "a trace is recording to %s", rec.Dir()).With("path", rec.Dir())
}

// BudgetResult is a cheap poll of the live recording's token budget.
type BudgetResult struct {
	Recording bool          `json:"recording"`
	Path      string        `json:"path,omitempty"`
	Budget    *BudgetStatus `json:"budget,omitempty"`
}

// BudgetOf is rec's budget: not recording when rec is nil.
func BudgetOf(rec *Recorder) *BudgetResult {
	if rec == nil {
		return &BudgetResult{}
	}
	return &BudgetResult{Recording: true, Path: rec.Dir(), Budget: rec.Budget()}
}

// TokensResult says where a trace's estimated tokens went.
type TokensResult struct {
	Tokens
	Path     string        `json:"path"`
	Live     bool          `json:"live"`
	Complete bool          `json:"complete"`
	Budget   *BudgetStatus `json:"budget,omitempty"`
}

// TokensResult is the live recording's token report.
func (r *Recorder) TokensResult() *TokensResult {
	return &TokensResult{Tokens: r.TokenReport(), Path: r.Dir(), Live: true, Budget: r.Budget()}
}

// LiveTokens is rec's TokensResult: TRACE_NOT_RECORDING, pointing to a
// written trace, when rec is nil.
func LiveTokens(rec *Recorder) (*TokensResult, error) {
	if rec == nil {
		return nil, errs.New(errs.TraceNotRecording, "no trace is recording; pass path to read a written trace")
	}
	return rec.TokensResult(), nil
}

// TokensResult is the written trace's token report.
func (t *Trace) TokensResult() *TokensResult {
	return &TokensResult{Tokens: t.TokenReport(), Path: t.Dir, Complete: t.Complete, Budget: t.BudgetStatus()}
}

// StepSummary is one step of a view.
type StepSummary struct {
	Seq        int    `json:"seq"`
	Tool       string `json:"tool"`
	OK         bool   `json:"ok"`
	Code       string `json:"code,omitempty"`
	ElapsedMS  int64  `json:"elapsed_ms"`
	Tokens     int    `json:"estimated_tokens"`
	SurfaceID  string `json:"surface_id,omitempty"`
	Screenshot bool   `json:"screenshot,omitempty"`
	Console    int    `json:"console_lines,omitempty"`
}

// ViewResult is a trace's summary, and where its HTML report went.
type ViewResult struct {
	Path         string        `json:"path"`
	Complete     bool          `json:"complete"`
	StoppedAfter int           `json:"stopped_after"`
	Note         string        `json:"note,omitempty"`
	Calls        int           `json:"calls"`
	Failures     int           `json:"failures"`
	TotalTokens  int           `json:"total_estimated_tokens"`
	Steps        []StepSummary `json:"step_list"`
	Truncated    bool          `json:"truncated,omitempty"`
	HTMLPath     string        `json:"html_path,omitempty"`
	HTMLBytes    int           `json:"html_bytes,omitempty"`
}

// View summarises t: its steps (at most MaxViewSteps listed), failures,
// tokens, and where a recording that was not stopped ends.
func (t *Trace) View() *ViewResult {
	r := &ViewResult{Path: t.Dir, Complete: t.Complete, StoppedAfter: t.StoppedAfter, Calls: len(t.Steps), Steps: []StepSummary{}}
	if !t.Complete {
		r.Note = "the recording was not stopped (the server ended while recording); it ends after step " + strconv.Itoa(t.StoppedAfter)
	}
	for _, st := range t.Steps {
		r.TotalTokens += st.Tokens
		if !st.OK {
			r.Failures++
		}
		if len(r.Steps) == MaxViewSteps {
			r.Truncated = true
			continue
		}
		ss := StepSummary{Seq: st.Seq, Tool: st.Tool, OK: st.OK, Code: st.Code, ElapsedMS: st.ElapsedMS, Tokens: st.Tokens,
			Screenshot: st.Screenshot != "", Console: len(st.Console)}
		if st.Surface != nil {
			ss.SurfaceID = st.Surface.SurfaceID
		}
		r.Steps = append(r.Steps, ss)
	}
	return r
}

// ExportResult is where a Playwright export went and what it holds.
type ExportResult struct {
	Path       string    `json:"path"`
	Bytes      int       `json:"bytes"`
	Actions    int       `json:"actions"`
	Assertions int       `json:"assertions"`
	Skipped    []Skipped `json:"skipped"`
	Run        string    `json:"run"`
}

// Result is the answer for ex written to path.
func (ex Export) Result(path string) *ExportResult {
	return &ExportResult{Path: path, Bytes: len(ex.Source), Actions: ex.Actions, Assertions: ex.Asserts, Skipped: ex.Skipped,
		Run: "UNDERSTUDY_RELAY=<relay http url> npx playwright test " + filepath.Base(path)}
}

// PromoteResult is where a replay spec went and what it holds.
type PromoteResult struct {
	Path     string   `json:"path"`
	Bytes    int      `json:"bytes"`
	Steps    int      `json:"step_count"`
	Retained []int    `json:"retained"` // seq of steps kept for their session
	Sessions []string `json:"session_placeholders"`
	Run      string   `json:"run"`
}

// File is the spec as the file promotion writes: indented JSON and a
// newline.
func (sp *Spec) File() ([]byte, error) {
	b, err := json.MarshalIndent(sp, "", "  ")
	if err != nil {
		return nil, errs.Wrap(errs.Internal, err, "encoding the spec")
	}
	return append(b, '\n'), nil
}

// Result is the answer for sp written to path in size bytes.
func (sp *Spec) Result(path string, size int) *PromoteResult {
	r := &PromoteResult{Path: path, Bytes: size, Steps: len(sp.Steps), Retained: []int{}, Sessions: sp.Sessions,
		Run: "trace_replay {path: \"" + path + "\"}"}
	for _, st := range sp.Steps {
		if st.Retained {
			r.Retained = append(r.Retained, st.Seq)
		}
	}
	return r
}
