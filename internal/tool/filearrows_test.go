package tool

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// fileArrowsInCycles is how many arrows between this package's files may
// sit on a cycle: none. The files form layers, each using only files below
// it (ADR-044, issue #26).
const fileArrowsInCycles = 0

// TestFileArrows measures the package's file-to-file arrows (file A uses a
// declaration, method or field written in file B) and how many of them lie
// on a cycle, the arrows that run back up whatever order the files are put
// in. Run it with -v to see the count, the files on cycles and the arrows a
// greedy layering leaves pointing up.
func TestFileArrows(t *testing.T) {
	g := toolFileGraph(t)
	inCycle, cyclic := g.arrowsOnCycles()
	order := g.greedyOrder()
	up := g.arrowsUp(order)
	t.Logf("%d files, %d arrows, %d on cycles (%d files on cycles), %d point up in a greedy layering", len(g.files), g.count(), inCycle, len(cyclic), len(up))
	if testing.Verbose() {
		t.Logf("files on cycles: %v", cyclic)
		for _, f := range cyclic {
			for to := range g.uses[f] {
				if slices.Contains(cyclic, to) {
					t.Logf("cycle edge: %s -> %s %v", f, to, g.why[[2]string{f, to}])
				}
			}
		}
		for _, a := range up {
			t.Logf("up: %s -> %s %v", a[0], a[1], g.why[a])
		}
	}
	if inCycle > fileArrowsInCycles {
		t.Errorf("%d file-to-file arrows in internal/tool lie on a cycle (allowed: %d), among %v: a lower file now uses a higher one; move the shared piece down instead (ADR-044; -v lists the arrows)", inCycle, fileArrowsInCycles, cyclic)
	}
}

type fileGraph struct {
	files []string
	uses  map[string]map[string]bool
	why   map[[2]string][]string
}

func toolFileGraph(t *testing.T) fileGraph {
	t.Helper()
	fset := token.NewFileSet()
	names, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	var parsed []*ast.File
	g := fileGraph{uses: map[string]map[string]bool{}}
	for _, n := range names {
		if strings.HasSuffix(n, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, n, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		parsed = append(parsed, f)
		g.files = append(g.files, n)
		g.uses[n] = map[string]bool{}
	}
	conf := types.Config{Importer: importer.ForCompiler(fset, "source", nil)}
	info := &types.Info{Uses: map[*ast.Ident]types.Object{}, Selections: map[*ast.SelectorExpr]*types.Selection{}}
	pkg, err := conf.Check("github.com/understudy-dev/understudy/internal/tool", fset, parsed, info)
	if err != nil {
		t.Fatalf("type-check: %v", err)
	}
	ownDecl := func(obj types.Object) string {
		if obj == nil || obj.Pkg() != pkg || !obj.Pos().IsValid() {
			return ""
		}
		switch o := obj.(type) {
		case *types.Func:
			if o.Type().(*types.Signature).Recv() == nil && o.Parent() != pkg.Scope() {
				return ""
			}
		case *types.Var:
			if !o.IsField() && o.Parent() != pkg.Scope() {
				return ""
			}
		default:
			if obj.Parent() != pkg.Scope() {
				return ""
			}
		}
		return filepath.Base(fset.Position(obj.Pos()).Filename)
	}
	for id, obj := range info.Uses {
		from := filepath.Base(fset.Position(id.Pos()).Filename)
		if to := ownDecl(obj); to != "" && to != from {
			g.uses[from][to] = true
			if g.why == nil {
				g.why = map[[2]string][]string{}
			}
			k := [2]string{from, to}
			if !slices.Contains(g.why[k], obj.Name()) {
				g.why[k] = append(g.why[k], obj.Name())
			}
		}
	}
	return g
}

func (g fileGraph) count() int {
	n := 0
	for _, to := range g.uses {
		n += len(to)
	}
	return n
}

// arrowsOnCycles counts the arrows whose two ends share a strongly
// connected component (Tarjan), and names the files on cycles.
func (g fileGraph) arrowsOnCycles() (int, []string) {
	index, low := map[string]int{}, map[string]int{}
	onStack := map[string]bool{}
	comp := map[string]int{}
	var stack []string
	next, ncomp := 0, 0
	var visit func(v string)
	visit = func(v string) {
		index[v], low[v] = next, next
		next++
		stack = append(stack, v)
		onStack[v] = true
		for w := range g.uses[v] {
			if _, seen := index[w]; !seen {
				visit(w)
				low[v] = min(low[v], low[w])
			} else if onStack[w] {
				low[v] = min(low[v], index[w])
			}
		}
		if low[v] == index[v] {
			for {
				w := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				onStack[w] = false
				comp[w] = ncomp
				if w == v {
					break
				}
			}
			ncomp++
		}
	}
	for _, f := range g.files {
		if _, seen := index[f]; !seen {
			visit(f)
		}
	}
	size := map[int]int{}
	for _, c := range comp {
		size[c]++
	}
	n := 0
	var cyclic []string
	for _, f := range g.files {
		if size[comp[f]] > 1 {
			cyclic = append(cyclic, f)
		}
		for to := range g.uses[f] {
			if comp[to] == comp[f] {
				n++
			}
		}
	}
	return n, cyclic
}

// greedyOrder lays the files out bottom first (Eades–Lin–Smyth): files that
// use nothing left go down, files nothing left uses go up, and otherwise the
// file with the most users over uses goes down next.
func (g fileGraph) greedyOrder() []string {
	left := map[string]bool{}
	for _, f := range g.files {
		left[f] = true
	}
	in := func(f string) (ins, outs int) {
		for to := range g.uses[f] {
			if left[to] {
				outs++
			}
		}
		for _, from := range g.files {
			if left[from] && g.uses[from][f] {
				ins++
			}
		}
		return
	}
	var bottom, top []string
	for len(left) > 0 {
		changed := true
		for changed {
			changed = false
			for _, f := range g.files {
				if !left[f] {
					continue
				}
				ins, outs := in(f)
				if outs == 0 {
					bottom = append(bottom, f)
					delete(left, f)
					changed = true
				} else if ins == 0 {
					top = append(top, f)
					delete(left, f)
					changed = true
				}
			}
		}
		best, bestScore := "", -1<<30
		for _, f := range g.files {
			if !left[f] {
				continue
			}
			ins, outs := in(f)
			if ins-outs > bestScore {
				best, bestScore = f, ins-outs
			}
		}
		if best != "" {
			bottom = append(bottom, best)
			delete(left, best)
		}
	}
	slices.Reverse(top)
	return append(bottom, top...)
}

// arrowsUp lists the arrows from a file to one placed above it in order.
func (g fileGraph) arrowsUp(order []string) [][2]string {
	pos := map[string]int{}
	for i, f := range order {
		pos[f] = i
	}
	var up [][2]string
	for _, f := range order {
		for to := range g.uses[f] {
			if pos[to] > pos[f] {
				up = append(up, [2]string{f, to})
			}
		}
	}
	slices.SortFunc(up, func(a, b [2]string) int { return strings.Compare(a[0]+a[1], b[0]+b[1]) })
	return up
}
