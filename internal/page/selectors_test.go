package page

import (
	"strings"
	"testing"
	"time"

	"github.com/understudy-dev/understudy/internal/errs"
)

// shadowPage has a light list, a host with an open shadow root holding a
// nested host, a slotted light child, and a closed shadow root.
const shadowPage = `<!doctype html><title>Shadow</title><body>
<ul id="light"><li class="a">one</li><li class="b">two</li></ul>
<x-card id="card"><span class="slotted">label</span></x-card>
<x-closed id="closed"></x-closed>
<script>
const card = document.getElementById('card').attachShadow({mode: 'open'});
card.innerHTML = '<div class="body"><slot></slot><button class="go" title="a > b">Go</button><span class="after">x</span>' +
  '<x-inner id="inner"></x-inner></div>';
const inner = card.getElementById('inner').attachShadow({mode: 'open'});
inner.innerHTML = '<p class="deep"><input class="field"></p>';
document.getElementById('closed').attachShadow({mode: 'closed'}).innerHTML = '<button class="hidden-away">No</button>';
window.__ready = true;
</script></body>`

func TestSelectorsPierceShadowRoots(t *testing.T) {
	tb := openTab(t, dataURL(shadowPage))
	tb.waitTrue(t, "window.__ready === true")
	s := NewStore()
	f := tb.frame("shadow")
	ctx := ctxT(t)
	count := func(sel string) int {
		t.Helper()
		r, err := s.ElementsList(ctx, f, sel, 50)
		if err != nil {
			t.Fatalf("%q: %v", sel, err)
		}
		return r.Count
	}
	for sel, want := range map[string]int{
		"li":                                  2,
		"#light > li.b":                       1,
		"x-card button":                       1, // descendant across the host
		"x-card > div > button.go":            1, // child combinator from the shadow top to its host
		"#card >>> .go":                       1,
		"#card>>>.go":                         1,
		"body x-card >>> x-inner input.field": 1, // two shadow roots deep
		"x-card p.deep > input":               1,
		"x-inner > p > input":                 1,
		".go + .after":                        1, // siblings inside one shadow tree
		"x-card + .go":                        0, // no sibling across a boundary
		"#light button":                       0,
		"[title=\"a > b\"]":                   1, // a combinator character inside a string
		":is(x-card, #light) .go, li.a":       2,
		"x-closed button":                     0, // closed shadow roots stay closed
		"x-card span.slotted":                 1, // the light child of the host
		"div.body span.slotted":               0, // slotting is not ancestry (composed tree, as Playwright)
		"button":                              1,
	} {
		if got := count(sel); got != want {
			t.Errorf("%q matches %d elements, want %d", sel, got, want)
		}
	}
	// Every locator uses the same resolution: exists, reads, actions.
	if ok, err := s.Exists(ctx, f, Locator{Selector: "x-card >>> input"}); err != nil || !ok {
		t.Fatalf("exists: %v %v", ok, err)
	}
	v, err := s.GetAttribute(ctx, f, Locator{Selector: "#card .go"}, "title")
	if err != nil || v == nil || v.Reveal() != "a > b" {
		t.Fatalf("get attribute through the host: %v %v", v, err)
	}
	for _, bad := range []string{">>> .go", "#card >>>", "#card >>> [x=", "a,,b", "a >", "> a"} {
		_, err := s.Exists(ctx, f, Locator{Selector: bad})
		wantCode(t, err, errs.BadArgument)
	}
}

// hostPage has web components without a library: a checkbox host whose
// state is its .checked property, a field host with an inner <input>, and a
// button host whose label is slotted text.
const hostPage = `<!doctype html><title>Hosts</title><body>
<x-check id="chk">Agree</x-check>
<x-field id="fld"></x-field>
<x-btn id="btn">Save draft</x-btn>
<script>
customElements.define('x-check', class extends HTMLElement {
  constructor() { super(); this._c = false;
    this.attachShadow({mode: 'open'}).innerHTML = '<label><input type="checkbox" tabindex="-1"><slot></slot></label>';
    this.shadowRoot.querySelector('input').addEventListener('change', (e) => { this._c = e.target.checked; }); }
  get checked() { return this._c; }
  set checked(v) { this._c = !!v; this.shadowRoot.querySelector('input').checked = !!v; }
});
customElements.define('x-field', class extends HTMLElement {
  constructor() { super(); this.attachShadow({mode: 'open'}).innerHTML = '<label>Name <input class="inner"></label>'; }
  get value() { return this.shadowRoot.querySelector('input').value; }
});
customElements.define('x-btn', class extends HTMLElement {
  constructor() { super(); this.attachShadow({mode: 'open'}).innerHTML =
    '<button style="font-size:40px;padding:0"><span><slot></slot></span></button>';
    this.addEventListener('click', () => { window.__saved = (window.__saved || 0) + 1; }); }
});
window.__ready = true;
</script></body>`

func TestWebComponentHosts(t *testing.T) {
	tb := openTab(t, dataURL(hostPage))
	tb.waitTrue(t, "window.__ready === true")
	s := NewStore()
	f := tb.frame("hosts")
	ctx := ctxT(t)

	// States follow the host's own property.
	st, err := s.GetState(ctx, f, Locator{Selector: "#chk"})
	if err != nil || (st.Checked == True) {
		t.Fatalf("state before: %+v %v", st, err)
	}
	tb.eval(t, `document.getElementById('chk').checked = true`, nil)
	if st, err = s.GetState(ctx, f, Locator{Selector: "#chk"}); err != nil || !(st.Checked == True) {
		t.Fatalf("state after .checked = true: %+v %v", st, err)
	}
	if cs, err := s.ActChecked(ctx, f, Locator{Selector: "#chk"}); err != nil || !cs.Checked {
		t.Fatalf("checked read of the host: %+v %v", cs, err)
	}

	// Text goes to the host's inner field.
	acted, err := s.Act(ctx, f, Locator{Selector: "#fld"}, Action{Checks: Checks{Visible: true, Enabled: true, Editable: true}, Name: "fill", Args: map[string]any{"text": "Ada"}}, 2*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	var v string
	tb.eval(t, `document.getElementById('fld').value`, &v)
	if v != "Ada" {
		t.Fatalf("x-field value %q after fill (%s)", v, acted.Out)
	}
	// A host that takes no text names its inner control.
	_, err = s.Act(ctx, f, Locator{Selector: "#btn"}, Action{Checks: Checks{Editable: true}, Name: "fill", Args: map[string]any{"text": "x"}}, time.Second)
	if e := wantCode(t, err, errs.BadArgument); !strings.Contains(e.Message, `x-btn#btn >>> button`) {
		t.Fatalf("refusal: %v", e.Message)
	}

	// The slotted-label button's inner <button> receives the pointer at its
	// centre (the hit is the host's own text, slotted inside the button).
	t0 := time.Now()
	acted, err = s.Act(ctx, f, Locator{Selector: "#btn >>> button"}, Action{Checks: PointerChecks()}, 3*time.Second)
	if err != nil || time.Since(t0) > time.Second {
		t.Fatalf("pointer checks on the inner button: %v after %v", err, time.Since(t0))
	}
	_ = acted
}
