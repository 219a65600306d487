package tool

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/understudy-dev/understudy/internal/errs"
	"github.com/understudy-dev/understudy/internal/files"
	"github.com/understudy-dev/understudy/internal/trace"
)

// maxViewSteps bounds the steps trace_view lists.
const maxViewSteps = 200

type traceViewArgs struct {
	Path      string `json:"path" jsonschema:"the trace folder (or its trace.json); relative: in the artifacts folder"`
	HTML      bool   `json:"html,omitempty" jsonschema:"also write a self-contained HTML report"`
	Out       string `json:"out,omitempty" jsonschema:"where to write the HTML report (default <trace>/report.html)"`
	Overwrite bool   `json:"overwrite,omitempty" jsonschema:"replace out even if this server did not write it"`
}

func (a *traceViewArgs) validate() error {
	if a.Path == "" {
		return errs.BadArg("path", "is required: a trace folder")
	}
	if a.Out != "" && !a.HTML {
		return errs.BadArg("out", "is where the HTML report goes; pass html:true too")
	}
	return nil
}

// TraceStepSummary is one step in trace_view.
type TraceStepSummary struct {
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

// TraceViewResult is trace_view's answer.
type TraceViewResult struct {
	Path         string             `json:"path"`
	Complete     bool               `json:"complete"`
	StoppedAfter int                `json:"stopped_after"`
	Note         string             `json:"note,omitempty"`
	Calls        int                `json:"calls"`
	Failures     int                `json:"failures"`
	TotalTokens  int                `json:"total_estimated_tokens"`
	Steps        []TraceStepSummary `json:"step_list"`
	Truncated    bool               `json:"truncated,omitempty"`
	HTMLPath     string             `json:"html_path,omitempty"`
	HTMLBytes    int                `json:"html_bytes,omitempty"`
}

func traceView(ctx context.Context, c *Call, a *traceViewArgs) (*TraceViewResult, error) {
	t, err := loadTrace(ctx, c, "path", a.Path)
	if err != nil {
		return nil, err
	}
	r := &TraceViewResult{Path: t.Dir, Complete: t.Complete, StoppedAfter: t.StoppedAfter, Calls: len(t.Steps), Steps: []TraceStepSummary{}}
	if !t.Complete {
		r.Note = "the recording was not stopped (the server ended while recording); it ends after step " + strconv.Itoa(t.StoppedAfter)
	}
	for _, st := range t.Steps {
		r.TotalTokens += st.Tokens
		if !st.OK {
			r.Failures++
		}
		if len(r.Steps) == maxViewSteps {
			r.Truncated = true
			continue
		}
		ss := TraceStepSummary{Seq: st.Seq, Tool: st.Tool, OK: st.OK, Code: st.Code, ElapsedMS: st.ElapsedMS, Tokens: st.Tokens,
			Screenshot: st.Screenshot != "", Console: len(st.Console)}
		if st.Surface != nil {
			ss.SurfaceID = st.Surface.SurfaceID
		}
		r.Steps = append(r.Steps, ss)
	}
	if !a.HTML {
		return r, nil
	}
	out := a.Out
	if out == "" {
		out = filepath.Join(t.Dir, "report.html")
	}
	file, err := c.Server.files.CheckWrite(ctx, "out", out, a.Overwrite)
	if err != nil {
		return nil, err
	}
	page, err := t.HTML(time.Now())
	if err != nil {
		return nil, errs.Wrap(errs.Internal, err, "rendering the report")
	}
	path, err := c.Server.files.Write(ctx, files.Out{Field: "out", Path: file, Overwrite: a.Overwrite}, page)
	if err != nil {
		return nil, err
	}
	r.HTMLPath, r.HTMLBytes = path, len(page)
	return r, nil
}

type traceExportArgs struct {
	Path      string `json:"path" jsonschema:"the trace folder; relative: in the artifacts folder"`
	Out       string `json:"out" jsonschema:"the test file to write, e.g. tests/flow.spec.ts (under an allowed root; relative: in the artifacts folder)"`
	Name      string `json:"name,omitempty" jsonschema:"the test's title (default: understudy trace)"`
	RelayURL  string `json:"relayUrl,omitempty" jsonschema:"the relay the test connects to when UNDERSTUDY_RELAY is not set (default http://127.0.0.1:9222)"`
	Overwrite bool   `json:"overwrite,omitempty" jsonschema:"replace out even if this server did not write it"`
}

func (a *traceExportArgs) validate() error {
	switch {
	case a.Path == "":
		return errs.BadArg("path", "is required: a trace folder")
	case a.Out == "":
		return errs.BadArg("out", "is required: the .spec.ts file to write")
	case !strings.HasSuffix(a.Out, ".ts") && !strings.HasSuffix(a.Out, ".js") && !strings.HasSuffix(a.Out, ".mjs"):
		return errs.BadArg("out", "must end in .ts (or .js/.mjs): Playwright Test runs it")
	case a.RelayURL != "" && !strings.HasPrefix(a.RelayURL, "http://") && !strings.HasPrefix(a.RelayURL, "ws://"):
		return errs.BadArg("relayUrl", "must be an http:// or ws:// address of an understudy relay")
	}
	return nil
}

// TraceExportResult is trace_export_playwright's answer.
type TraceExportResult struct {
	Path       string          `json:"path"`
	Bytes      int             `json:"bytes"`
	Actions    int             `json:"actions"`
	Assertions int             `json:"assertions"`
	Skipped    []trace.Skipped `json:"skipped"`
	Run        string          `json:"run"`
}

func traceExport(ctx context.Context, c *Call, a *traceExportArgs) (*TraceExportResult, error) {
	t, err := loadTrace(ctx, c, "path", a.Path)
	if err != nil {
		return nil, err
	}
	file, err := c.Server.files.CheckWrite(ctx, "out", a.Out, a.Overwrite)
	if err != nil {
		return nil, err
	}
	ex := t.ExportPlaywright(trace.ExportOptions{Name: a.Name, RelayURL: a.RelayURL, Action: c.Server.exportAction})
	path, err := c.Server.files.Write(ctx, files.Out{Field: "out", Path: file, Overwrite: a.Overwrite}, []byte(ex.Source))
	if err != nil {
		return nil, err
	}
	return &TraceExportResult{Path: path, Bytes: len(ex.Source), Actions: ex.Actions, Assertions: ex.Asserts, Skipped: ex.Skipped,
		Run: "UNDERSTUDY_RELAY=<relay http url> npx playwright test " + filepath.Base(path)}, nil
}

type tracePromoteArgs struct {
	Path       string   `json:"path" jsonschema:"the trace folder; relative: in the artifacts folder"`
	Out        string   `json:"out,omitempty" jsonschema:"the spec file to write (.json; default <trace>/replay.json)"`
	Include    []string `json:"include,omitempty" jsonschema:"keep only these tools (a trailing * matches a prefix, e.g. electron_*)"`
	Exclude    []string `json:"exclude,omitempty" jsonschema:"leave out these tools (a trailing * matches a prefix)"`
	Redactions []string `json:"redactions,omitempty" jsonschema:"more argument fields to redact, e.g. args.text (password, token, authorization, cookie... always are)"`
	Overwrite  bool     `json:"overwrite,omitempty" jsonschema:"replace out even if this server did not write it"`
}

func (a *tracePromoteArgs) validate() error {
	switch {
	case a.Path == "":
		return errs.BadArg("path", "is required: a trace folder")
	case a.Out != "" && !strings.HasSuffix(a.Out, ".json"):
		return errs.BadArg("out", "must end in .json")
	case len(a.Include) > 200 || len(a.Exclude) > 200 || len(a.Redactions) > 200:
		return errs.BadArg("include", "at most 200 entries in include, exclude and redactions")
	}
	for _, r := range a.Redactions {
		if k := strings.TrimPrefix(r, "args."); k == "" || strings.ContainsAny(k, ". ") {
			return errs.BadArg("redactions", "a field name or args.NAME, not %q", r)
		}
	}
	return nil
}

// TracePromoteResult is trace_promote's answer.
type TracePromoteResult struct {
	Path     string   `json:"path"`
	Bytes    int      `json:"bytes"`
	Steps    int      `json:"step_count"`
	Retained []int    `json:"retained"` // seq of steps kept for their session
	Sessions []string `json:"session_placeholders"`
	Run      string   `json:"run"`
}

func tracePromote(ctx context.Context, c *Call, a *tracePromoteArgs) (*TracePromoteResult, error) {
	t, err := loadTrace(ctx, c, "path", a.Path)
	if err != nil {
		return nil, err
	}
	out := a.Out
	if out == "" {
		out = filepath.Join(t.Dir, "replay.json")
	}
	file, err := c.Server.files.CheckWrite(ctx, "out", out, a.Overwrite)
	if err != nil {
		return nil, err
	}
	sp := t.Promote(trace.PromoteOptions{Include: a.Include, Exclude: a.Exclude, Redactions: a.Redactions, OpensSession: c.Server.opensSession})
	b, err := json.MarshalIndent(sp, "", "  ")
	if err != nil {
		return nil, errs.Wrap(errs.Internal, err, "encoding the spec")
	}
	path, err := c.Server.files.Write(ctx, files.Out{Field: "out", Path: file, Overwrite: a.Overwrite}, append(b, '\n'))
	if err != nil {
		return nil, err
	}
	r := &TracePromoteResult{Path: path, Bytes: len(b) + 1, Steps: len(sp.Steps), Retained: []int{}, Sessions: sp.Sessions,
		Run: "trace_replay {path: \"" + path + "\"}"}
	for _, st := range sp.Steps {
		if st.Retained {
			r.Retained = append(r.Retained, st.Seq)
		}
	}
	return r, nil
}
