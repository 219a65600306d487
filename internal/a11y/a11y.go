package a11y

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"strings"
	"sync"

	cdpproto "github.com/chromedp/cdproto/cdp"
	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"

	"github.com/understudy-dev/understudy/internal/errs"
	"github.com/understudy-dev/understudy/internal/page"
)

// Bounds of one audit.
const (
	DefaultMaxViolations = 30
	MaxMaxViolations     = 200
	DefaultMaxNodes      = 5
	MaxMaxNodes          = 50
	maxSelectors         = 20
	maxRules             = 200
	maxSummary           = 300
	maxEngineBytes       = 16 << 20
)

// Impacts are axe-core's impact levels, least first.
var impacts = []string{"minor", "moderate", "serious", "critical"}

func impactRank(s string) int {
	for i, v := range impacts {
		if v == s {
			return i
		}
	}
	return -1
}

// Engine is the axe-core source the operator gave.
type Engine struct {
	Path    string
	Version string
	src     string
}

var versionRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`axe v([0-9][0-9A-Za-z.\-]*)`) }) // compiled on first use, not at start

// Load reads axe.min.js (or axe.js) from path. A missing or empty path, a
// file that cannot be read or one that is not axe-core is
// A11Y_ENGINE_MISSING.
func Load(path string) (*Engine, error) {
	if path == "" {
		return nil, errs.New(errs.A11yEngineMissing, "no axe-core engine is configured: start the server with --axe-core PATH/axe.min.js (or UNDERSTUDY_AXE_CORE)")
	}
	fi, err := os.Stat(path)
	if err != nil {
		return nil, errs.New(errs.A11yEngineMissing, "the axe-core engine at %s cannot be read: %v", path, err)
	}
	if fi.IsDir() || fi.Size() > maxEngineBytes {
		return nil, errs.New(errs.A11yEngineMissing, "%s is not axe.min.js (a folder, or over %d bytes)", path, maxEngineBytes)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, errs.New(errs.A11yEngineMissing, "the axe-core engine at %s cannot be read: %v", path, err)
	}
	src := string(b)
	head := src
	if len(head) > 4096 {
		head = head[:4096]
	}
	m := versionRe().FindStringSubmatch(head)
	if m == nil || !strings.Contains(src, "axe.run") && !strings.Contains(src, "getRules") {
		return nil, errs.New(errs.A11yEngineMissing, "%s does not look like axe-core (no \"axe vX\" banner)", path)
	}
	return &Engine{Path: path, Version: m[1], src: src}, nil
}

// Options select and bound an audit.
type Options struct {
	Rules         []string        // exact axe rule ids (run only these)
	Overrides     map[string]bool // rule id → enabled: axe's own rules option ({"color-contrast": {enabled: false}})
	Tags          []string        // or rules with any of these tags (wcag2a, best-practice, ...)
	Include       []string        // CSS selectors: audit only under these
	Exclude       []string        // CSS selectors: leave these out
	Impact        string          // minimum impact of what is reported: minor, moderate, serious, critical
	MaxViolations int             // findings of each kind (violations, incomplete) returned
	MaxNodes      int             // nodes per finding returned
	NoIncomplete  bool            // leave out incomplete checks
}

// Check validates options that need no page.
func (o *Options) Check() error {
	if len(o.Rules) > 0 && len(o.Tags) > 0 {
		return errs.BadArg("rules", "rules and tags are alternatives: pass one")
	}
	if len(o.Rules) > maxRules || len(o.Tags) > maxRules {
		return errs.BadArg("rules", "at most %d rules or tags", maxRules)
	}
	if len(o.Overrides) > maxRules {
		return errs.BadArg("rules", "at most %d rule overrides", maxRules)
	}
	for r := range o.Overrides {
		if strings.TrimSpace(r) == "" || len(r) > 100 {
			return errs.BadArg("rules", "a rule id is a short non-empty word, not %q", r)
		}
	}
	for _, r := range append(append([]string{}, o.Rules...), o.Tags...) {
		if strings.TrimSpace(r) == "" || len(r) > 100 {
			return errs.BadArg("rules", "a rule id or tag is a short non-empty word, not %q", r)
		}
	}
	if len(o.Include) > maxSelectors || len(o.Exclude) > maxSelectors {
		return errs.BadArg("include", "at most %d include and %d exclude selectors", maxSelectors, maxSelectors)
	}
	for _, s := range append(append([]string{}, o.Include...), o.Exclude...) {
		if strings.TrimSpace(s) == "" || len(s) > 1000 {
			return errs.BadArg("include", "a selector is a non-empty CSS selector of at most 1000 characters")
		}
	}
	if o.Impact != "" && impactRank(o.Impact) < 0 {
		return errs.BadArg("impact", "one of minor, moderate, serious, critical, not %q", o.Impact)
	}
	if o.MaxViolations < 0 || o.MaxViolations > MaxMaxViolations {
		return errs.BadArg("maxViolations", "between 1 and %d", MaxMaxViolations)
	}
	if o.MaxNodes < 0 || o.MaxNodes > MaxMaxNodes {
		return errs.BadArg("maxNodes", "between 1 and %d", MaxMaxNodes)
	}
	return nil
}

