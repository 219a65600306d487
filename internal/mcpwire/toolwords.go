package mcpwire

import (
	"regexp"
	"strings"
	"sync"
)

// toolWord finds the words of a description that may be tool names.
var toolWord = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\b[a-z0-9]+(?:_[a-z0-9]+)+\b`) })

// WithoutPointersTo drops, from every sentence after the first, the
// clauses ("; ") that name a tool that is off, and a sentence left with
// none.
func WithoutPointersTo(desc string, off func(string) bool) string {
	names := func(s string) bool { return NamesNotOffered(s, off) }
	sentences := strings.SplitAfter(desc, ". ")
	out := sentences[:1]
	changed := false
	for _, s := range sentences[1:] {
		if !names(s) {
			out = append(out, s)
			continue
		}
		changed = true
		body := strings.TrimSpace(s)
		end := ""
		if strings.HasSuffix(body, ".") {
			body, end = strings.TrimSuffix(body, "."), "."
		}
		var kept []string
		for _, c := range strings.Split(body, "; ") {
			if !names(c) {
				kept = append(kept, c)
			}
		}
		if len(kept) == 0 {
			continue
		}
		r := strings.Join(kept, "; ")
		out = append(out, strings.ToUpper(r[:1])+r[1:]+end+" ")
	}
	if !changed {
		return desc
	}
	return strings.TrimSpace(strings.Join(out, ""))
}

// NamesNotOffered says whether text (a next action: a tool name, or a
// sentence that starts with one) names a tool that off says is not
// offered.
func NamesNotOffered(text string, off func(string) bool) bool {
	for _, w := range ToolWords(text) {
		if off(w) {
			return true
		}
	}
	return false
}

// ToolWords lists the words of text that may be tool names (snake_case
// words).
func ToolWords(text string) []string { return toolWord().FindAllString(text, -1) }
