package tool

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"strings"
	"sync"

	"github.com/understudy-dev/understudy/internal/mcpwire"
)

// The host view (docs/adr/022, amended by docs/adr/030): what tools/list
// carries for each tool, which every MCP host puts into the model's
// context before the first call. The registry keeps every word (each
// tool's full description, every parameter's description, the full result
// schema), and docs/tools.md prints all of it; tools/list carries
//
//   - the tool's short description (Def.Short; the full one when the
//     tool has none, so a new tool is measured as it is written),
//     without the sentences after the first that point to a tool this
//     server's profile and groups leave off;
//   - its input schema with every parameter described, long prose
//     shortened (hostParams), without sessionId and allowChanged (the
//     instructions say them once; every tool still takes them), without
//     reveal when the server runs without --allow-secrets (it could only
//     be refused), and
//     without additionalProperties:false and "null" in a type list (the
//     server still refuses an unknown parameter with BAD_ARGUMENT naming
//     it, and still accepts null where the Go type does);
//   - no outputSchema: MCP makes it optional, every result is the JSON of
//     its text block and structuredContent, and the schema of each result
//     is embedded (schemas/out/) and printed in docs/tools.md.
//
// A short description says what the tool does, what it verifies and what
// an agent needs to recover (TestHostDescriptions); the error a tool
// answers carries its own hint, so the list of codes stays in the docs.

// hostDescription is the description tools/list carries for a tool: its
// short one (else the full one), less every sentence after the first that
// points to a tool that is off in this server (issue 30, point 1: no dead
// ends; essential has no electron_keyboard_type, so electron_type does not
// send the agent there). off reports a registered tool that is not
// enabled.
func hostDescription(d Def, off func(string) bool) string {
	desc := d.Short
	if desc == "" {
		desc = d.Desc
	}
	return mcpwire.WithoutPointersTo(desc, off)
}

// hostParams are parameter descriptions as tools/list carries them, by
// their full text (which docs/tools.md keeps): shorter, never empty
// (issue 26: every parameter is described in tools/list, which
// TestEveryParameterDescribed checks for every profile and group). The
// table is words, not code: hostparams.tsv, one "full<TAB>short" a line.
// The first ones are the descriptions many tools repeat word for word;
// the server's instructions say them once in more words
// (hostParamsInstructions).
var hostParams = sync.OnceValue(func() map[string]string {
	m, err := parseHostParams(hostParamsTSV)
	if err != nil {
		panic(err) // TestHostParamsTable keeps the embedded table well formed
	}
	return m
})

//go:embed hostparams.tsv
var hostParamsTSV string

// parseHostParams reads the table of short parameter words: each line a
// full description, a tab and its short form; no description twice.
func parseHostParams(tsv string) (map[string]string, error) {
	m := map[string]string{}
	for i, line := range strings.Split(strings.TrimSuffix(tsv, "\n"), "\n") {
		full, short, ok := strings.Cut(line, "\t")
		switch {
		case !ok || full == "" || short == "" || strings.Contains(short, "\t"):
			return nil, fmt.Errorf("hostparams.tsv:%d: want \"full description<TAB>short words\"", i+1)
		case m[full] != "":
			return nil, fmt.Errorf("hostparams.tsv:%d: %q is there twice", i+1, full)
		}
		m[full] = short
	}
	return m, nil
}

// actionTimeoutDesc is the description of an action's timeoutMs, which
// the instructions state once for every action.
const actionTimeoutDesc = "how long to wait until the element is actionable; default 5000, max 30000"

// hostParamsInstructions says once, in the server's instructions, what
// every tool's schema in tools/list leaves out.
const hostParamsInstructions = `Parameters many tools share: ref (an integer from electron_snapshot or electron_find; it acts in the surface that issued it) XOR selector (CSS in the active surface's document);
allowChanged:true acts on a ref whose element now shows another role or name than you last saw (else REF_STALE; ref_changed reports it);
timeoutMs: how long an action waits until its element is visible, stable, enabled and uncovered (default 5000, max 30000); sessionId (every tool) only when several sessions are open.
then (every action: click, type, key, check, select, fill_form, navigate…): act and observe in one call. After the action, wait until text=T (the page shows T), selector=S, gone=S or url=U holds, and/or diff (what changed since your last snapshot); join with ; and bound with timeout=MS, e.g. electron_click {ref: 5, then: "text=Saved;diff"}. The answer's then says met, waited_ms and diff; when it does not hold, EXPECTATION_FAILED says the action was done (details.result): do not repeat it.
An unknown parameter is BAD_ARGUMENT naming it and the closest one (details.did_you_mean). A failure says its code and a hint. docs/tools.md describes every tool and parameter in full.`

// hostInputSchema is an input schema as tools/list carries it (see the
// top of this file; mcpwire.HostSchema trims it).
//
// off names parameters this server cannot honour and leaves out: reveal
// without --allow-secrets (it would only answer SECRETS_NOT_ALLOWED).
func hostInputSchema(raw json.RawMessage, off ...string) json.RawMessage {
	return mcpwire.HostSchema(raw, mcpwire.HostSchemaOptions{
		// Said once in the server's instructions (hostParamsInstructions),
		// not in every tool: which session, acting on a changed ref, and
		// what to wait for after an action.
		Drop: append([]string{"sessionId", "allowChanged", "then"}, off...),
		// An action's wait for its element, as the instructions state it.
		DropDescribed: map[string]string{"timeoutMs": actionTimeoutDesc},
		Short:         hostParams(),
	})
}
