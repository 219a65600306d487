package page

import (
	"encoding/json"
	"fmt"
	"testing"
)

const statesHTML = `<!doctype html><title>States</title><main>
<input type="checkbox" checked data-s="cb-checked" aria-label="a">
<input type="checkbox" id="cb-mixed" data-s="cb-mixed" aria-label="b">
<input type="radio" data-s="radio-off" aria-label="c">
<div role="checkbox" aria-checked="mixed" tabindex="0" data-s="aria-mixed">d</div>
<div role="switch" aria-checked="true" tabindex="0" data-s="switch-on">e</div>
<button disabled data-s="button-disabled">f</button>
<fieldset disabled><legend><input data-s="legend-input" aria-label="g"></legend><input data-s="fieldset-input" aria-label="h"></fieldset>
<button aria-disabled="true" data-s="aria-disabled">i</button>
<div role="group" aria-disabled="true"><button data-s="in-aria-disabled-group">j</button></div>
<button aria-expanded="true" data-s="expanded">k</button>
<details open><summary data-s="summary-open">l</summary>m</details>
<details><summary data-s="summary-closed">n</summary>o</details>
<button aria-pressed="true" data-s="pressed">p</button>
<button aria-pressed="false" data-s="not-pressed">q</button>
<input required data-s="required" aria-label="r">
<input readonly data-s="readonly" aria-label="s">
<input aria-invalid="true" data-s="invalid" aria-label="t">
<div role="region" aria-label="u" aria-busy="true" data-s="busy">v</div>
<div role="tablist"><div role="tab" aria-selected="true" data-s="tab-selected">w</div><div role="tab" aria-selected="false" data-s="tab-unselected">x</div></div>
<input data-s="focused" aria-label="y">
<select aria-label="z" data-s="select"><option>1</option></select>
</main><script>document.getElementById('cb-mixed').indeterminate = true; document.querySelector('[data-s=focused]').focus();</script>`

// axStates reads Chromium's states of one element, in the walker's terms.
func axStates(t *testing.T, tb *tab, sel string) map[string]string {
	t.Helper()
	ctx := ctxT(t)
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
	if err := tb.conn.Call(ctx, "DOM.querySelector", map[string]any{"nodeId": doc.Root.NodeID, "selector": sel}, &q); err != nil {
		t.Fatal(err)
	}
	var ax struct {
		Nodes []struct {
			Properties []struct {
				Name  string `json:"name"`
				Value struct {
					Value json.RawMessage `json:"value"`
				} `json:"value"`
			} `json:"properties"`
		} `json:"nodes"`
	}
	if err := tb.conn.Call(ctx, "Accessibility.getPartialAXTree", map[string]any{"nodeId": q.NodeID, "fetchRelatives": false}, &ax); err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, p := range ax.Nodes[0].Properties {
		var v any
		_ = json.Unmarshal(p.Value.Value, &v)
		out[p.Name] = fmt.Sprint(v)
	}
	return out
}

// ours renders an ElementState in Chromium's property terms (only the
// properties Chromium reports when they hold).
func ours(st *ElementState) map[string]string {
	out := map[string]string{}
	if st.Disabled {
		out["disabled"] = "true"
	}
	switch st.Checked {
	case True:
		out["checked"] = "true"
	case Mixed:
		out["checked"] = "mixed"
	}
	if st.Expanded != nil {
		out["expanded"] = fmt.Sprint(*st.Expanded)
	}
	if st.Pressed != nil {
		switch *st.Pressed {
		case True:
			out["pressed"] = "true"
		case Mixed:
			out["pressed"] = "mixed"
		default:
			out["pressed"] = "false"
		}
	}
	if st.Focused {
		out["focused"] = "true"
	}
	if st.Required {
		out["required"] = "true"
	}
	if st.Readonly {
		out["readonly"] = "true"
	}
	if st.Invalid {
		out["invalid"] = "true"
	}
	if st.Busy {
		out["busy"] = "true"
	}
	if st.Selected {
		out["selected"] = "true"
	}
	return out
}

// comparable keeps Chromium's properties that GetState reports, dropping
// the false and default values Chromium also lists.
func comparable(ax map[string]string) map[string]string {
	out := map[string]string{}
	for _, k := range []string{"disabled", "checked", "expanded", "pressed", "focused", "required", "readonly", "invalid", "busy", "selected"} {
		v, ok := ax[k]
		if !ok {
			continue
		}
		if v == "1" { // Chromium sends aria-busy as a number
			v = "true"
		}
		switch {
		case k == "checked" && v == "false":
		case k == "expanded" || k == "pressed":
			out[k] = v
		case v == "false":
		default:
			out[k] = v
		}
	}
	return out
}

// stateDeliberate lists where GetState differs from Chromium on purpose
// (none so far).
var stateDeliberate = map[string]string{}

func TestStatesAgainstChromium(t *testing.T) {
	tb := openTab(t, dataURL(statesHTML))
	s := NewStore()
	ctx := ctxT(t)
	f := tb.frame("states")
	if err := tb.conn.Call(ctx, "Accessibility.enable", nil, nil); err != nil {
		t.Fatal(err)
	}
	var names []string
	tb.eval(t, `Array.from(document.querySelectorAll('[data-s]')).map(e => e.dataset.s)`, &names)
	for _, n := range names {
		sel := `[data-s="` + n + `"]`
		st, err := s.GetState(ctx, f, Locator{Selector: sel})
		if err != nil {
			t.Fatal(err)
		}
		a, c := ours(st), comparable(axStates(t, tb, sel))
		if fmt.Sprint(a) != fmt.Sprint(c) {
			if why, ok := stateDeliberate[n]; ok {
				t.Logf("%s: walker %v, chromium %v: %s", n, a, c, why)
				continue
			}
			t.Errorf("%s: walker %v, chromium %v", n, a, c)
		}
	}
}
