package trace

import (
	"context"
	"math"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/understudy-dev/understudy/internal/errs"
	"github.com/understudy-dev/understudy/internal/files"
)

// The arguments of the trace tools: their JSON names and descriptions
// (the tools' input schemas), their checks (each names its field) and what
// they ask of a recording, a written trace or a replay.

// StartArgs are what starting a recording asks.
type StartArgs struct {
	Path          string   `json:"path,omitempty" jsonschema:"the trace folder to create; its parent must exist under an allowed root; relative: in the artifacts folder"`
	BudgetTokens  int      `json:"budgetTokens,omitempty" jsonschema:"an estimated-token budget for the recording"`
	Enforce       bool     `json:"enforce,omitempty" jsonschema:"refuse calls once the budget is spent (trace_* calls still run)"`
	WarnThreshold *float64 `json:"warnThreshold,omitempty" jsonschema:"fraction of the budget at which near_budget turns true; default 0.8"`
	Screenshots   bool     `json:"screenshots,omitempty" jsonschema:"take a PNG of the active window after each successful action"`
	MaxSteps      int      `json:"maxSteps,omitempty" jsonschema:"steps written at most (later ones are only counted); default 10000"`
}

// Check refuses arguments a recording cannot start with, naming the field.
func (a *StartArgs) Check() error {
	switch {
	case a.BudgetTokens < 0:
		return errs.BadArg("budgetTokens", "must be 0 or more")
	case a.Enforce && a.BudgetTokens == 0:
		return errs.BadArg("enforce", "needs budgetTokens")
	case a.WarnThreshold != nil && (*a.WarnThreshold <= 0 || *a.WarnThreshold > 1 || math.IsNaN(*a.WarnThreshold)):
		return errs.BadArg("warnThreshold", "must be above 0 and at most 1")
	case a.MaxSteps < 0 || a.MaxSteps > 100000:
		return errs.BadArg("maxSteps", "must be between 1 and 100000")
	case strings.ContainsRune(a.Path, 0):
		return errs.BadArg("path", "contains a NUL byte")
	}
	return nil
}

// Folder is where the recording goes: the existing folder to create it in
// ("" the artifacts folder) and the new folder's name (by default
// trace-<now>).
func (a *StartArgs) Folder(now time.Time) (parent, base string, err error) {
	parent, base = "", "trace-"+now.UTC().Format("20060102-150405.000")
	if a.Path == "" {
		return parent, base, nil
	}
	clean := filepath.Clean(a.Path)
	parent, base = filepath.Dir(clean), filepath.Base(clean)
	if base == "." || base == ".." || base == string(filepath.Separator) {
		return "", "", errs.BadArg("path", "name a new folder for the trace")
	}
	if !filepath.IsAbs(clean) && parent == "." {
		parent = ""
	}
	return parent, base, nil
}

// Options are the recorder's options, for a server of version.
func (a *StartArgs) Options(version string) Options {
	o := Options{ServerVersion: version, Screenshots: a.Screenshots, MaxSteps: a.MaxSteps}
	if a.BudgetTokens > 0 {
		w := 0.8
		if a.WarnThreshold != nil {
			w = *a.WarnThreshold
		}
		o.Budget = &Budget{Tokens: a.BudgetTokens, Enforce: a.Enforce, WarnThreshold: w}
	}
	return o
}

// Opener checks where the trace's folder goes (Folder at now, its parent
// checked against the roots, field path) and answers what creates it
// through the one writer and starts the recording there (Live.Start's
// open), with Options(version).
func (a *StartArgs) Opener(ctx context.Context, roots *files.Roots, now time.Time, version string) (func() (*Recorder, error), error) {
	parent, base, err := a.Folder(now)
	if err != nil {
		return nil, err
	}
	dir, err := roots.CheckDir(ctx, "path", parent)
	if err != nil {
		return nil, err
	}
	o := a.Options(version)
	return func() (*Recorder, error) {
		out, err := roots.MakeDir(ctx, "path", filepath.Join(dir, base), errs.TraceWriteFailed)
		if err != nil {
			return nil, err
		}
		return Start(out, o)
	}, nil
}

// PathArgs name a written trace, or none for the live recording.
type PathArgs struct {
	Path string `json:"path,omitempty" jsonschema:"a trace folder (or its trace.json); relative: in the artifacts folder"`
}

// ViewArgs are what a trace's summary and HTML report ask.
type ViewArgs struct {
	Path      string `json:"path" jsonschema:"the trace folder (or its trace.json); relative: in the artifacts folder"`
	HTML      bool   `json:"html,omitempty" jsonschema:"also write a self-contained HTML report"`
	Out       string `json:"out,omitempty" jsonschema:"where to write the HTML report (default <trace>/report.html)"`
	Overwrite bool   `json:"overwrite,omitempty" jsonschema:"replace out even if this server did not write it"`
}

// Check refuses a view without a trace, or an out without html.
func (a *ViewArgs) Check() error {
	if a.Path == "" {
		return errs.BadArg("path", "is required: a trace folder")
	}
	if a.Out != "" && !a.HTML {
		return errs.BadArg("out", "is where the HTML report goes; pass html:true too")
	}
	return nil
}

// ReportPath is where the HTML report of the trace in dir goes.
func (a *ViewArgs) ReportPath(dir string) string {
	if a.Out == "" {
		return filepath.Join(dir, "report.html")
	}
	return a.Out
}