// Node is one element a finding is about.
type Node struct {
	Ref       int      `json:"ref,omitempty"`
	SurfaceID string   `json:"surface_id"`
	Role      string   `json:"role,omitempty"`
	Name      string   `json:"name,omitempty"`
	Selector  []string `json:"selector"` // axe's path: a selector, then one per shadow root
	Impact    string   `json:"impact,omitempty"`
	Summary   string   `json:"failure_summary,omitempty"`
}

// Finding is one axe rule that failed (or could not decide) on some nodes.
type Finding struct {
	Rule      string   `json:"rule"`
	Impact    string   `json:"impact,omitempty"`
	WCAG      []string `json:"wcag"` // the rule's wcag* tags
	Tags      []string `json:"rule_tags"`
	Help      string   `json:"help"`
	HelpURL   string   `json:"help_url"`
	NodeCount int      `json:"node_count"` // every node, before maxNodes
	Nodes     []Node   `json:"nodes"`
}

// Counts are the true numbers before any bound.
type Counts struct {
	Violations      int `json:"violations"`
	ViolationNodes  int `json:"violation_nodes"`
	Incomplete      int `json:"incomplete"`
	IncompleteNodes int `json:"incomplete_nodes"`
	Passes          int `json:"passes"`
	Inapplicable    int `json:"inapplicable"`
	Critical        int `json:"critical"`
	Serious         int `json:"serious"`
	Moderate        int `json:"moderate"`
	Minor           int `json:"minor"`
	FilteredOut     int `json:"filtered_out"` // findings under the impact floor
}

// Result is one surface's audit.
type Result struct {
	SurfaceID  string    `json:"surface_id"`
	URL        string    `json:"url"`
	Violations []Finding `json:"violations"`
	Incomplete []Finding `json:"incomplete"`
	Counts     Counts    `json:"counts"`
	Truncated  bool      `json:"truncated"`
	Injected   bool      `json:"engine_injected"` // the engine was sent to this document by this call
	AxeMS      int64     `json:"axe_ms"`          // axe.run's own time in the page
}

// key names the engine inside the audit's world.
const key = "understudy.axe"

// World is the isolated world the engine lives in, one per document of a
// frame (Page.createIsolatedWorld with the same name answers the same
// world while the document lives; a new document gets a new one). The page
// cannot see it or its globals, and its own globals (a window.axe, a
// patched Array.prototype) do not reach it.
const World = "understudy-axe"

func (e *Engine) installExpr() string {
	// axe-core's UMD wrapper exports to module/define when they exist:
	// they are shadowed, so it installs window.axe (the isolated world's),
	// which is then kept under the private key.
	return `(function(){var K=Symbol.for(` + jsString(key) + `);if(window[K])return 'present';` +
		`(function(module,exports,define,require){` + e.src + "\n}).call(window);" +
		`var ax=window.axe;` +
		`if(!ax||typeof ax.run!=='function')throw new Error('the axe-core source did not define axe');` +
		`Object.defineProperty(window,K,{value:ax,configurable:true});return 'installed'})()`
}

