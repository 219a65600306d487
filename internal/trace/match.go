package trace

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
)

// Bounds of result checks. Go's regexp is RE2: matching is linear in the
// input, so no pattern backtracks catastrophically; the pattern and the
// input are capped anyway, so that one check stays cheap and a spec cannot
// ask for a huge automaton.
const (
	MaxRegexLen      = 1024     // characters of a regex pattern
	MaxRegexInput    = 64 << 10 // bytes of the string a regex reads
	MaxChecksPerStep = 100
	maxPathLen       = 1000
	maxPathSegs      = 64
	maxShown         = 1024 // bytes of an expected or actual value in a failure report
)

// Check kinds.
const (
	CheckExact  = "exact"
	CheckSubset = "subset"
	CheckRegex  = "regex"
	CheckIgnore = "ignore"
)

// Normalizations a spec can name in normalize: what exact and subset
// checks do not compare inside the values they compare.
var normalizations = map[string]bool{"session_id": true, "timestamps": true, "absolute_paths": true, "refs": true}

// seg is one step of a JSON path: an object key, an array index, or
// (ignore checks only) "*", any key or index.
type seg struct {
	key   string
	index int
	isIdx bool
	wild  bool
}

// Check is a reviewer's result matcher on one JSON path of a step's result
// envelope (the object the agent saw: ok, the tool's fields, _meta):
//
//	{"path": "$.text", "exact": "Ordered 3 x l"}
//	{"path": "$", "subset": {"ok": true, "count": 2}, "tolerance": 0.5}
//	{"path": "$.text", "regex": "^Ordered [0-9]+ x [sl]"}
//	{"path": "$.matches[*].ref", "ignore": true}
type Check struct {
	Kind      string
	Path      string
	Expected  any     // exact, subset: the value
	Tolerance float64 // exact, subset: numbers within this are equal
	re        *regexp.Regexp
	segs      []seg
}

// CheckError is a malformed check: At is the JSON path of the problem in
// the spec (steps[3].expect.result[0].regex).
type CheckError struct {
	At  string
	Msg string
}

func (e *CheckError) Error() string { return e.At + ": " + e.Msg }

func checkErr(at, format string, args ...any) *CheckError {
	return &CheckError{At: at, Msg: fmt.Sprintf(format, args...)}
}