// ExportArgs are what a Playwright export asks.
type ExportArgs struct {
	Path      string `json:"path" jsonschema:"the trace folder; relative: in the artifacts folder"`
	Out       string `json:"out" jsonschema:"the test file to write, e.g. tests/flow.spec.ts (under an allowed root; relative: in the artifacts folder)"`
	Name      string `json:"name,omitempty" jsonschema:"the test's title (default: understudy trace)"`
	RelayURL  string `json:"relayUrl,omitempty" jsonschema:"the relay the test connects to when UNDERSTUDY_RELAY is not set (default http://127.0.0.1:9222)"`
	Overwrite bool   `json:"overwrite,omitempty" jsonschema:"replace out even if this server did not write it"`
}

// Check refuses an export without a trace, a test file Playwright Test
// runs or a relay address, naming the field.
func (a *ExportArgs) Check() error {
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

// Options are the export's options; action turns a step into its Action
// (see ExportOptions).
func (a *ExportArgs) Options(action func(Step) Action) ExportOptions {
	return ExportOptions{Name: a.Name, RelayURL: a.RelayURL, Action: action}
}

// PromoteArgs are what promoting a trace to a replay spec asks.
type PromoteArgs struct {
	Path       string   `json:"path" jsonschema:"the trace folder; relative: in the artifacts folder"`
	Out        string   `json:"out,omitempty" jsonschema:"the spec file to write (.json; default <trace>/replay.json)"`
	Include    []string `json:"include,omitempty" jsonschema:"keep only these tools (a trailing * matches a prefix, e.g. electron_*)"`
	Exclude    []string `json:"exclude,omitempty" jsonschema:"leave out these tools (a trailing * matches a prefix)"`
	Redactions []string `json:"redactions,omitempty" jsonschema:"more argument fields to redact, e.g. args.text (password, token, authorization, cookie... always are)"`
	Overwrite  bool     `json:"overwrite,omitempty" jsonschema:"replace out even if this server did not write it"`
}

// Check refuses a promotion without a trace, a spec not in JSON, too many
// filters or a redaction that is not a field name, naming the field.
func (a *PromoteArgs) Check() error {
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

// SpecPath is where the spec of the trace in dir goes.
func (a *PromoteArgs) SpecPath(dir string) string {
	if a.Out == "" {
		return filepath.Join(dir, "replay.json")
	}
	return a.Out
}

// Options are the promotion's options; opensSession says a tool opens the
// session it runs in (see PromoteOptions).
func (a *PromoteArgs) Options(opensSession func(tool string) bool) PromoteOptions {
	return PromoteOptions{Include: a.Include, Exclude: a.Exclude, Redactions: a.Redactions, OpensSession: opensSession}
}

// ReplayArgs are what a replay asks.
type ReplayArgs struct {
	Path             string `json:"path" jsonschema:"the trace folder, or a spec file trace_promote wrote; relative: in the artifacts folder"`
	SessionID        string `json:"sessionId,omitempty" jsonschema:"replay on this session (default: the recorded launch starts a new one, else the one open session)"`
	Confirm          bool   `json:"confirm,omitempty" jsonschema:"required when the trace has destructive steps (stop, kill, eval, files)"`
	ContinueOnChange bool   `json:"continueOnDifference,omitempty" jsonschema:"go on after the first differing step (default: stop there)"`
	MaxSteps         int    `json:"maxSteps,omitempty" jsonschema:"replay at most this many steps"`
}

// Check refuses a replay without a trace or with a negative maxSteps.
func (a *ReplayArgs) Check() error {
	switch {
	case a.Path == "":
		return errs.BadArg("path", "is required: a trace folder")
	case a.MaxSteps < 0:
		return errs.BadArg("maxSteps", "must be 0 (all) or more")
	}
	return nil
}

// Options are the replay's options.
func (a *ReplayArgs) Options() ReplayOptions {
	return ReplayOptions{SessionID: a.SessionID, ContinueOnChange: a.ContinueOnChange}
}

// Steps are the steps of t the replay runs, at most MaxSteps: all but
// those skip leaves out (the trace tools). offered says whether the server
// offers a step's tool now and whether it is destructive. A step whose
// tool is not offered is REPLAY_NOT_ALLOWED; a destructive step without
// Confirm is CONFIRM_REQUIRED.
func (a *ReplayArgs) Steps(t *Trace, skip func(tool string) bool, offered func(tool string) (ok, destructive bool)) ([]Step, error) {
	var steps []Step
	var refused, destructive []string
	for _, st := range t.Steps {
		if skip(st.Tool) {
			continue
		}
		ok, d := offered(st.Tool)
		if !ok {
			refused = append(refused, "#"+strconv.Itoa(st.Seq)+" "+st.Tool)
		}
		// Steps that end the app, run code, hand files to the page or
		// replace a baseline run only with confirm:true.
		if ok && d {
			destructive = append(destructive, "#"+strconv.Itoa(st.Seq)+" "+st.Tool)
		}
		steps = append(steps, st)
		if a.MaxSteps > 0 && len(steps) == a.MaxSteps {
			break
		}
	}
	if len(refused) > 0 {
		return nil, errs.New(errs.ReplayNotAllowed, "the trace has steps this server cannot run now: %s (eval tools need --allow-eval)", strings.Join(refused, ", ")).With("steps", refused)
	}
	if len(destructive) > 0 && !a.Confirm {
		return nil, errs.New(errs.ConfirmRequired, "the trace has destructive steps: %s; pass confirm:true to replay them", strings.Join(destructive, ", ")).With("steps", destructive)
	}
	return steps, nil
}
