package toolargs

import (
	"reflect"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Did you mean (issue 26 point 2, issue 30 point 6): a call that names a
// parameter the tool does not have is refused with BAD_ARGUMENT naming it,
// and with the tool's parameter it most likely meant, so the agent's next
// call is right. Agents mostly miss on spelling conventions (surface_id
// for surfaceId, targetID for targetId), on units (timeout for
// timeoutMs) and on typos, so names are compared case- and
// separator-insensitively, then by edit distance.

// key is a parameter name as the matcher compares it: lower case,
// without separators ("surface_id", "surfaceId" and "Surface-ID" are one
// key).
func key(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch r {
		case '_', '-', ' ', '.':
			continue
		}
		b.WriteRune(unicode.ToLower(r))
	}
	return b.String()
}

// editDistance is the Levenshtein distance between a and b, in runes.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}

// typoLimit is the largest edit distance still taken for a typo of a name
// whose key has n runes: a short name allows less, and one of one or two
// runes none (any letter is one edit from "x").
func typoLimit(n int) int {
	switch {
	case n <= 2:
		return 0
	case n <= 4:
		return 1
	case n <= 8:
		return 2
	}
	return 3
}

// contains says whether one key holds the other: a part of at least three
// runes anywhere ("timeout" in "timeoutms"), or of two at the end ("id" in
// "targetid", "ms" in "delayms"), where a camelCase name keeps its unit or
// kind.
func contains(a, b string) bool {
	long, short := a, b
	if utf8.RuneCountInString(long) < utf8.RuneCountInString(short) {
		long, short = short, long
	}
	switch n := utf8.RuneCountInString(short); {
	case n >= 3:
		return strings.Contains(long, short)
	case n == 2:
		return strings.HasSuffix(long, short)
	}
	return false
}

// Closest returns the candidate an unknown parameter name most likely
// meant, and false when none is close. A candidate may be a path
// ("clip.width", a field of an object parameter); it is compared by its
// last segment and, on a tie, loses to a top-level name. A candidate is
// close when its key equals the unknown's, is within typoLimit edits of
// it, or one key contains the other (timeout and timeoutMs, id and
// targetId). The closest is the one with the
// fewest edits; ties go to the top-level name, then to the fewest edits
// of the names as written, then to the first in sort order, so the answer
// never depends on the order of the candidates.
func Closest(unknown string, candidates []string) (string, bool) {
	ku := key(unknown)
	if ku == "" {
		return "", false
	}
	type scored struct {
		name          string
		edits, nested int
		raw           int
	}
	var best *scored
	for _, c := range candidates {
		last := c
		nested := 0
		if i := strings.LastIndexByte(c, '.'); i >= 0 {
			last, nested = c[i+1:], 1
		}
		kc := key(last)
		if kc == "" || c == unknown {
			continue
		}
		d := editDistance(ku, kc)
		if d > typoLimit(utf8.RuneCountInString(ku)) && !contains(ku, kc) {
			continue
		}
		s := scored{c, d, nested, editDistance(unknown, last)}
		if best == nil || s.edits < best.edits ||
			s.edits == best.edits && (s.nested < best.nested ||
				s.nested == best.nested && (s.raw < best.raw || s.raw == best.raw && s.name < best.name)) {
			best = &s
		}
	}
	if best == nil {
		return "", false
	}
	return best.name, true
}

// Names lists the JSON names a tool's arguments type decodes: its own
// parameters (embedded structs flattened, as encoding/json does), then the
// fields of its object parameters as paths ("clip.width"), sorted.
func Names(t reflect.Type) []string {
	seen := map[string]bool{}
	var top, nested []string
	var walk func(t reflect.Type, prefix string, depth int)
	walk = func(t reflect.Type, prefix string, depth int) {
		for t != nil && (t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Array) {
			t = t.Elem()
		}
		if t == nil || t.Kind() != reflect.Struct || depth > 3 {
			return
		}
		for i := range t.NumField() {
			f := t.Field(i)
			tag := f.Tag.Get("json")
			if tag == "-" {
				continue
			}
			name, _, _ := strings.Cut(tag, ",")
			if f.Anonymous && name == "" {
				walk(f.Type, prefix, depth)
				continue
			}
			if !f.IsExported() {
				continue
			}
			if name == "" {
				name = f.Name
			}
			path := prefix + name
			if seen[path] {
				continue
			}
			seen[path] = true
			if prefix == "" {
				top = append(top, path)
			} else {
				nested = append(nested, path)
			}
			walk(f.Type, path+".", depth+1)
		}
	}
	walk(t, "", 0)
	sort.Strings(top)
	sort.Strings(nested)
	return append(top, nested...)
}
