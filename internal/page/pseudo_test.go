package page

import (
	"strings"
	"testing"
)

// TestPseudoTextWhereSheetsGiveIt: the walker reads ::before and ::after
// only in tree scopes whose style sheets have a rule for one (ADR-015), so
// it must still find every such rule: inside @media, @supports and @layer,
// nested (&::after), imported, adopted (document and shadow root), in a
// shadow root's own <style>, and on a host (:host::before).
func TestPseudoTextWhereSheetsGiveIt(t *testing.T) {
	tb := openTab(t, dataURL(`<title>P</title>
<style>@import url('data:text/css,.i::after{content:"%20imported"}');</style>
<style>
@media (min-width: 1px) { .m::before { content: "Media " } }
.n { &::after { content: " nested" } }
@supports (display: grid) { @layer x { .l::after { content: " layered" } } }
</style><body>
<button class="m">one</button>
<button class="n">two</button>
<button class="l">three</button>
<button class="a">four</button>
<button class="plain">five</button>
<x-host></x-host>
<div id="plain"></div>
<div id="hb" role="button" tabindex="0"></div>
<button class="i">nine</button>
<script>
const sh = new CSSStyleSheet(); sh.replaceSync('.a::before { content: "Adopted " }'); document.adoptedStyleSheets = [sh];
customElements.define('x-host', class extends HTMLElement { constructor() { super(); const r = this.attachShadow({mode: 'open'});
  r.innerHTML = '<style>.s::before{content:"Shadow "}</style><button class="s">six</button>'; } });
const d = document.getElementById('plain').attachShadow({mode: 'open'});
const cs = new CSSStyleSheet(); cs.replaceSync('.c::after { content: " constructed" }'); d.adoptedStyleSheets = [cs];
d.innerHTML = '<button class="c">seven</button>';
document.getElementById('hb').attachShadow({mode: 'open'}).innerHTML = '<style>:host::before{content:"Host "}</style><span>eight</span>';
</script></body>`))
	tb.waitTrue(t, `getComputedStyle(document.querySelector('.i'), '::after').content !== 'none'`)
	s := NewStore()
	snap, err := s.Snapshot(ctxT(t), tb.frame("pseudo"), SnapshotOptions{Format: "text"})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`button "Media one"`, `button "two nested"`, `button "three layered"`, `button "Adopted four"`,
		`button "five"`, `button "Shadow six"`, `button "seven constructed"`, `button "Host eight"`, `button "nine imported"`} {
		if !strings.Contains(snap.Text, want) {
			t.Errorf("snapshot lacks %s:\n%s", want, snap.Text)
		}
	}
}

// TestNoBuiltInPseudoText: the walker takes a page without ::before or
// ::after rules to have no pseudo-element text, which holds only while
// Chromium's own style sheet gives none: every kind of element is checked.
func TestNoBuiltInPseudoText(t *testing.T) {
	tb := openTab(t, dataURL(`<title>U</title><body>
<q>quote <q>inner</q></q><abbr title="x">ab</abbr><details><summary>s</summary>d</details><details open><summary>o</summary>p</details>
<ol><li>a</li></ol><ul><li>b</li></ul><dl><dt>t</dt><dd>d</dd></dl><menu><li>m</li></menu>
<input><input type="checkbox"><input type="radio"><input type="file"><input type="date"><input type="color"><input type="range">
<input type="search"><input type="number"><input type="submit"><input type="reset"><input type="button" value="b"><input type="image" alt="i">
<select><option>o</option></select><select multiple><optgroup label="g"><option>o</option></optgroup></select><textarea>t</textarea>
<button>b</button><dialog open>dialog</dialog><fieldset><legend>l</legend>f</fieldset><ruby>r<rt>t</rt><rp>(</rp></ruby>
<meter value="0.5"></meter><progress></progress><output>o</output><table><caption>c</caption><tr><th>h</th><td>d</td></tr></table>
<a href="#x">a</a><img alt="i"><video controls></video><audio controls></audio><marquee>m</marquee><blockquote>b</blockquote>
<cite>c</cite><code>c</code><pre>p</pre><sup>s</sup><sub>s</sub><mark>m</mark><del>d</del><ins>i</ins><s>s</s><u>u</u><hr><br><wbr>
<address>a</address><figure><figcaption>f</figcaption></figure><search>s</search><bdi>b</bdi><bdo dir="rtl">b</bdo><kbd>k</kbd>
<samp>s</samp><var>v</var><small>s</small><time>t</time><data value="1">d</data><dfn>d</dfn><label>l</label><map><area alt="a"></map>
<math><mi>x</mi></math><svg><text>t</text></svg><slot>s</slot><span dir="rtl">r</span><p lang="fr">«<q lang="de">z</q>»</p>
</body>`))
	var bad []string
	tb.eval(t, `(() => { const out = [];
		for (const e of document.querySelectorAll('*')) for (const w of ['::before', '::after']) {
			const c = getComputedStyle(e, w).content;
			if (c && c.charCodeAt(0) === 34) out.push(e.localName + w + ' ' + c);
		}
		return out; })()`, &bad)
	if len(bad) > 0 {
		t.Fatalf("Chromium's own style sheet gives pseudo-element text (the walker's mayPseudo must read it): %v", bad)
	}
}
