package tool

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	tiktoken "github.com/pkoukk/tiktoken-go"
	tiktokenloader "github.com/pkoukk/tiktoken-go-loader"
)

// The manifest budget (docs/adr/022): what a host receives from
// tools/list, measured for every profile and capability group, against a
// committed baseline. Rewrite the baseline with
//
//	go test ./internal/tool -run TestManifestBudget -update-manifest -reason "why it grew"
var (
	updateManifest = flag.Bool("update-manifest", false, "rewrite testdata/manifest-baseline.json")
	manifestReason = flag.String("reason", "", "with -update-manifest: why the manifest changed")
)

const manifestBaselinePath = "testdata/manifest-baseline.json"

// manifestGrowth is how much a variant may grow (BPE or characters) over
// its baseline before the gate fails.
const manifestGrowth = 0.03

// The targets of issue 15, each on the measure of its anchor: the full
// core at most half of stagewright's (20.4k characters/4 measured here;
// 17,606 BPE in its ADR-021), essential at most 4k characters/4.
const (
	targetFullChars4      = 10200
	targetFullBPE         = 8800
	targetEssentialChars4 = 4000
)

// manifestSize is one variant's measure.
type manifestSize struct {
	Tools int `json:"tools"`
	// Chars counts the Unicode code points of the JSON of the parsed
	// tools/list result ({"tools": [...]}), as the host holds it.
	Chars  int `json:"chars"`
	Chars4 int `json:"chars_div_4"`
	// BPE counts o200k_base tokens (tiktoken-go, its vocabulary embedded by
	// tiktoken-go-loader: nothing downloads): a public proxy for a host's
	// tokenizer, as stagewright's gpt-tokenizer figure is.
	BPE int `json:"bpe"`
	// OutputSchemaChars is the part of Chars in outputSchema.
	OutputSchemaChars int `json:"output_schema_chars"`
}

type manifestBaseline struct {
	Reason   string                  `json:"reason"`
	Variants map[string]manifestSize `json:"variants"`
}

// manifestVariants are the measured configurations: every core profile,
// the full core with eval, each group alone (essential plus the group,
// less essential) and everything together.
func manifestVariants() map[string]Config {
	v := map[string]Config{}
	for _, p := range Profiles {
		v[p] = Config{ToolProfile: p}
	}
	v["full-eval"] = Config{ToolProfile: "full", AllowEvalMain: true, AllowEvalRenderer: true}
	for _, g := range GroupNames() {
		v["with-"+g] = Config{ToolProfile: "essential", With: []string{g}, AllowEvalMain: true, AllowEvalRenderer: true}
	}
	v["all-eval"] = Config{ToolProfile: "full", With: []string{"all"}, AllowEvalMain: true, AllowEvalRenderer: true}
	return v
}

var bpe = sync.OnceValues(func() (*tiktoken.Tiktoken, error) {
	tiktoken.SetBpeLoader(tiktokenloader.NewOfflineLoader())
	return tiktoken.GetEncoding("o200k_base")
})

// measureTools measures a tools/list result.
func measureTools(t testing.TB, list []*mcp.Tool) manifestSize {
	t.Helper()
	b, err := json.Marshal(&mcp.ListToolsResult{Tools: list})
	if err != nil {
		t.Fatal(err)
	}
	enc, err := bpe()
	if err != nil {
		t.Fatal(err)
	}
	m := manifestSize{Tools: len(list), Chars: len([]rune(string(b)))}
	m.Chars4 = (m.Chars + 3) / 4
	m.BPE = len(enc.Encode(string(b), nil, nil))
	for _, tl := range list {
		if tl.OutputSchema != nil {
			o, _ := json.Marshal(tl.OutputSchema)
			m.OutputSchemaChars += len([]rune(string(o)))
		}
	}
	return m
}

// measureManifests measures every variant through a real MCP client.
func measureManifests(t testing.TB) map[string]manifestSize {
	out := map[string]manifestSize{}
	all := New(Config{})
	defer all.Close()
	for name, cfg := range manifestVariants() {
		list := hostTools(t, cfg)
		if strings.HasPrefix(name, "with-") { // the group's own tools
			var own []*mcp.Tool
			for _, tl := range list {
				if all.groupOf(tl.Name) != "" {
					own = append(own, tl)
				}
			}
			list = own
		}
		out[name] = measureTools(t, list)
	}
	return out
}

// hostTools is the tools/list an MCP client receives from a server built
// from cfg.
func hostTools(t testing.TB, cfg Config) []*mcp.Tool {
	t.Helper()
	s := New(cfg)
	defer s.Close()
	cs, done := inMemoryClient(t, s)
	defer done()
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	return res.Tools
}