// runJS is the audit in the page: it validates the rules, tags and
// selectors against the engine, runs axe.run without descending into
// frames (each frame is its own surface), and compacts the answer.
const runJS = `(async function(a){
var ax=window[Symbol.for(KEY)];
if(!ax)return {missing:true};
var rules=ax.getRules(),ids={},tags={};
rules.forEach(function(r){ids[r.ruleId]=1;(r.tags||[]).forEach(function(t){tags[t]=1})});
var bad=a.rules.concat(Object.keys(a.overrides)).filter(function(r){return !ids[r]});
if(bad.length)return {unknownRules:bad,version:ax.version};
var badTags=a.tags.filter(function(t){return !tags[t]});
if(badTags.length)return {unknownTags:badTags};
var sels=[['include',a.include],['exclude',a.exclude]];
for(var i=0;i<sels.length;i++)for(var j=0;j<sels[i][1].length;j++){
 try{document.querySelector(sels[i][1][j])}catch(e){return {badSelector:sels[i][1][j],field:sels[i][0],message:String(e.message)}}
}
if(a.include.length&&!a.include.some(function(s){return document.querySelector(s)}))return {noMatch:a.include};
var ctx=document;
if(a.include.length||a.exclude.length){ctx={};if(a.include.length)ctx.include=a.include.map(function(s){return [s]});else ctx.include=[document];if(a.exclude.length)ctx.exclude=a.exclude.map(function(s){return [s]})}
var opt={iframes:false,resultTypes:['violations','incomplete'],performanceTimer:false};
if(a.rules.length)opt.runOnly={type:'rule',values:a.rules};else if(a.tags.length)opt.runOnly={type:'tag',values:a.tags};
var ov=Object.keys(a.overrides);if(ov.length){opt.rules={};ov.forEach(function(k){opt.rules[k]={enabled:a.overrides[k]}})}
var t0=performance.now();
var r=await ax.run(ctx,opt);
var ms=performance.now()-t0;
var rank={minor:0,moderate:1,serious:2,critical:3},floor=a.impact?rank[a.impact]:-1,out={version:ax.version,url:location.href,ms:ms,passes:r.passes.length,inapplicable:r.inapplicable.length,filtered:0};
function pack(list,withNodes){
 var kept=[];
 list.forEach(function(f){
  var imp=f.impact||'';
  if(floor>=0&&!(imp&&rank[imp]>=floor)){out.filtered++;return}
  kept.push(f);
 });
 return kept.map(function(f,i){
  var o={rule:f.id,impact:f.impact||'',tags:f.tags||[],help:f.help||'',helpUrl:f.helpUrl||'',count:f.nodes.length,nodes:[]};
  if(i<a.maxViolations)for(var k=0;k<f.nodes.length&&k<a.maxNodes;k++){
   var n=f.nodes[k],t=n.target&&n.target.length?n.target[n.target.length-1]:'';
   var s=String(n.failureSummary||'');if(s.length>MAXS)s=s.slice(0,MAXS)+'…';
   o.nodes.push({path:typeof t==='string'?[t]:t.map(String),impact:n.impact||'',summary:s});
  }
  return o;
 });
}
out.violations=pack(r.violations);out.incomplete=a.noIncomplete?[]:pack(r.incomplete);
return out;
})`

type wireNode struct {
	Path    []string `json:"path"`
	Impact  string   `json:"impact"`
	Summary string   `json:"summary"`
}

type wireFinding struct {
	Rule    string     `json:"rule"`
	Impact  string     `json:"impact"`
	Tags    []string   `json:"tags"`
	Help    string     `json:"help"`
	HelpURL string     `json:"helpUrl"`
	Count   int        `json:"count"`
	Nodes   []wireNode `json:"nodes"`
}

type wireResult struct {
	Missing      bool          `json:"missing"`
	UnknownRules []string      `json:"unknownRules"`
	UnknownTags  []string      `json:"unknownTags"`
	BadSelector  string        `json:"badSelector"`
	Field        string        `json:"field"`
	Message      string        `json:"message"`
	NoMatch      []string      `json:"noMatch"`
	Version      string        `json:"version"`
	URL          string        `json:"url"`
	MS           float64       `json:"ms"`
	Passes       int           `json:"passes"`
	Inapplicable int           `json:"inapplicable"`
	Filtered     int           `json:"filtered"`
	Violations   []wireFinding `json:"violations"`
	Incomplete   []wireFinding `json:"incomplete"`
}

// Referrer issues refs for nodes (page.Store.RefsOf).
type Referrer interface {
	RefsOf(ctx context.Context, f page.Frame, paths [][]string) ([]*page.Described, error)
}

