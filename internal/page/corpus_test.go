package page

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// corpusHTML holds the role/name cases: every element with data-case is
// one case, named by the attribute. Chromium's accessibility tree is the
// oracle.
const corpusHTML = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Corpus</title>
<style>.vh{visibility:hidden}.dn{display:none}
.burger::before{content:"\2630  "}.icon::before{content:"\f101"}.more::after{content:" \2192" / "more"}.bang::after{content:"!"}</style></head><body>
<main>
<label for="c-for">First name</label><input id="c-for" data-case="label-for">
<label>Last name <input data-case="label-wrap"></label>
<label for="c-two">Street</label><label for="c-two">and number</label><input id="c-two" data-case="label-two">
<span id="lb-a">Billing</span><span id="lb-b" aria-labelledby="lb-c">Name</span><span id="lb-c">Ignored</span>
<input aria-labelledby="lb-a lb-b" data-case="labelledby-chain">
<span id="lb-hidden" hidden>Secret label</span><button aria-labelledby="lb-hidden" data-case="labelledby-hidden">X</button>
<div id="lb-hid2" class="dn"><span class="dn">hello</span> world</div><button aria-labelledby="lb-hid2" data-case="labelledby-hidden-subtree">Y</button>
<a id="file1" href="#f">Documentation.pdf</a><span role="button" tabindex="0" id="del1" aria-label="Delete" aria-labelledby="del1 file1" data-case="labelledby-self"></span>
<button aria-label="Close dialog" data-case="aria-label-over-content">X</button>
<button aria-labelledby="lb-a" aria-label="Not this" data-case="labelledby-over-aria-label">Z</button>
<button aria-label="   " data-case="blank-aria-label">Content wins</button>
<fieldset data-case="fieldset-legend"><legend>Shipping</legend><input aria-label="Zip"></fieldset>
<fieldset disabled><legend>Locked <input data-case="disabled-fieldset-legend-input" aria-label="In legend"></legend><input data-case="disabled-fieldset-input" aria-label="Inside"></fieldset>
<div role="grid" aria-rowcount="2" aria-colcount="1"><div role="row" aria-rowindex="1"><div role="columnheader" tabindex="-1" aria-colindex="1" data-case="grid-columnheader-sort-label"><div role="presentation" style="cursor:pointer"><span>Price</span><span aria-hidden="true">^</span></div></div></div><div role="row" aria-rowindex="2"><div role="gridcell" aria-colindex="1" tabindex="-1" data-case="grid-gridcell">10</div></div></div>
<table data-case="table-caption"><caption>Quarterly results</caption><tr><th>Q</th><th>Sum</th></tr><tr><td>1</td><td>10</td></tr></table>
<img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" alt="Company logo" data-case="img-alt">
<img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" alt="" data-case="img-empty-alt">
<img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" title="Tooltip image" data-case="img-title">
<input type="submit" data-case="input-submit">
<input type="reset" data-case="input-reset">
<input type="button" value="Go" data-case="input-button">
<input type="image" alt="Search" src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" data-case="input-image">
<label><input type="checkbox" data-case="checkbox-wrap"> Accept terms</label>
<input type="radio" id="c-radio" name="r" data-case="radio-for"><label for="c-radio">Express</label>
<label for="c-range">Brightness</label><input type="range" id="c-range" data-case="input-range">
<label for="c-num">Count</label><input type="number" id="c-num" data-case="input-number">
<label for="c-search">Find</label><input type="search" id="c-search" data-case="input-search">
<datalist id="dl"><option value="a"></datalist><label for="c-list">Fruit</label><input id="c-list" list="dl" data-case="input-list">
<label for="c-sel">Country</label><select id="c-sel" data-case="select"><option>France</option><option>Japan</option></select>
<label for="c-multi">Toppings</label><select id="c-multi" multiple data-case="select-multiple"><option>Cheese</option><option>Ham</option></select>
<label for="c-size">Sizes</label><select id="c-size" size="3" data-case="select-size"><option>S</option><option>M</option></select>
<label for="c-ta">Comment</label><textarea id="c-ta" data-case="textarea"></textarea>
<input placeholder="Search here" data-case="placeholder-only">
<input title="Tooltip field" data-case="title-only">
<input title="Title wins" placeholder="Placeholder loses" data-case="title-and-placeholder">
<div contenteditable="true" aria-label="Editor" data-case="contenteditable-labelled">Some text</div>
<div contenteditable="true" data-case="contenteditable-bare">Draft</div>
<div role="tablist" aria-label="Sections" data-case="tablist"><div role="tab" aria-selected="true" data-case="tab">Overview</div><div role="tab">Details</div></div>
<div role="menu" aria-label="File"><div role="menuitem" data-case="menuitem">Open <span>recent</span></div></div>
<div role="switch" aria-checked="true" tabindex="0" data-case="switch">Wi-Fi</div>
<div role="slider" aria-valuenow="7" aria-valuemin="0" aria-valuemax="10" aria-label="Volume" tabindex="0" data-case="aria-slider"></div>
<div aria-hidden="true"><button data-case="aria-hidden-subtree">Hidden</button></div>
<table role="presentation"><tr><td data-case="presentation-table-cell">Layout</td></tr></table>
<button role="none" data-case="none-on-focusable">Still a button</button>
<span role="presentation" data-case="presentation-span">plain</span>
<x-host data-case="shadow-host"></x-host>
<x-card><span slot="title">Slotted title</span></x-card>
<a href="#home" data-case="link-img"><img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" alt="Home"></a>
<h2 data-case="heading-inline">Hello <em>world</em></h2>
<nav aria-label="Primary" data-case="nav-label"><a href="#a">A</a></nav>
<article><header data-case="header-in-article">Article header</header></article>
<section aria-label="News" data-case="section-named"><p>n</p></section>
<section data-case="section-unnamed"><p>u</p></section>
<form aria-label="Login" data-case="form-named"><input aria-label="User"></form>
<details><summary data-case="summary">More info</summary><p>Body</p></details>
<progress value="30" max="100" aria-label="Upload" data-case="progress"></progress>
<label for="c-meter">Disk</label><meter id="c-meter" value="0.6" data-case="meter"></meter>
<button data-case="button-hidden-child">Save<span hidden> draft</span><span class="vh"> copy</span></button>
<input type="checkbox" id="flash" data-case="embedded-select"><label for="flash">Flash <select aria-label="times count"><option>3</option></select> times</label>
<button data-case="button-blocks"><div>Line one</div><div>Line two</div></button>
<a href="#x" data-case="inline-join">Foo<b>bar</b></a>
<iframe title="Embedded map" src="about:blank" data-case="iframe-title"></iframe>
<output data-case="output">42</output>
<div role="foo button" tabindex="0" data-case="role-fallback-token">Fallback</div>
<input aria-describedby="desc1" aria-label="Password" type="password" data-case="describedby"><span id="desc1">At least 8 characters</span>
<ul><li data-case="listitem">Plain item</li></ul>
<h3><a href="#deep" data-case="link-in-heading">Deep link</a></h3>
<div role="checkbox" aria-checked="mixed" tabindex="0" data-case="aria-checkbox-mixed">Partial</div>
<button aria-pressed="true" data-case="toggle-pressed">Bold</button>
<div role="button" tabindex="0" aria-expanded="false" data-case="aria-expanded">Menu</div>
<div role="tablist" aria-label="Editors"><div role="tab" tabindex="0" data-case="tab-with-close"><span>u.ts</span> <button aria-label="Close u.ts" data-case="close-in-tab">x</button></div></div>
<div role="checkbox" aria-checked="false" tabindex="0" data-case="checkbox-with-link">Accept the <a href="#terms" data-case="link-in-checkbox">terms</a></div>
<label for="c-emb2">Wait <input type="number" value="5" aria-label="minutes"> minutes</label><input type="checkbox" id="c-emb2" data-case="embedded-number">
<aside data-case="aside">Sidebar</aside>
<article><aside data-case="aside-in-article">Note</aside></article>
<svg role="img" data-case="svg-role-img" width="10" height="10"><title>Chart</title><rect width="10" height="10"/></svg>
<svg data-case="svg-title" width="10" height="10"><title>Diagram</title><rect width="10" height="10"/></svg>
<a data-case="anchor-no-href">Not a link</a>
<label for="c-email">E-mail</label><input type="email" id="c-email" data-case="input-email">
<label for="c-pw">Secret</label><input type="password" id="c-pw" data-case="input-password">
<button title="Settings" data-case="button-title-only"><svg width="8" height="8"></svg></button>
<div role="heading" aria-level="3" data-case="aria-heading">Custom heading</div>
<fieldset aria-label="Options" data-case="fieldset-aria-label"><input aria-label="o1"></fieldset>
<figure data-case="figure-caption"><img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" alt="Chart"><figcaption>Sales by month</figcaption></figure>
<table><tr><th scope="row" data-case="th-row">Row head</th><td>v</td></tr><tr><th data-case="th-col-default">Col head</th></tr></table>
<input role="combobox" aria-expanded="false" aria-label="City picker" data-case="aria-combobox">
<div role="textbox" aria-multiline="true" tabindex="0" aria-label="Notes box" data-case="aria-textbox-multiline"></div>
<button data-case="content-aria-label-child"><span aria-label="Star">*</span> Favorite</button>
<button data-case="content-br">One<br>Two</button>
<label for="c-vh" class="vh">Invisible label</label><input id="c-vh" data-case="label-visibility-hidden">
<label for="c-dn" class="dn">Gone label</label><input id="c-dn" data-case="label-display-none">
<input type="checkbox" aria-labelledby="lb-a" data-case="checkbox-labelledby">
<div role="listbox" aria-label="Colors"><div role="option" aria-selected="true" data-case="aria-option">Red</div></div>
<select aria-label="Pick" size="2"><option data-case="native-option">Blue</option></select>
<ul role="list" aria-label="Steps" data-case="list-labelled"><li>one</li></ul>
<a href="#t" title="Terms of use" data-case="link-title-only"><img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" alt=""></a>
<p data-case="paragraph">Plain paragraph</p>
<div role="region" data-case="region-unnamed">unnamed region</div>
<input type="text" aria-label="Name" value="Ada" data-case="textbox-value">
<label data-case="label-element" for="c-for">First name again</label>
<dialog open aria-label="Settings" data-case="dialog"><p>x</p></dialog>
<button class="burger" data-case="css-before">Menu</button>
<button class="icon" aria-label="" data-case="css-icon-font">Trash</button>
<a href="#n" class="more" data-case="css-after-alt">Read</a>
<button class="bang" data-case="css-after">Hi</button>
</main>
<div role="tabpanel" tabindex="0" aria-label="Panel" data-case="focusable-tabpanel"><p>Panel body</p></div>
<x-field aria-label="Release notes"></x-field>
<footer data-case="footer">Foot</footer>
<script>
customElements.define('x-host', class extends HTMLElement {
  constructor() { super(); this.attachShadow({mode: 'open'}).innerHTML = '<button id="in-shadow">Shadow button</button>'; }
});
customElements.define('x-field', class extends HTMLElement {
  constructor() { super(); this.attachShadow({mode: 'open'}).innerHTML = '<textarea>Fixed</textarea>'; }
});
customElements.define('x-card', class extends HTMLElement {
  constructor() { super(); this.attachShadow({mode: 'open'}).innerHTML = '<button><slot name="title"></slot></button>'; }
});
</script>
</body></html>`

// axNode is one node of Chromium's accessibility tree.
type axNode struct {
	Ignored bool `json:"ignored"`
	Role    struct {
		Value string `json:"value"`
	} `json:"role"`
	Name *struct {
		Value string `json:"value"`
	} `json:"name"`
}

// chromiumRole maps Chromium's role strings to ARIA role names.
func chromiumRole(r string) string {
	switch r {
	case "image":
		return "img"
	case "Iframe", "IframePresentational":
		return "iframe"
	case "LabelText":
		return "label"
	case "DisclosureTriangle":
		return "summary"
	case "ListBox":
		return "listbox"
	case "MenuListPopup":
		return "listbox"
	case "RootWebArea":
		return "document"
	}
	return r
}

// corpusCase is one case's result.
type corpusCase struct {
	Case                   string
	OurRole, OurName       string
	ChromeRole, ChromeName string
	OurHidden, ChromeIgn   bool
}

// deliberate lists where the walker differs from Chromium on purpose:
// case → the walker's role and name, Chromium's role and name, and why.
// The test fails when a case differs without an entry here, and when an
// entry here no longer differs.
var deliberate = map[string]struct {
	ourRole, ourName, chromeRole, chromeName, why string
}{
	"contenteditable-labelled": {"textbox", "Editor", "generic", "Editor",
		"an editing host is where an agent types; Chromium exposes it as generic with an editable state, ARIA's word for it is textbox"},
	"contenteditable-bare": {"textbox", "", "generic", "",
		"as contenteditable-labelled"},
	"shadow-field-host-label": {"textbox", "Release notes", "textbox", "",
		"a web component's inner field with no name of its own takes its host's aria-label (@vscode-elements' vscode-textarea); Chromium names the host instead, and an agent acts on the field"},
	"summary": {"button", "More info", "summary", "More info",
		"Chromium's DisclosureTriangle role has no ARIA name; the summary toggles its details like a button"},
	"presentation-table-cell": {"none", "", "generic", "",
		"WAI-ARIA: the required owned elements of a presentational table inherit presentation; Chromium says generic. Neither makes an entry"},
	"header-in-article": {"generic", "", "sectionheader", "",
		"sectionheader is WAI-ARIA 1.3 (draft); HTML-AAM for 1.2 maps a header scoped to sectioning content to generic"},
	"figure-caption": {"figure", "Sales by month", "figure", "",
		"HTML-AAM names a figure from its figcaption; this Chromium does not expose that name"},
	"css-icon-font": {"button", "Trash", "button", "\uf101Trash",
		"a private-use character (an icon-font glyph from ::before) tells an agent nothing; the walker drops it"},
	"label-element": {"", "", "label", "",
		"a <label> is a name source (its words name the control), not an entry of its own"},
}

func runCorpus(t *testing.T) []corpusCase {
	t.Helper()
	tb := openTab(t, dataURL(corpusHTML))
	tb.waitTrue(t, `customElements.get('x-card') && document.querySelector('x-card').shadowRoot`)
	ctx := ctxT(t)
	s := NewStore()
	f := tb.frame("corpus")
	var cases []string
	tb.eval(t, `Array.from(document.querySelectorAll('[data-case]')).map(e => e.dataset.case)`, &cases)
	if len(cases) < 40 {
		t.Fatalf("corpus has %d cases, want at least 40", len(cases))
	}
	if err := tb.conn.Call(ctx, "Accessibility.enable", nil, nil); err != nil {
		t.Fatal(err)
	}
	var out []corpusCase
	for _, c := range cases {
		sel := `[data-case="` + c + `"]`
		p, err := s.probe(ctx, f, Locator{Selector: sel})
		if err != nil {
			t.Fatalf("%s: %v", c, err)
		}
		ax := chromiumAX(t, tb, ctx, c)
		cc := corpusCase{Case: c, OurRole: p.Role, OurName: p.Name, OurHidden: p.Excluded, ChromeRole: chromiumRole(ax.Role.Value), ChromeIgn: ax.Ignored}
		if ax.Name != nil {
			cc.ChromeName = ax.Name.Value
		}
		out = append(out, cc)
	}
	// The shadow-DOM cases: the element inside the shadow root.
	for _, sc := range []struct{ name, js, role, label string }{
		{"shadow-button", `document.querySelector('x-host').shadowRoot.querySelector('button')`, "button", ""},
		{"shadow-slot", `document.querySelector('x-card').shadowRoot.querySelector('button')`, "button", ""},
		{"shadow-field-host-label", `document.querySelector('x-field').shadowRoot.querySelector('textarea')`, "textbox", "Release notes"},
	} {
		out = append(out, shadowCase(t, tb, ctx, s, f, sc.name, sc.js, sc.role, sc.label))
	}
	return out
}

func chromiumAX(t *testing.T, tb *tab, ctx context.Context, c string) axNode {
	t.Helper()
	var doc struct {
		Root struct {
			NodeID int `json:"nodeId"`
		} `json:"root"`
	}
	if err := tb.conn.Call(ctx, "DOM.getDocument", map[string]any{"depth": 0}, &doc); err != nil {
		t.Fatal(err)
	}
	var q struct {
		NodeID int `json:"nodeId"`
	}
	if err := tb.conn.Call(ctx, "DOM.querySelector", map[string]any{"nodeId": doc.Root.NodeID, "selector": `[data-case="` + c + `"]`}, &q); err != nil {
		t.Fatal(err)
	}
	return axFor(t, tb, ctx, map[string]any{"nodeId": q.NodeID})
}

func axFor(t *testing.T, tb *tab, ctx context.Context, params map[string]any) axNode {
	t.Helper()
	params["fetchRelatives"] = false
	var ax struct {
		Nodes []axNode `json:"nodes"`
	}
	if err := tb.conn.Call(ctx, "Accessibility.getPartialAXTree", params, &ax); err != nil {
		t.Fatal(err)
	}
	if len(ax.Nodes) == 0 {
		t.Fatalf("no AX node for %v", params)
	}
	return ax.Nodes[0]
}

// shadowCase compares the walker's entry for the element js finds in a
// shadow root with Chromium's node for it. The walker's entry is found by
// role and by the element's text (a button's) or, given label, by that
// name.
func shadowCase(t *testing.T, tb *tab, ctx context.Context, s *Store, f Frame, name, js, role, label string) corpusCase {
	t.Helper()
	var ro struct {
		Result struct {
			ObjectID string `json:"objectId"`
		} `json:"result"`
	}
	if err := tb.conn.Call(ctx, "Runtime.evaluate", map[string]any{"expression": js}, &ro); err != nil {
		t.Fatal(err)
	}
	ax := axFor(t, tb, ctx, map[string]any{"objectId": ro.Result.ObjectID})
	// The walker sees the element through a snapshot: find it by role.
	var p probe
	tb.eval(t, `(function(){var el=`+js+`;el.setAttribute('data-probe','1');return true})()`, nil)
	r, err := s.Find(ctx, f, FindQuery{Role: role})
	if err != nil {
		t.Fatal(err)
	}
	want := label
	if want == "" {
		tb.eval(t, `(`+js+`).textContent || (`+js+`).querySelector('slot').assignedNodes()[0].textContent`, &want)
	}
	for _, m := range r.Matches {
		if strings.TrimSpace(m.Name) == strings.TrimSpace(want) {
			p.Role, p.Name = m.Role, m.Name
		}
	}
	cc := corpusCase{Case: name, OurRole: p.Role, OurName: p.Name, ChromeRole: chromiumRole(ax.Role.Value), ChromeIgn: ax.Ignored}
	if ax.Name != nil {
		cc.ChromeName = ax.Name.Value
	}
	return cc
}

func TestRoleNameCorpus(t *testing.T) {
	cases := runCorpus(t)
	var table strings.Builder
	fmt.Fprintf(&table, "%-32s | %-34s | %-34s | %s\n", "case", "walker", "chromium", "")
	seen := map[string]bool{}
	same, diff := 0, 0
	for _, c := range cases {
		verdict := "same"
		if !corpusAgrees(c) {
			d, ok := deliberate[c.Case]
			switch {
			case !ok:
				verdict = "DIFFERS"
				t.Errorf("%s: walker %s %q, chromium %s %q (ignored=%v): not a recorded difference", c.Case, c.OurRole, c.OurName, c.ChromeRole, c.ChromeName, c.ChromeIgn)
			case d.ourRole != c.OurRole || d.ourName != c.OurName || d.chromeRole != c.ChromeRole || d.chromeName != c.ChromeName:
				verdict = "DIFFERS"
				t.Errorf("%s: walker %s %q, chromium %s %q; the recorded difference says %+v", c.Case, c.OurRole, c.OurName, c.ChromeRole, c.ChromeName, d)
			default:
				verdict = "deliberate"
			}
			seen[c.Case] = true
			diff++
		} else {
			same++
			if _, ok := deliberate[c.Case]; ok {
				t.Errorf("%s: recorded as a difference but the walker now agrees with Chromium; drop it from the table", c.Case)
			}
		}
		fmt.Fprintf(&table, "%-32s | %-34s | %-34s | %s\n", c.Case, c.OurRole+" "+quoteIf(c.OurName)+excludedMark(c.OurHidden),
			c.ChromeRole+" "+quoteIf(c.ChromeName)+ignoredMark(c.ChromeIgn), verdict)
	}
	for k := range deliberate {
		if !seen[k] {
			found := false
			for _, c := range cases {
				found = found || c.Case == k
			}
			if !found {
				t.Errorf("recorded difference %s has no case in the corpus", k)
			}
		}
	}
	t.Logf("%d cases: %d agree with Chromium, %d deliberate differences\n%s", len(cases), same, diff, table.String())
}

// corpusAgrees compares one case. An element Chromium leaves out of its
// tree (ignored) agrees with one the walker excludes or gives no role.
func corpusAgrees(c corpusCase) bool {
	if c.ChromeIgn {
		return c.OurHidden || c.OurRole == "" || c.OurRole == "none" || c.OurRole == "generic"
	}
	return c.OurRole == c.ChromeRole && c.OurName == c.ChromeName
}

func excludedMark(x bool) string {
	if x {
		return " (excluded)"
	}
	return ""
}

func quoteIf(s string) string { return fmt.Sprintf("%q", s) }

func ignoredMark(ign bool) string {
	if ign {
		return " (ignored)"
	}
	return ""
}
