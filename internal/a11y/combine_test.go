package a11y

import "testing"

func TestCombinedMergesByRuleWithinBounds(t *testing.T) {
	c := NewCombined(Options{MaxViolations: 2, MaxNodes: 2})
	c.Add(&Result{Violations: []Finding{{Rule: "label", Impact: "minor", NodeCount: 1, Nodes: []Node{{}}}},
		Counts: Counts{Violations: 1, Minor: 1}})
	c.Add(&Result{Violations: []Finding{
		{Rule: "label", Impact: "critical", NodeCount: 2, Nodes: []Node{{}, {}}},
		{Rule: "image-alt", Impact: "serious", NodeCount: 1},
		{Rule: "region", Impact: "moderate", NodeCount: 1},
	}, Counts: Counts{Violations: 3, Critical: 1}})
	if len(c.Violations) != 2 || c.Violations[0].Rule != "label" || c.Violations[1].Rule != "image-alt" {
		t.Fatalf("rules: %+v", c.Violations)
	}
	label := c.Violations[0]
	if label.NodeCount != 3 || len(label.Nodes) != 2 || label.Impact != "critical" {
		t.Fatalf("label merged as %+v", label)
	}
	if !c.Truncated {
		t.Fatal("a third rule and a third node were left out without truncated")
	}
	if c.Summary.Violations != 4 || c.Summary.Minor != 1 || c.Summary.Critical != 1 {
		t.Fatalf("summary %+v", c.Summary)
	}
	if len(c.Incomplete) != 0 || c.Incomplete == nil {
		t.Fatal("incomplete must be an empty list, not null")
	}
}