// Audit runs axe-core in the surface's document, in the isolated world
// World of its frame (frameID), installing the engine first when the
// document's world does not have it, and gives each reported node a ref of
// the surface (through refs, in the page's main world f, from axe's
// selector path; nil leaves refs out).
func (e *Engine) Audit(ctx context.Context, f page.Frame, frameID string, refs Referrer, o Options) (*Result, error) {
	if err := o.Check(); err != nil {
		return nil, err
	}
	world, err := isolate(ctx, f, frameID)
	if err != nil {
		return nil, err
	}
	if o.MaxViolations == 0 {
		o.MaxViolations = DefaultMaxViolations
	}
	if o.MaxNodes == 0 {
		o.MaxNodes = DefaultMaxNodes
	}
	overrides := o.Overrides
	if overrides == nil {
		overrides = map[string]bool{}
	}
	args, err := json.Marshal(map[string]any{
		"rules": nonNil(o.Rules), "overrides": overrides, "tags": nonNil(o.Tags), "include": nonNil(o.Include), "exclude": nonNil(o.Exclude),
		"impact": o.Impact, "maxViolations": o.MaxViolations, "maxNodes": o.MaxNodes, "noIncomplete": o.NoIncomplete,
	})
	if err != nil {
		return nil, errs.Wrap(errs.Internal, err, "encoding audit options")
	}
	run := strings.NewReplacer("KEY", jsString(key), "MAXS", fmt.Sprint(maxSummary)).Replace(runJS) + "(" + string(args) + ")"
	// The audit runs as a job in the page and is polled: one CDP call is
	// bounded (30 s) and a large page under load can take longer.
	start := `(function(){var J=Symbol.for(` + jsString(key+".job") + `);if(window[J]&&!window[J].d)return {busy:true};var j={d:0};window[J]=j;` +
		`j.p=` + run + `.then(function(v){j.v=v;j.d=1},function(e){j.e=String(e&&e.message||e);j.d=1});return {started:true}})()`
	poll := `(async function(){var J=Symbol.for(` + jsString(key+".job") + `),j=window[J];if(!j)return {gone:true};` +
		`if(!j.d)await Promise.race([j.p,new Promise(function(r){setTimeout(r,5000)})]);if(!j.d)return {pending:true};` +
		`delete window[J];if(j.e)return {failed:j.e};return {v:j.v}})()`
	var w wireResult
	injected := false
	for attempt := 0; ; attempt++ {
		w = wireResult{}
		var st struct {
			Busy, Started bool
		}
		if err := evaluate(ctx, world, start, true, &st); err != nil {
			return nil, err
		}
		if st.Busy {
			return nil, errs.New(errs.Internal, "an audit is already running in surface %s", f.SurfaceID)
		}
		for {
			var pr struct {
				Gone    bool            `json:"gone"`
				Pending bool            `json:"pending"`
				Failed  string          `json:"failed"`
				V       json.RawMessage `json:"v"`
			}
			if err := evaluate(ctx, world, poll, true, &pr); err != nil {
				return nil, err
			}
			if pr.Pending {
				continue
			}
			if pr.Gone {
				return nil, errs.New(errs.Internal, "the audit in surface %s was lost (the document was replaced)", f.SurfaceID)
			}
			if pr.Failed != "" {
				msg := pr.Failed
				if len(msg) > 500 {
					msg = msg[:500]
				}
				return nil, errs.New(errs.Internal, "axe-core failed in surface %s: %s", f.SurfaceID, msg)
			}
			if err := json.Unmarshal(pr.V, &w); err != nil {
				return nil, errs.Wrap(errs.Internal, err, "decoding the audit of surface "+f.SurfaceID)
			}
			break
		}
		if !w.Missing {
			break
		}
		if attempt > 0 {
			return nil, errs.New(errs.Internal, "axe-core was installed in surface %s but is gone again (the document was replaced while auditing?)", f.SurfaceID)
		}
		var state string
		if err := evaluate(ctx, world, e.installExpr(), true, &state); err != nil {
			return nil, err
		}
		injected = true
	}
	switch {
	case len(w.UnknownRules) > 0:
		return nil, errs.New(errs.A11yUnknownRule, "axe-core %s has no rule %s", w.Version, strings.Join(w.UnknownRules, ", ")).With("field", "rules").With("unknown", w.UnknownRules)
	case len(w.UnknownTags) > 0:
		return nil, errs.BadArg("tags", "no axe-core rule has the tag %s (e.g. wcag2a, wcag2aa, wcag21aa, best-practice)", strings.Join(w.UnknownTags, ", "))
	case w.BadSelector != "":
		return nil, errs.BadArg(w.Field, "%q is not a valid CSS selector: %s", w.BadSelector, w.Message)
	case len(w.NoMatch) > 0:
		return nil, errs.New(errs.SelectorNoMatch, "no element in surface %s matches the include selectors %s", f.SurfaceID, strings.Join(w.NoMatch, ", ")).With("field", "include")
	}
	res := &Result{SurfaceID: f.SurfaceID, URL: w.URL, Injected: injected, AxeMS: int64(w.MS + 0.5)}
	res.Counts.Passes, res.Counts.Inapplicable, res.Counts.FilteredOut = w.Passes, w.Inapplicable, w.Filtered
	res.Counts.Violations, res.Counts.Incomplete = len(w.Violations), len(w.Incomplete)
	var paths [][]string
	for _, list := range [][]wireFinding{w.Violations, w.Incomplete} {
		for _, wf := range list {
			for _, n := range wf.Nodes {
				paths = append(paths, n.Path)
			}
		}
	}
	var described []*page.Described
	if refs != nil && len(paths) > 0 {
		if described, err = refs.RefsOf(ctx, f, paths); err != nil {
			return nil, err
		}
	}
	i := 0
	convert := func(list []wireFinding, nodes *int, byImpact bool) []Finding {
		out := make([]Finding, 0, min(len(list), o.MaxViolations))
		for k, wf := range list {
			*nodes += wf.Count
			if byImpact {
				switch wf.Impact {
				case "critical":
					res.Counts.Critical++
				case "serious":
					res.Counts.Serious++
				case "moderate":
					res.Counts.Moderate++
				case "minor":
					res.Counts.Minor++
				}
			}
			if k >= o.MaxViolations {
				res.Truncated = true
				continue
			}
			fd := Finding{Rule: wf.Rule, Impact: wf.Impact, Tags: nonNil(wf.Tags), WCAG: []string{}, Help: wf.Help, HelpURL: wf.HelpURL, NodeCount: wf.Count, Nodes: make([]Node, 0, len(wf.Nodes))}
			for _, t := range wf.Tags {
				if strings.HasPrefix(t, "wcag") {
					fd.WCAG = append(fd.WCAG, t)
				}
			}
			if wf.Count > len(wf.Nodes) {
				res.Truncated = true
			}
			for _, n := range wf.Nodes {
				nd := Node{SurfaceID: f.SurfaceID, Selector: nonNil(n.Path), Impact: n.Impact, Summary: n.Summary}
				if i < len(described) && described[i] != nil {
					d := described[i]
					nd.Ref, nd.Role, nd.Name = d.Ref, d.Role, d.Name
				}
				i++
				fd.Nodes = append(fd.Nodes, nd)
			}
			out = append(out, fd)
		}
		return out
	}
	res.Violations = convert(w.Violations, &res.Counts.ViolationNodes, true)
	res.Incomplete = convert(w.Incomplete, &res.Counts.IncompleteNodes, false)
	return res, nil
}

