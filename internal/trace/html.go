package trace

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"html/template"
	"sync"
	"time"
)

// htmlStep is one step as the report shows it.
type htmlStep struct {
	Step
	ArgsText   string
	ResultText string
	Shot       template.URL // a data: URL, inlined so the file stands alone
	Offset     float64      // percent of the timeline where the step starts
	Width      float64      // percent of the timeline the step takes
}

type htmlData struct {
	Dir          string
	Header       Header
	Complete     bool
	StoppedAfter int
	Generated    string
	Steps        []htmlStep
	OK, Failed   int
	Tokens       Tokens
	Budget       *BudgetStatus
	TotalMS      int64
}

// reportTmpl is parsed on first use, not when the binary starts.
var reportTmpl = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("report").Parse(reportHTML))
})

const reportHTML = `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<title>understudy trace</title>
<style>
body{font:14px/1.4 system-ui,sans-serif;margin:1.5em;color:#222}
h1{font-size:1.4em} .cards{display:flex;gap:1em;flex-wrap:wrap}
.card{border:1px solid #ccc;border-radius:6px;padding:.5em 1em}
.warn{background:#fff4d6;border:1px solid #e0b100;padding:.5em 1em;border-radius:6px}
.timeline{position:relative;height:18px;background:#eee;margin:1em 0;border-radius:3px}
.timeline span{position:absolute;top:0;height:18px;background:#5b8def;opacity:.8}
.timeline span.fail{background:#d9534f}
details.step{border:1px solid #ddd;border-radius:6px;margin:.4em 0;padding:.3em .6em}
details.step.fail{border-color:#d9534f;background:#fdf0f0}
details.step summary{cursor:pointer} .code{color:#b00;font-weight:bold}
pre{white-space:pre-wrap;word-break:break-all;background:#f6f6f6;padding:.5em;max-height:30em;overflow:auto}
img{max-width:100%;border:1px solid #ccc} table{border-collapse:collapse} td,th{border:1px solid #ccc;padding:2px 8px}
</style></head><body>
<h1>understudy trace</h1>
<p id="source">{{.Dir}} · started {{.Header.StartedAt.Format "2006-01-02 15:04:05Z07:00"}} · report generated {{.Generated}}</p>
{{if not .Complete}}<p class="warn" id="incomplete">This trace was not stopped (the server ended while recording); it stops after step {{.StoppedAfter}}.</p>{{end}}
<div class="cards">
<div class="card" id="calls">{{len .Steps}} calls</div>
<div class="card" id="oks">{{.OK}} ok</div>
<div class="card" id="failures">{{.Failed}} failed</div>
<div class="card" id="tokens">{{.Tokens.Total}} estimated tokens</div>
<div class="card" id="elapsed">{{.TotalMS}} ms</div>
{{with .Budget}}<div class="card" id="budget">budget {{.Spent}} / {{.BudgetTokens}}{{if .OverBudget}} — over budget{{end}}</div>{{end}}
</div>
<h2>Timeline</h2>
<div class="timeline" id="timeline">{{range .Steps}}<span class="{{if not .OK}}fail{{end}}" style="left:{{printf "%.2f" .Offset}}%;width:{{printf "%.2f" .Width}}%" title="#{{.Seq}} {{.Tool}} {{.ElapsedMS}} ms"></span>{{end}}</div>
<h2>Tokens by tool</h2>
<table id="per-tool"><tr><th>tool</th><th>calls</th><th>tokens</th><th>largest</th></tr>
{{range .Tokens.PerTool}}<tr><td>{{.Tool}}</td><td>{{.Calls}}</td><td>{{.Tokens}}</td><td>{{.Max}}</td></tr>{{end}}</table>
<h2>Steps</h2>
{{range .Steps}}<details class="step{{if not .OK}} fail{{end}}" id="step-{{.Seq}}"{{if not .OK}} open{{end}}>
<summary>#{{.Seq}} <b>{{.Tool}}</b> — {{if .OK}}ok{{else}}<span class="code">{{.Code}}</span> {{.Error}}{{end}} · {{.ElapsedMS}} ms · {{.Tokens}} tokens{{with .Surface}} · {{.SurfaceID}}{{end}}{{range $k, $t := .Targets}}{{if $t.Role}} · {{$t.Role}} "{{$t.Name}}"{{end}}{{end}}</summary>
<h4>Arguments</h4><pre>{{.ArgsText}}</pre>
{{range $k, $t := .Targets}}<p>{{$k}} {{$t.Ref}} = {{$t.Role}} "{{$t.Name}}"</p>{{end}}
{{if .Console}}<h4>Console since the previous step</h4><pre class="console">{{range .Console}}{{.}}
{{end}}</pre>{{end}}
{{if .Network}}<h4>Network since the previous step</h4><pre class="network">{{range .Network}}{{.}}
{{end}}</pre>{{end}}
{{if .Shot}}<h4>Screenshot after the step</h4><img alt="screenshot after step {{.Seq}}" src="{{.Shot}}">{{end}}
<h4>Result</h4><pre>{{.ResultText}}</pre>
</details>
{{end}}
</body></html>
`

// HTML renders the trace as one self-contained HTML document: inline CSS,
// no script, screenshots inlined as data URLs; every value is escaped.
func (t *Trace) HTML(now time.Time) ([]byte, error) {
	d := htmlData{Dir: t.Dir, Header: t.Header, Complete: t.Complete, StoppedAfter: t.StoppedAfter,
		Generated: now.UTC().Format(time.RFC3339), Tokens: t.TokenReport(), Budget: t.BudgetStatus()}
	var first, last time.Time
	for i, st := range t.Steps {
		end := st.StartedAt.Add(time.Duration(st.ElapsedMS) * time.Millisecond)
		if i == 0 || st.StartedAt.Before(first) {
			first = st.StartedAt
		}
		if end.After(last) {
			last = end
		}
	}
	span := last.Sub(first)
	d.TotalMS = span.Milliseconds()
	for _, st := range t.Steps {
		hs := htmlStep{Step: st, ArgsText: pretty(st.Args), ResultText: pretty(st.Result)}
		if st.Truncated {
			hs.ResultText = "(the result was larger than 64 KiB and was not kept)"
		}
		if shot := t.Screenshot(st); shot != nil {
			hs.Shot = template.URL("data:image/png;base64," + base64.StdEncoding.EncodeToString(shot))
		}
		if span > 0 {
			hs.Offset = 100 * float64(st.StartedAt.Sub(first)) / float64(span)
			hs.Width = max(0.3, 100*float64(time.Duration(st.ElapsedMS)*time.Millisecond)/float64(span))
		}
		if st.OK {
			d.OK++
		} else {
			d.Failed++
		}
		d.Steps = append(d.Steps, hs)
	}
	var b bytes.Buffer
	if err := reportTmpl().Execute(&b, d); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

func pretty(raw json.RawMessage) string {
	if len(raw) == 0 {
		return ""
	}
	var b bytes.Buffer
	if json.Indent(&b, raw, "", "  ") != nil {
		return string(raw)
	}
	return b.String()
}
