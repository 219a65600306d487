package page

import (
	"testing"

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
	if err != nil || v == nil || *v != "a > b" {
		t.Fatalf("get attribute through the host: %v %v", v, err)
	}
	for _, bad := range []string{">>> .go", "#card >>>", "#card >>> [x=", "a,,b", "a >", "> a"} {
		_, err := s.Exists(ctx, f, Locator{Selector: bad})
		wantCode(t, err, errs.BadArgument)
	}
}
