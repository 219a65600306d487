package a11y

// Combined is the audit of several surfaces (a window and the frames and
// webviews in it), their results added one after another: findings merged
// by rule within the bounds of Options, counts summed.
type Combined struct {
	Violations []Finding
	Incomplete []Finding
	Summary    Counts
	Truncated  bool

	max, maxNodes int
}

// NewCombined starts a combined audit bounded by o's MaxViolations and
// MaxNodes (their defaults when 0).
func NewCombined(o Options) *Combined {
	c := &Combined{Violations: []Finding{}, Incomplete: []Finding{}, max: o.MaxViolations, maxNodes: o.MaxNodes}
	if c.max == 0 {
		c.max = DefaultMaxViolations
	}
	if c.maxNodes == 0 {
		c.maxNodes = DefaultMaxNodes
	}
	return c
}

// Add merges one surface's result.
func (c *Combined) Add(r *Result) {
	c.Violations = c.merge(c.Violations, r.Violations)
	c.Incomplete = c.merge(c.Incomplete, r.Incomplete)
	c.Summary.add(r.Counts)
	c.Truncated = c.Truncated || r.Truncated
}

// merge adds one surface's findings to those of the surfaces before: a
// rule already there gains the nodes (up to maxNodes) and their count; a
// new rule is added while there are fewer than max.
func (c *Combined) merge(all, more []Finding) []Finding {
	for _, f := range more {
		i := -1
		for k := range all {
			if all[k].Rule == f.Rule {
				i = k
				break
			}
		}
		if i < 0 {
			if len(all) >= c.max {
				c.Truncated = true
				continue
			}
			all = append(all, f)
			continue
		}
		g := &all[i]
		g.NodeCount += f.NodeCount
		if impactWorse(f.Impact, g.Impact) {
			g.Impact = f.Impact
		}
		for _, n := range f.Nodes {
			if len(g.Nodes) >= c.maxNodes {
				c.Truncated = true
				break
			}
			g.Nodes = append(g.Nodes, n)
		}
	}
	return all
}

func impactWorse(a, b string) bool {
	rank := map[string]int{"minor": 1, "moderate": 2, "serious": 3, "critical": 4}
	return rank[a] > rank[b]
}

func (t *Counts) add(c Counts) {
	t.Violations += c.Violations
	t.ViolationNodes += c.ViolationNodes
	t.Incomplete += c.Incomplete
	t.IncompleteNodes += c.IncompleteNodes
	t.Passes += c.Passes
	t.Inapplicable += c.Inapplicable
	t.Critical += c.Critical
	t.Serious += c.Serious
	t.Moderate += c.Moderate
	t.Minor += c.Minor
	t.FilteredOut += c.FilteredOut
}
