package trace

import "sort"

// maxLargest bounds the largest-response list.
const maxLargest = 10

// Tokens summarises where the estimated tokens went.
type Tokens struct {
	Total   int         `json:"total_estimated_tokens"`
	Calls   int         `json:"calls"`
	PerTool []ToolUsage `json:"per_tool"`
	Largest []Largest   `json:"largest"`

	perTool map[string]*ToolUsage
}

// ToolUsage is one tool's share.
type ToolUsage struct {
	Tool   string `json:"tool"`
	Calls  int    `json:"calls"`
	Tokens int    `json:"tokens"`
	Max    int    `json:"max"`
}

// Largest is one of the largest responses.
type Largest struct {
	Seq    int    `json:"seq"`
	Tool   string `json:"tool"`
	Tokens int    `json:"tokens"`
}

func newTokens() Tokens { return Tokens{perTool: map[string]*ToolUsage{}} }

func (t *Tokens) add(seq int, tool string, n int) {
	if t.perTool == nil {
		t.perTool = map[string]*ToolUsage{}
	}
	t.Total += n
	t.Calls++
	u := t.perTool[tool]
	if u == nil {
		u = &ToolUsage{Tool: tool}
		t.perTool[tool] = u
	}
	u.Calls++
	u.Tokens += n
	u.Max = max(u.Max, n)
	t.Largest = append(t.Largest, Largest{Seq: seq, Tool: tool, Tokens: n})
	sort.SliceStable(t.Largest, func(i, j int) bool { return t.Largest[i].Tokens > t.Largest[j].Tokens })
	if len(t.Largest) > maxLargest {
		t.Largest = t.Largest[:maxLargest]
	}
}

// clone returns a copy with PerTool filled, heaviest first.
func (t *Tokens) clone() Tokens {
	out := Tokens{Total: t.Total, Calls: t.Calls, Largest: append([]Largest{}, t.Largest...), PerTool: []ToolUsage{}}
	for _, u := range t.perTool {
		out.PerTool = append(out.PerTool, *u)
	}
	sort.Slice(out.PerTool, func(i, j int) bool {
		if out.PerTool[i].Tokens != out.PerTool[j].Tokens {
			return out.PerTool[i].Tokens > out.PerTool[j].Tokens
		}
		return out.PerTool[i].Tool < out.PerTool[j].Tool
	})
	return out
}

// TokenReport summarises a trace read back.
func (t *Trace) TokenReport() Tokens {
	tk := newTokens()
	for _, st := range t.Steps {
		tk.add(st.Seq, st.Tool, st.Tokens)
	}
	return tk.clone()
}

// BudgetStatus is a budget against what was spent.
type BudgetStatus struct {
	BudgetTokens  int     `json:"budget_tokens"`
	Spent         int     `json:"spent"`
	Remaining     int     `json:"remaining"`
	OverBudget    bool    `json:"over_budget"`
	NearBudget    bool    `json:"near_budget"`
	WarnThreshold float64 `json:"warn_threshold"`
	Enforce       bool    `json:"enforce"`
}

func budgetStatus(b *Budget, spent int) *BudgetStatus {
	if b == nil {
		return nil
	}
	s := &BudgetStatus{BudgetTokens: b.Tokens, Spent: spent, Remaining: max(0, b.Tokens-spent),
		OverBudget: spent > b.Tokens, WarnThreshold: b.WarnThreshold, Enforce: b.Enforce}
	s.NearBudget = float64(spent) >= b.WarnThreshold*float64(b.Tokens)
	return s
}

// BudgetStatus reports the trace's budget against what it recorded.
func (t *Trace) BudgetStatus() *BudgetStatus {
	spent := t.Header.Spent
	if !t.Complete {
		spent = t.TokenReport().Total
	}
	return budgetStatus(t.Header.Budget, spent)
}
