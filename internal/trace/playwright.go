package trace

import (
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// Skipped is a step the export leaves out, and why.
type Skipped struct {
	Seq  int    `json:"seq"`
	Tool string `json:"tool"`
	Why  string `json:"why"`
}

// Export is a generated Playwright test.
type Export struct {
	Source  string    `json:"-"`
	Actions int       `json:"actions"`
	Asserts int       `json:"assertions"`
	Skipped []Skipped `json:"skipped"`
}

// ExportOptions name the test and the relay it connects to by default,
// and turn a recorded step into its Action.
type ExportOptions struct {
	Name     string
	RelayURL string // default for UNDERSTUDY_RELAY
	// Action is what a successful step did (nil: it has no Playwright
	// equivalent; Ignore: leave it out without a word). The server
	// decodes the step's arguments into its tool's typed input.
	Action func(Step) Action
}

// Ignore is a step the export leaves out without a word (a trace, visual
// or audit call).
type Ignore struct{}

func (Ignore) isAction() {}

// js quotes s as a JavaScript string literal.
func js(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// exporter keeps the pages the test has opened.
type exporter struct {
	pages map[string]string // window id → variable
	out   strings.Builder
	ex    Export
	// usesFrames says the helper clickInFrames is needed.
	usesFrames bool
}

// framed is where a locator lives: its page variable and the iframe
// selectors from the page down to its document.
type framed struct {
	page   string
	frames []string
}

// framesArg renders the iframe selectors as a JavaScript array.
func (f framed) framesArg() string {
	q := make([]string, len(f.frames))
	for i, s := range f.frames {
		q[i] = js(s)
	}
	return "[" + strings.Join(q, ", ") + "]"
}

func (e *exporter) line(format string, a ...any) {
	e.out.WriteString("    ")
	fmt.Fprintf(&e.out, format, a...)
	e.out.WriteByte('\n')
}

// page returns the variable of the window a place is in, declaring it
// on first use.
func (e *exporter) page(p *Place) string {
	if p == nil || p.WindowID == "" {
		return ""
	}
	if v, ok := e.pages[p.WindowID]; ok {
		return v
	}
	v := "page" + strconv.Itoa(len(e.pages)+1)
	e.pages[p.WindowID] = v
	e.line("const %s = await pageAt(browser, %s);", v, js(p.WindowURL))
	return v
}

// scope is the page or frame chain an element lives in.
func (e *exporter) scope(p *Place) string {
	s := e.page(p)
	if s == "" {
		return ""
	}
	for _, f := range p.Frames {
		s += ".frameLocator(" + js(f.Selector) + ")"
	}
	return s
}

// roleLocator builds getByRole / getByText for a recorded role and name.
func roleLocator(role, name string) string {
	switch role {
	case "", "generic", "text", "StaticText", "none", "presentation", "paragraph":
		if name == "" {
			return ""
		}
		return ".getByText(" + js(name) + ", { exact: true })"
	}
	if name == "" {
		return ".getByRole(" + js(role) + ")"
	}
	return ".getByRole(" + js(role) + ", { name: " + js(name) + ", exact: true })"
}

// locator is the element a step acted on: a recorded ref by role and name,
// or its selector, in the surface the ref (or the call) belonged to.
func (e *exporter) locator(st Step, el Elem) (string, framed, string) {
	where := func(p *Place) framed {
		f := framed{page: e.page(p)}
		if p != nil {
			for _, fr := range p.Frames {
				f.frames = append(f.frames, fr.Selector)
			}
		}
		return f
	}
	if t, ok := st.Targets[el.RefParam]; ok && el.RefParam != "" {
		place := t.Place
		if place == nil {
			place = st.Surface
		}
		sc := e.scope(place)
		rl := roleLocator(t.Role, t.Name)
		if sc == "" || rl == "" {
			return "", framed{}, "the ref's element has no role and name to find it by"
		}
		return sc + rl, where(place), ""
	}
	if el.Ref != 0 {
		return "", framed{}, "the ref was not known when it was used"
	}
	if el.Selector != "" {
		sc := e.scope(st.Surface)
		if sc == "" {
			return "", framed{}, "the call's surface is unknown"
		}
		return sc + ".locator(" + js(el.Selector) + ")", where(st.Surface), ""
	}
	return "", framed{}, ""
}

// regexLit turns a JavaScript regex source and flags into a literal.
func regexLit(src, flags string) string {
	return "new RegExp(" + js(src) + ", " + js(flags) + ")"
}

// ExportPlaywright writes a Playwright Test file that connects to the app
// through an understudy relay and does what the trace's successful steps did,
// with role/name locators, frameLocator chains and web-first assertions.
func (t *Trace) ExportPlaywright(o ExportOptions) Export {
	e := &exporter{pages: map[string]string{}}
	for _, st := range t.Steps {
		if !st.OK {
			e.ex.Skipped = append(e.ex.Skipped, Skipped{st.Seq, st.Tool, "failed when recorded (" + st.Code + ")"})
			continue
		}
		var act Action
		if o.Action != nil {
			act = o.Action(st)
		}
		switch act.(type) {
		case Ignore:
			continue
		case Read:
			e.line("// #%d %s (a read; nothing to replay)", st.Seq, st.Tool)
			continue
		}
		if why := e.step(st, act); why != "" {
			e.ex.Skipped = append(e.ex.Skipped, Skipped{st.Seq, st.Tool, why})
			e.line("// #%d %s skipped: %s", st.Seq, st.Tool, why)
		}
	}
	relay := o.RelayURL
	if relay == "" {
		relay = "http://127.0.0.1:9222"
	}
	name := o.Name
	if name == "" {
		name = "understudy trace"
	}
	var src strings.Builder
	src.WriteString("// Generated by understudy trace_export_playwright from " + t.Dir + ".\n")
	src.WriteString("// It connects to the running app through an understudy relay (understudy relay, or the\n")
	src.WriteString("// electron_relay_endpoint tool) and does what the agent did. Run it with:\n")
	src.WriteString("//   UNDERSTUDY_RELAY=http://127.0.0.1:PORT npx playwright test <this file>\n")
	src.WriteString("import { test, expect, chromium } from '@playwright/test';\n")
	src.WriteString("import type { Browser, FrameLocator, Locator, Page } from '@playwright/test';\n\n")
	src.WriteString("const RELAY = process.env.UNDERSTUDY_RELAY ?? " + js(relay) + ";\n\n")
	src.WriteString(`// pageAt finds the app's window that shows url (the relay lists windows and
// webview guests as pages).
async function pageAt(browser: Browser, url: string): Promise<Page> {
  for (let i = 0; i < 50; i++) {
    for (const context of browser.contexts()) {
      for (const page of context.pages()) {
        if (page.url() === url) return page;
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('no window of the app shows ' + url);
}

`)
	if e.usesFrames {
		src.WriteString(clickInFramesJS)
	}
	src.WriteString("test(" + js(name) + ", async () => {\n")
	src.WriteString("  const browser = await chromium.connectOverCDP(RELAY);\n  try {\n")
	src.WriteString(e.out.String())
	src.WriteString("  } finally {\n    // Through the relay this closes only this connection, never the app.\n    await browser.close();\n  }\n});\n")
	e.ex.Source = src.String()
	if e.ex.Skipped == nil {
		e.ex.Skipped = []Skipped{}
	}
	return e.ex
}

var keyPlus = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\s*\+\s*`) }) // compiled on first use, not at start

// pwKey turns our chord syntax into Playwright's (the same, with "+").
func pwKey(k string) string { return keyPlus().ReplaceAllString(strings.TrimSpace(k), "+") }

// step writes one step; it returns why it could not.
func (e *exporter) step(st Step, a Action) string {
	act := func(format string, a ...any) { e.line(format, a...); e.ex.Actions++ }
	check := func(format string, a ...any) { e.line(format, a...); e.ex.Asserts++ }
	var el Elem
	switch a := a.(type) {
	case Click:
		el = a.Elem
	case Hover:
		el = a.Elem
	case Fill:
		el = a.Elem
	case TypeKeys:
		el = a.Elem
	case Press:
		el = a.Elem
	case SetChecked:
		el = a.Elem
	case SelectOptions:
		el = a.Elem
	case ScrollIntoView:
		el = a.Elem
	case Drag:
		el = a.Source
	case ExpectText:
		el = a.Elem
	case ExpectVisible:
		el = a.Elem
	case WaitFor:
		el = a.Elem
	case ExpectState:
		el = a.Elem
	}
	loc, at, why := e.locator(st, el)
	if why != "" {
		return why
	}
	// Pointer input into an iframe goes through clickInFrames (see the
	// helper's comment in the generated file).
	inFrames := len(at.frames) > 0
	e.line("// #%d %s", st.Seq, st.Tool)
	needLoc := func() string {
		if loc == "" {
			return "no element (ref or selector) to act on"
		}
		return ""
	}
	switch a := a.(type) {
	case Navigate:
		p := e.page(st.Surface)
		if p == "" || a.URL == "" {
			return "no window or url"
		}
		act("await %s.goto(%s);", p, js(a.URL))
	case Click:
		if loc == "" {
			p := e.page(st.Surface)
			if a.X == nil || a.Y == nil || p == "" || (st.Surface != nil && len(st.Surface.Frames) > 0) {
				return "a click at a point of a frame has no locator"
			}
			act("await %s.mouse.click(%g, %g);", p, *a.X, *a.Y)
			return ""
		}
		var opts []string
		if a.Button != "" {
			opts = append(opts, "button: "+js(a.Button))
		}
		if a.Count > 1 {
			opts = append(opts, "clickCount: "+strconv.Itoa(a.Count))
		}
		if len(a.Modifiers) > 0 {
			ms := make([]string, len(a.Modifiers))
			for i, m := range a.Modifiers {
				ms[i] = js(m)
			}
			opts = append(opts, "modifiers: ["+strings.Join(ms, ", ")+"]")
		}
		switch {
		case inFrames:
			e.usesFrames = true
			act("await clickInFrames(%s, %s, %s, { %s });", at.page, at.framesArg(), loc, strings.Join(opts, ", "))
		case len(opts) > 0:
			act("await %s.click({ %s });", loc, strings.Join(opts, ", "))
		default:
			act("await %s.click();", loc)
		}
	case Hover:
		if w := needLoc(); w != "" {
			return w
		}
		if inFrames {
			e.usesFrames = true
			act("await clickInFrames(%s, %s, %s, { hoverOnly: true });", at.page, at.framesArg(), loc)
			return ""
		}
		act("await %s.hover();", loc)
	case Fill:
		if w := needLoc(); w != "" {
			return w
		}
		if a.Text == Redacted {
			act("await %s.fill(process.env.UNDERSTUDY_SECRET_%d ?? '');", loc, st.Seq)
			return ""
		}
		act("await %s.fill(%s);", loc, js(a.Text))
	case TypeKeys:
		if loc != "" {
			act("await %s.pressSequentially(%s);", loc, js(a.Text))
			return ""
		}
		p := e.page(st.Surface)
		if p == "" {
			return "no window"
		}
		act("await %s.keyboard.type(%s);", p, js(a.Text))
	case Press:
		for _, k := range a.Keys {
			if loc != "" {
				act("await %s.press(%s);", loc, js(pwKey(k)))
			} else {
				p := e.page(st.Surface)
				if p == "" {
					return "no window"
				}
				act("await %s.keyboard.press(%s);", p, js(pwKey(k)))
			}
		}
	case SetChecked:
		if w := needLoc(); w != "" {
			return w
		}
		if inFrames {
			e.usesFrames = true
			act("if ((await %s.isChecked()) !== %t) await clickInFrames(%s, %s, %s);", loc, a.Checked, at.page, at.framesArg(), loc)
			check("await expect(%s).toBeChecked({ checked: %t });", loc, a.Checked)
			return ""
		}
		method := "check"
		if !a.Checked {
			method = "uncheck"
		}
		act("await %s.%s();", loc, method)
	case SelectOptions:
		if w := needLoc(); w != "" {
			return w
		}
		vals := make([]string, len(a.Values))
		for i, v := range a.Values {
			vals[i] = js(v)
		}
		act("await %s.selectOption([%s]);", loc, strings.Join(vals, ", "))
	case ScrollIntoView:
		if w := needLoc(); w != "" {
			return w
		}
		act("await %s.scrollIntoViewIfNeeded();", loc)
	case Drag:
		target, tat, why := e.locator(st, a.Target)
		if why != "" || loc == "" || target == "" {
			return "drag without both elements"
		}
		if inFrames || len(tat.frames) > 0 {
			return "a drag inside an iframe does not export (Playwright mis-aims pointer input there)"
		}
		act("await %s.dragTo(%s);", loc, target)
	case Wheel:
		p := e.page(st.Surface)
		if p == "" {
			return "no window"
		}
		act("await %s.mouse.wheel(%g, %g);", p, a.DX, a.DY)
	case ExpectText:
		if w := needLoc(); w != "" {
			return w
		}
		m, contains := "toHaveText", "toContainText"
		if a.Value {
			m, contains = "toHaveValue", ""
		}
		switch {
		case a.Equals != nil:
			check("await expect(%s).%s(%s);", loc, m, js(*a.Equals))
		case a.NotEquals != nil:
			check("await expect(%s).not.%s(%s);", loc, m, js(*a.NotEquals))
		case a.Contains != nil && contains != "":
			check("await expect(%s).%s(%s);", loc, contains, js(*a.Contains))
		case a.NotContains != nil && contains != "":
			check("await expect(%s).not.%s(%s);", loc, contains, js(*a.NotContains))
		case a.Contains != nil:
			check("await expect(%s).%s(%s);", loc, m, regexLit(regexp.QuoteMeta(*a.Contains), ""))
		case a.Regex != nil:
			check("await expect(%s).%s(%s);", loc, m, regexLit(*a.Regex, a.Flags))
		default:
			return "no expected text"
		}
	case ExpectVisible:
		if w := needLoc(); w != "" {
			return w
		}
		if !a.Visible {
			check("await expect(%s).toBeHidden();", loc)
		} else {
			check("await expect(%s).toBeVisible();", loc)
		}
	case WaitFor:
		if w := needLoc(); w != "" {
			return w
		}
		switch a.State {
		case "", "visible":
			check("await expect(%s).toBeVisible();", loc)
		case "hidden":
			check("await expect(%s).toBeHidden();", loc)
		case "attached":
			check("await expect(%s).toBeAttached();", loc)
		case "detached":
			check("await expect(%s).toBeAttached({ attached: false });", loc)
		}
	case ExpectState:
		if w := needLoc(); w != "" {
			return w
		}
		keys := make([]string, 0, len(a.State))
		for k := range a.State {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			v := a.State[k]
			switch k {
			case "checked":
				check("await expect(%s).toBeChecked({ checked: %t });", loc, v)
			case "enabled":
				check("await expect(%s).toBeEnabled({ enabled: %t });", loc, v)
			case "disabled":
				check("await expect(%s).toBeEnabled({ enabled: %t });", loc, !v)
			case "visible":
				check("await expect(%s).toBeVisible({ visible: %t });", loc, v)
			case "editable":
				check("await expect(%s).toBeEditable({ editable: %t });", loc, v)
			case "focused":
				if v {
					check("await expect(%s).toBeFocused();", loc)
				} else {
					check("await expect(%s).not.toBeFocused();", loc)
				}
			default:
				e.line("// state %s is not checked by Playwright's assertions", k)
			}
		}
	case ExpectCount:
		var l string
		if a.Selector != "" {
			if sc := e.scope(st.Surface); sc != "" {
				l = sc + ".locator(" + js(a.Selector) + ")"
			}
		} else if a.Role != "" {
			if sc := e.scope(st.Surface); sc != "" {
				l = sc + roleLocator(a.Role, a.Name)
			}
		}
		if l == "" || a.Equals == nil {
			return "only exact counts of a selector or role export"
		}
		check("await expect(%s).toHaveCount(%d);", l, *a.Equals)
	case ExpectURL:
		p := e.page(st.Surface)
		if p == "" {
			return "no window"
		}
		if a.Contains != nil {
			check("await expect(%s).toHaveURL(%s);", p, regexLit(regexp.QuoteMeta(*a.Contains), ""))
		} else if a.Matches != nil {
			check("await expect(%s).toHaveURL(%s);", p, regexLit(*a.Matches, a.Flags))
		}
	case Connect:
		e.line("// %s: the test connects to the running app through the relay instead", st.Tool)
	default:
		return "no Playwright equivalent"
	}
	return ""
}

// clickInFramesJS is the helper for pointer input into iframes.
const clickInFramesJS = `// clickInFrames clicks (or hovers) target, an element inside the iframes named by frames, the
// way understudy's own tools do: at the element's centre plus each iframe's content-box origin,
// with the window's real mouse, so hit-testing happens in the window as it does for a user.
// Playwright's locator.click() mis-aims inside out-of-process iframes that have borders or
// padding (it misses the element and reports another one intercepting the pointer).
async function clickInFrames(page: Page, frames: string[], target: Locator,
  options: { button?: 'left' | 'right' | 'middle'; clickCount?: number; hoverOnly?: boolean } = {}) {
  await target.scrollIntoViewIfNeeded();
  await expect(target).toBeVisible();
  let x = 0;
  let y = 0;
  let scope: Page | FrameLocator = page;
  for (const selector of frames) {
    const origin = await scope.locator(selector).evaluate((e) => {
      const r = e.getBoundingClientRect();
      const s = getComputedStyle(e);
      return { x: r.left + parseFloat(s.borderLeftWidth) + parseFloat(s.paddingLeft),
               y: r.top + parseFloat(s.borderTopWidth) + parseFloat(s.paddingTop) };
    });
    x += origin.x;
    y += origin.y;
    scope = scope.frameLocator(selector);
  }
  const centre = await target.evaluate((e) => {
    const r = e.getBoundingClientRect();
    return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
  });
  if (options.hoverOnly) {
    await page.mouse.move(x + centre.x, y + centre.y);
    return;
  }
  await page.mouse.click(x + centre.x, y + centre.y, { button: options.button, clickCount: options.clickCount });
}

`