// inMemoryClient connects an MCP client to s in memory; done closes both
// ends.
func inMemoryClient(t testing.TB, s *Server) (cs *mcp.ClientSession, done func()) {
	t.Helper()
	ctx := context.Background()
	ct, st := mcp.NewInMemoryTransports()
	ss, err := s.MCP().Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err = mcp.NewClient(&mcp.Implementation{Name: "test", Version: "0"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		_ = ss.Close()
		t.Fatal(err)
	}
	return cs, func() { _ = cs.Close(); _ = ss.Close() }
}

// manifestRegressions lists each variant that grew more than
// manifestGrowth over the baseline, or is new.
func manifestRegressions(base, now map[string]manifestSize) []string {
	var bad []string
	for name, m := range now {
		b, ok := base[name]
		if !ok {
			bad = append(bad, name+": not in the baseline")
			continue
		}
		if float64(m.BPE) > float64(b.BPE)*(1+manifestGrowth) || float64(m.Chars) > float64(b.Chars)*(1+manifestGrowth) {
			bad = append(bad, fmt.Sprintf("%s: %d BPE / %d chars, baseline %d / %d (more than %.0f%% growth)", name, m.BPE, m.Chars, b.BPE, b.Chars, manifestGrowth*100))
		}
	}
	sort.Strings(bad)
	return bad
}

// TestManifestBudget is the CI gate: no variant grows more than 3% over
// the committed baseline without -update-manifest and a -reason; the full
// core and essential stay within their targets.
func TestManifestBudget(t *testing.T) {
	now := measureManifests(t)
	names := make([]string, 0, len(now))
	for n := range now {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		m := now[n]
		t.Logf("%-16s tools %3d  chars %6d  chars/4 %5d  BPE %5d  (output schemas %d chars)", n, m.Tools, m.Chars, m.Chars4, m.BPE, m.OutputSchemaChars)
	}
	if *updateManifest {
		if strings.TrimSpace(*manifestReason) == "" {
			t.Fatal("-update-manifest needs -reason \"why the manifest changed\"")
		}
		b, err := json.MarshalIndent(manifestBaseline{Reason: *manifestReason, Variants: now}, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Dir(manifestBaselinePath), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(manifestBaselinePath, append(b, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	raw, err := os.ReadFile(manifestBaselinePath)
	if err != nil {
		t.Fatalf("%v (write it with -update-manifest -reason ...)", err)
	}
	var base manifestBaseline
	if err := json.Unmarshal(raw, &base); err != nil {
		t.Fatal(err)
	}
	for _, r := range manifestRegressions(base.Variants, now) {
		t.Errorf("manifest budget: %s; shorten it, or rewrite the baseline with -update-manifest -reason", r)
	}
	// The targets fail too (docs/adr/030): a core tool that grows the full
	// core or essential past them needs a shorter host description
	// (hostview.go) or a place in a capability group.
	for _, c := range []struct {
		variant string
		got     int
		target  int
		measure string
	}{
		{"full", now["full"].Chars4, targetFullChars4, "chars/4"},
		{"full", now["full"].BPE, targetFullBPE, "BPE"},
		{"essential", now["essential"].Chars4, targetEssentialChars4, "chars/4"},
	} {
		if c.got > c.target {
			t.Errorf("manifest target: %s is %d %s, target %d (issue 15); shorten its host descriptions (hostview.go)", c.variant, c.got, c.measure, c.target)
		}
	}
}

// TestManifestGateFailsOnInflatedDescription: a description grown by a
// paragraph makes the gate fail for every variant that lists the tool.
func TestManifestGateFailsOnInflatedDescription(t *testing.T) {
	list := hostTools(t, Config{ToolProfile: "essential"})
	before := measureTools(t, list)
	for _, tl := range list {
		if tl.Name == "electron_click" {
			tl.Description += strings.Repeat(" Clicks are verified in the page before they are reported.", 40)
		}
	}
	after := measureTools(t, list)
	base := map[string]manifestSize{"essential": before}
	if got := manifestRegressions(base, map[string]manifestSize{"essential": after}); len(got) != 1 {
		t.Fatalf("an inflated description passed the gate: %v (before %+v, after %+v)", got, before, after)
	}
	if got := manifestRegressions(base, map[string]manifestSize{"essential": before}); len(got) != 0 {
		t.Fatalf("an unchanged manifest failed the gate: %v", got)
	}
}

// BenchmarkManifest reports the host-visible tools/list of each variant
// (go test ./internal/tool -run '^$' -bench BenchmarkManifest).
func BenchmarkManifest(b *testing.B) {
	sizes := measureManifests(b)
	names := make([]string, 0, len(sizes))
	for n := range sizes {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		b.Run(n, func(b *testing.B) {
			m := sizes[n]
			for b.Loop() {
			}
			b.ReportMetric(float64(m.Tools), "tools")
			b.ReportMetric(float64(m.Chars), "chars")
			b.ReportMetric(float64(m.Chars4), "chars/4")
			b.ReportMetric(float64(m.BPE), "bpe")
		})
	}
}
