package tool

import (
	"context"
	"encoding/json"
	"testing"
)

// TestStatusCountsOfferedTools (issue 29): electron_status's tools is the
// number of tools the caller's profile and groups offer (what tools/list
// carries), not every tool the binary has.
func TestStatusCountsOfferedTools(t *testing.T) {
	counts := map[string]int{}
	for _, c := range []struct {
		name string
		cfg  Config
	}{
		{"essential", Config{ToolProfile: "essential"}},
		{"full", Config{ToolProfile: "full"}},
		{"full-eval", Config{ToolProfile: "full", AllowEvalMain: true, AllowEvalRenderer: true}},
		{"all", Config{ToolProfile: "full", With: []string{"all"}}},
	} {
		s := New(c.cfg)
		res := s.Dispatch(context.Background(), "electron_status", json.RawMessage(`{}`), nil)
		var st struct {
			Tools int `json:"tools"`
		}
		if err := json.Unmarshal(res.JSON, &st); err != nil || res.IsError {
			t.Fatalf("%s: %v %s", c.name, err, res.JSON)
		}
		if want := len(s.Offered()); st.Tools != want || want == 0 {
			t.Errorf("%s: electron_status says %d tools, tools/list has %d", c.name, st.Tools, want)
		}
		counts[c.name] = st.Tools
		s.Close()
	}
	if !(counts["essential"] < counts["full"] && counts["full"] < counts["full-eval"] && counts["full"] < counts["all"]) {
		t.Errorf("counts do not follow the profiles: %v", counts)
	}
}