// ParseCheck reads one check; at is where it stands in the spec.
func ParseCheck(raw json.RawMessage, at string) (*Check, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil || m == nil {
		return nil, checkErr(at, "a check is an object {path, and one of exact, subset, regex, ignore}")
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	c := &Check{}
	for _, k := range keys {
		switch k {
		case "path", "tolerance":
		case CheckExact, CheckSubset, CheckRegex, CheckIgnore:
			if c.Kind != "" {
				return nil, checkErr(at, "has both %s and %s: a check has exactly one of exact, subset, regex, ignore", c.Kind, k)
			}
			c.Kind = k
		default:
			return nil, checkErr(at+"."+k, "is not a field of a check (path, exact, subset, regex, ignore, tolerance)")
		}
	}
	if c.Kind == "" {
		return nil, checkErr(at, "has none of exact, subset, regex, ignore")
	}
	p, ok := m["path"]
	if !ok || json.Unmarshal(p, &c.Path) != nil {
		return nil, checkErr(at+".path", "is required: a JSON path of the result such as $.text or $.matches[0].name")
	}
	segs, err := parsePath(c.Path)
	if err != nil {
		return nil, checkErr(at+".path", "%v", err)
	}
	c.segs = segs
	if c.Kind != CheckIgnore {
		for _, s := range segs {
			if s.wild {
				return nil, checkErr(at+".path", "* stands only in the path of an ignore check")
			}
		}
	}
	v := m[c.Kind]
	switch c.Kind {
	case CheckExact, CheckSubset:
		if err := json.Unmarshal(v, &c.Expected); err != nil {
			return nil, checkErr(at+"."+c.Kind, "is not JSON: %v", err)
		}
	case CheckRegex:
		var pat string
		if json.Unmarshal(v, &pat) != nil {
			return nil, checkErr(at+".regex", "is a string: an RE2 pattern (Go regexp syntax)")
		}
		if utf8.RuneCountInString(pat) > MaxRegexLen {
			return nil, checkErr(at+".regex", "is over %d characters", MaxRegexLen)
		}
		re, err := regexp.Compile(pat)
		if err != nil {
			return nil, checkErr(at+".regex", "is not an RE2 pattern: %v", err)
		}
		c.re = re
	case CheckIgnore:
		var b bool
		if json.Unmarshal(v, &b) != nil || !b {
			return nil, checkErr(at+".ignore", "is true (leave the check out to compare the path)")
		}
	}
	if t, ok := m["tolerance"]; ok {
		if c.Kind != CheckExact && c.Kind != CheckSubset {
			return nil, checkErr(at+".tolerance", "goes with exact or subset only")
		}
		if json.Unmarshal(t, &c.Tolerance) != nil || c.Tolerance < 0 || math.IsInf(c.Tolerance, 0) || math.IsNaN(c.Tolerance) {
			return nil, checkErr(at+".tolerance", "is a number, 0 or more")
		}
	}
	return c, nil
}

// parsePath reads $.a.b[2]["c.d"] (the $ and the first dot may be left
// out: text, matches[0].name).
func parsePath(p string) ([]seg, error) {
	if len(p) > maxPathLen {
		return nil, fmt.Errorf("is over %d characters", maxPathLen)
	}
	s := p
	switch {
	case strings.HasPrefix(s, "$"):
		s = s[1:]
	case s == "":
		return nil, fmt.Errorf("is empty: $ is the whole result")
	case s[0] != '.' && s[0] != '[':
		s = "." + s
	}
	var out []seg
	for s != "" {
		if len(out) == maxPathSegs {
			return nil, fmt.Errorf("has over %d steps", maxPathSegs)
		}
		switch s[0] {
		case '.':
			s = s[1:]
			n := strings.IndexAny(s, ".[")
			if n < 0 {
				n = len(s)
			}
			if n == 0 {
				return nil, fmt.Errorf("%q has an empty name (quote odd names: [\"a.b\"])", p)
			}
			out = append(out, seg{key: s[:n], wild: s[:n] == "*"})
			s = s[n:]
		case '[':
			if strings.HasPrefix(s, `["`) {
				dec := json.NewDecoder(strings.NewReader(s[1:]))
				var k string
				if err := dec.Decode(&k); err != nil {
					return nil, fmt.Errorf("%q: a quoted name is a JSON string", p)
				}
				rest := s[1+int(dec.InputOffset()):]
				if !strings.HasPrefix(rest, "]") {
					return nil, fmt.Errorf("%q: a quoted name ends with \"]", p)
				}
				out = append(out, seg{key: k})
				s = rest[1:]
				continue
			}
			end := strings.IndexByte(s, ']')
			if end < 0 {
				return nil, fmt.Errorf("%q: [ without ]", p)
			}
			in := s[1:end]
			s = s[end+1:]
			if in == "*" {
				out = append(out, seg{wild: true})
				continue
			}
			n, err := strconv.Atoi(in)
			if err != nil || n < 0 || strings.HasPrefix(in, "+") {
				return nil, fmt.Errorf("%q: [%s] is not an index (0, 1, ...) or a quoted name", p, in)
			}
			out = append(out, seg{index: n, isIdx: true})
		default:
			return nil, fmt.Errorf("%q: expected . or [ before %q", p, s)
		}
	}
	return out, nil
}

var plainKey = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z_$][A-Za-z0-9_$-]*$`) }) // compiled on first use, not at start

func pathString(segs []seg) string {
	var b strings.Builder
	b.WriteByte('$')
	for _, s := range segs {
		switch {
		case s.isIdx:
			b.WriteString("[" + strconv.Itoa(s.index) + "]")
		case s.wild:
			b.WriteString("[*]")
		case plainKey().MatchString(s.key):
			b.WriteString("." + s.key)
		default:
			q, _ := json.Marshal(s.key)
			b.WriteString("[" + string(q) + "]")
		}
	}
	return b.String()
}

// CheckFailure is the first check a replayed result did not pass.
type CheckFailure struct {
	Check    int    `json:"check"` // its index in the step's expect.result
	Kind     string `json:"kind"`
	Path     string `json:"path"`     // where it failed (at or under the check's path)
	Expected string `json:"expected"` // JSON, secrets redacted, bounded
	Actual   string `json:"actual"`   // JSON, secrets redacted, bounded; "(missing)" when absent
	Why      string `json:"why"`
}

// Missing stands for a value that is not in the result.
const Missing = "(missing)"

// Apply runs the checks on a result envelope and returns the first that
// fails (nil when all pass). normalize names what exact and subset do not
// compare inside their values (session_id, timestamps, absolute_paths,
// refs); ignore checks name paths they do not compare.
func Apply(checks []*Check, normalize []string, result json.RawMessage) *CheckFailure {
	if len(checks) == 0 {
		return nil
	}
	var root any
	dec := json.NewDecoder(bytes.NewReader(result))
	if err := dec.Decode(&root); err != nil {
		return &CheckFailure{Kind: "result", Path: "$", Expected: "a JSON result", Actual: Missing, Why: "the result is not JSON"}
	}
	m := &matcher{norm: normalize}
	for _, c := range checks {
		if c.Kind == CheckIgnore {
			m.ignore = append(m.ignore, c.segs)
		}
	}
	for i, c := range checks {
		if c.Kind == CheckIgnore {
			continue
		}
		f := m.apply(c, root)
		if f != nil {
			f.Check, f.Kind = i, c.Kind
			return f
		}
	}
	return nil
}

type matcher struct {
	norm   []string
	ignore [][]seg
}

func (m *matcher) normalized(what string) bool {
	for _, n := range m.norm {
		if n == what {
			return true
		}
	}
	return false
}

// skipKey says whether an object key is left out of a structural
// comparison by the spec's normalize list.
func (m *matcher) skipKey(k string) bool {
	switch {
	case (k == "session_id" || k == "sessionId") && m.normalized("session_id"):
		return true
	case (k == "ref" || k == "targetRef") && m.normalized("refs"):
		return true
	case (k == "timestamp" || k == "time" || k == "ts" || strings.HasSuffix(k, "_at")) && m.normalized("timestamps"):
		return true
	}
	return false
}

func (m *matcher) ignored(path []seg) bool {
	for _, ig := range m.ignore {
		if len(ig) != len(path) {
			continue
		}
		same := true
		for i, s := range ig {
			p := path[i]
			if !(s.wild || s.isIdx == p.isIdx && s.index == p.index && s.key == p.key) {
				same = false
				break
			}
		}
		if same {
			return true
		}
	}
	return false
}

func (m *matcher) apply(c *Check, root any) *CheckFailure {
	v, ok, at := lookup(root, c.segs)
	if !ok {
		exp := c.Expected
		if c.Kind == CheckRegex {
			exp = c.re.String()
		}
		return &CheckFailure{Path: pathString(at), Expected: show(c.segs, exp), Actual: Missing, Why: "the result has no " + pathString(at)}
	}
	switch c.Kind {
	case CheckRegex:
		s, isStr := v.(string)
		switch {
		case !isStr:
			return &CheckFailure{Path: pathString(c.segs), Expected: show(c.segs, c.re.String()), Actual: show(c.segs, v), Why: "a regex check reads a string; the value is a JSON " + kind(v)}
		case len(s) > MaxRegexInput:
			return &CheckFailure{Path: pathString(c.segs), Expected: show(c.segs, c.re.String()), Actual: show(c.segs, v), Why: fmt.Sprintf("the string is %d bytes; a regex check reads at most %d", len(s), MaxRegexInput)}
		case !c.re.MatchString(s):
			return &CheckFailure{Path: pathString(c.segs), Expected: show(c.segs, c.re.String()), Actual: show(c.segs, v), Why: "the string does not match the pattern"}
		}
		return nil
	default:
		return m.compare(c.Expected, v, c.segs, c.Kind == CheckSubset, c.Tolerance)
	}
}

// lookup follows segs from root; at is the path up to where it stopped.
func lookup(root any, segs []seg) (any, bool, []seg) {
	cur := root
	for i, s := range segs {
		switch x := cur.(type) {
		case map[string]any:
			if s.isIdx {
				return nil, false, segs[:i+1]
			}
			v, ok := x[s.key]
			if !ok {
				return nil, false, segs[:i+1]
			}
			cur = v
		case []any:
			if !s.isIdx || s.index >= len(x) {
				return nil, false, segs[:i+1]
			}
			cur = x[s.index]
		default:
			return nil, false, segs[:i+1]
		}
	}
	return cur, true, segs
}

// compare matches want against got at path: exactly, or (subset) every
// field of an object and every item of an array that want names, the
// items index by index.
func (m *matcher) compare(want, got any, path []seg, subset bool, tol float64) *CheckFailure {
	fail := func(why string) *CheckFailure {
		return &CheckFailure{Path: pathString(path), Expected: show(path, want), Actual: show(path, got), Why: why}
	}
	switch w := want.(type) {
	case nil:
		if got != nil {
			return fail("expected null")
		}
	case bool:
		if g, ok := got.(bool); !ok || g != w {
			return fail("the values differ")
		}
	case float64:
		g, ok := got.(float64)
		if !ok {
			return fail("expected a number, got a JSON " + kind(got))
		}
		if math.Abs(g-w) > tol {
			if tol > 0 {
				return fail(fmt.Sprintf("the numbers differ by more than %g", tol))
			}
			return fail("the numbers differ")
		}
	case string:
		g, ok := got.(string)
		if !ok {
			return fail("expected a string, got a JSON " + kind(got))
		}
		if g != w && !(m.normalized("absolute_paths") && filepath.IsAbs(g) && filepath.IsAbs(w) && filepath.Base(g) == filepath.Base(w)) {
			return fail("the strings differ")
		}
	case []any:
		g, ok := got.([]any)
		if !ok {
			return fail("expected an array, got a JSON " + kind(got))
		}
		switch {
		case !subset && len(g) != len(w):
			return fail(fmt.Sprintf("expected %d items, got %d", len(w), len(g)))
		case subset && len(g) < len(w):
			return fail(fmt.Sprintf("expected at least %d items, got %d", len(w), len(g)))
		}
		for i := range w {
			p := child(path, seg{index: i, isIdx: true})
			if m.ignored(p) {
				continue
			}
			if f := m.compare(w[i], g[i], p, subset, tol); f != nil {
				return f
			}
		}
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			return fail("expected an object, got a JSON " + kind(got))
		}
		for _, k := range slices.Sorted(maps.Keys(w)) {
			p := child(path, seg{key: k})
			if m.ignored(p) || m.skipKey(k) {
				continue
			}
			gv, ok := g[k]
			if !ok {
				return &CheckFailure{Path: pathString(p), Expected: show(p, w[k]), Actual: Missing, Why: "the field is missing"}
			}
			if f := m.compare(w[k], gv, p, subset, tol); f != nil {
				return f
			}
		}
		if !subset {
			for _, k := range slices.Sorted(maps.Keys(g)) {
				p := child(path, seg{key: k})
				if _, ok := w[k]; ok || m.ignored(p) || m.skipKey(k) {
					continue
				}
				return &CheckFailure{Path: pathString(p), Expected: Missing, Actual: show(p, g[k]), Why: "a field the exact check does not name (use subset, or ignore it)"}
			}
		}
	}
	return nil
}

// child is path and one more step, in a slice of its own.
func child(path []seg, s seg) []seg {
	return append(path[:len(path):len(path)], s)
}

func kind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case float64:
		return "number"
	case string:
		return "string"
	case []any:
		return "array"
	default:
		return "object"
	}
}

// show is a value as bounded JSON for a failure report, with secrets
// redacted as in the trace: the whole value when a key on its path names
// a secret, else its secret fields.
func show(path []seg, v any) string {
	for _, s := range path {
		if !s.isIdx && !s.wild && IsSecretKey(s.key) {
			return `"` + Redacted + `"`
		}
	}
	b, err := json.Marshal(v)
	if err != nil {
		return `"(not JSON)"`
	}
	b = Redact(b)
	if len(b) > maxShown {
		cut := maxShown
		for cut > 0 && !utf8.RuneStart(b[cut]) {
			cut--
		}
		return string(b[:cut]) + "…(truncated)"
	}
	return string(b)
}
