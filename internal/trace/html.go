package trace

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"html"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"
)

// htmlStep is one step as the report shows it.
type htmlStep struct {
	Step
	ArgsText   string
	ResultText string
	Shot       string  // a data: URL, inlined so the file stands alone
	Offset     float64 // percent of the timeline where the step starts
	Width      float64 // percent of the timeline the step takes
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

const reportHead = `<!doctype html>
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
`

// report writes the document. It is plain Go rather than html/template,
// whose packages (and their initialisation) were a tenth of what the
// binary's cold start spent beyond a bare MCP server (issue 11). The
// markup is fixed; every value from the trace goes through esc, and every
// attribute value is double-quoted, so captured text never becomes markup.
func report(d *htmlData) []byte {
	var b bytes.Buffer
	w := func(parts ...string) {
		for _, p := range parts {
			b.WriteString(p)
		}
	}
	n := strconv.Itoa
	w(reportHead)
	w(`<p id="source">`, esc(d.Dir), ` · started `, esc(d.Header.StartedAt.Format("2006-01-02 15:04:05Z07:00")), ` · report generated `, esc(d.Generated), "</p>\n")
	if !d.Complete {
		w(`<p class="warn" id="incomplete">This trace was not stopped (the server ended while recording); it stops after step `, n(d.StoppedAfter), ".</p>")
	}
	w("\n", `<div class="cards">`, "\n")
	w(`<div class="card" id="calls">`, n(len(d.Steps)), " calls</div>\n")
	w(`<div class="card" id="oks">`, n(d.OK), " ok</div>\n")
	w(`<div class="card" id="failures">`, n(d.Failed), " failed</div>\n")
	w(`<div class="card" id="tokens">`, n(d.Tokens.Total), " estimated tokens</div>\n")
	w(`<div class="card" id="elapsed">`, strconv.FormatInt(d.TotalMS, 10), " ms</div>\n")
	if bs := d.Budget; bs != nil {
		w(`<div class="card" id="budget">budget `, n(bs.Spent), " / ", n(bs.BudgetTokens))
		if bs.OverBudget {
			w(" — over budget")
		}
		w("</div>")
	}
	w("\n</div>\n<h2>Timeline</h2>\n", `<div class="timeline" id="timeline">`)
	for _, st := range d.Steps {
		w(`<span class="`, failClass(st.OK, ""), `" style="left:`, strconv.FormatFloat(st.Offset, 'f', 2, 64), "%;width:", strconv.FormatFloat(st.Width, 'f', 2, 64),
			`%" title="#`, n(st.Seq), " ", esc(st.Tool), " ", strconv.FormatInt(st.ElapsedMS, 10), ` ms"></span>`)
	}
	w("</div>\n<h2>Tokens by tool</h2>\n", `<table id="per-tool"><tr><th>tool</th><th>calls</th><th>tokens</th><th>largest</th></tr>`, "\n")
	for _, u := range d.Tokens.PerTool {
		w("<tr><td>", esc(u.Tool), "</td><td>", n(u.Calls), "</td><td>", n(u.Tokens), "</td><td>", n(u.Max), "</td></tr>")
	}
	w("</table>\n<h2>Steps</h2>\n")
	for _, st := range d.Steps {
		targets := slices.Sorted(maps.Keys(st.Targets))
		w(`<details class="step`, failClass(st.OK, " "), `" id="step-`, n(st.Seq), `"`)
		if !st.OK {
			w(" open")
		}
		w(">\n<summary>#", n(st.Seq), " <b>", esc(st.Tool), "</b> — ")
		if st.OK {
			w("ok")
		} else {
			w(`<span class="code">`, esc(st.Code), "</span> ", esc(st.Error))
		}
		w(" · ", strconv.FormatInt(st.ElapsedMS, 10), " ms · ", n(st.Tokens), " tokens")
		if st.Surface != nil {
			w(" · ", esc(st.Surface.SurfaceID))
		}
		for _, k := range targets {
			if t := st.Targets[k]; t.Role != "" {
				w(" · ", esc(t.Role), ` "`, esc(t.Name), `"`)
			}
		}
		w("</summary>\n<h4>Arguments</h4><pre>", esc(st.ArgsText), "</pre>\n")
		for _, k := range targets {
			t := st.Targets[k]
			w("<p>", esc(k), " ", n(t.Ref), " = ", esc(t.Role), ` "`, esc(t.Name), `"</p>`)
		}
		w("\n", seenSince("Console", "console", st.Console), "\n", seenSince("Network", "network", st.Network), "\n")
		if st.Shot != "" {
			w(`<h4>Screenshot after the step</h4><img alt="screenshot after step `, n(st.Seq), `" src="`, esc(st.Shot), `">`)
		}
		w("\n<h4>Result</h4><pre>", esc(st.ResultText), "</pre>\n</details>\n")
	}
	w("\n</body></html>\n")
	return b.Bytes()
}

// seenSince is a step's console or network lines under their heading, or
// nothing when there are none.
func seenSince(what, class string, lines []string) string {
	if len(lines) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("<h4>" + what + ` since the previous step</h4><pre class="` + class + `">`)
	for _, l := range lines {
		b.WriteString(esc(l) + "\n")
	}
	b.WriteString("</pre>")
	return b.String()
}

// esc escapes text for an HTML text node or a double-quoted attribute
// value.
func esc(s string) string { return html.EscapeString(s) }

// failClass is "fail" (after sep) for a failed step, else "".
func failClass(ok bool, sep string) string {
	if ok {
		return ""
	}
	return sep + "fail"
}

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
			hs.Shot = "data:image/png;base64," + base64.StdEncoding.EncodeToString(shot)
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
	return report(&d), nil
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