// isolate returns f with the context of the frame's isolated audit world
// (one Page.createIsolatedWorld: the same world while the document lives).
func isolate(ctx context.Context, f page.Frame, frameID string) (page.Frame, error) {
	if frameID == "" {
		return page.Frame{}, errs.New(errs.Internal, "surface %s has no frame id to audit in", f.SurfaceID)
	}
	r, err := cdpproto.Call(ctx, f.Session, cdppage.CreateIsolatedWorld, cdppage.CreateIsolatedWorldParams{FrameID: cdpproto.FrameID(frameID), WorldName: World})
	if err != nil {
		return page.Frame{}, errs.OrInternal(ctx, err, "creating the audit world in surface "+f.SurfaceID)
	}
	if r.ExecutionContextID == 0 {
		return page.Frame{}, errs.New(errs.Internal, "surface %s gave no context for the audit world", f.SurfaceID)
	}
	w := f
	w.ContextID = r.ExecutionContextID
	return w, nil
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// evaluate runs expr (awaiting a promise) in the frame and decodes its
// value into v.
func evaluate(ctx context.Context, f page.Frame, expr string, byValue bool, v any) error {
	await, silent := true, true
	p := runtime.EvaluateParams{Expression: expr, ContextID: f.ContextID, ReturnByValue: &byValue, AwaitPromise: &await, Silent: &silent}
	res, err := cdpproto.Call(ctx, f.Session, runtime.Evaluate, p)
	if err != nil {
		return errs.OrInternal(ctx, err, "Runtime.evaluate in surface "+f.SurfaceID)
	}
	if d := res.ExceptionDetails; d != nil {
		msg := d.Text
		if d.Exception != nil && d.Exception.Description != "" {
			msg = d.Exception.Description
		}
		if len(msg) > 500 {
			msg = msg[:500]
		}
		return errs.New(errs.Internal, "axe-core failed in surface %s: %s", f.SurfaceID, msg)
	}
	if res.Result == nil || len(res.Result.Value) == 0 {
		return errs.New(errs.Internal, "axe-core answered nothing in surface %s", f.SurfaceID)
	}
	if err := json.Unmarshal(res.Result.Value, v); err != nil {
		return errs.Wrap(errs.Internal, err, "decoding the audit of surface "+f.SurfaceID)
	}
	return nil
}
