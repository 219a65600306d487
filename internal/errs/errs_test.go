package errs

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

func TestEveryCodeHasAHint(t *testing.T) {
	for _, c := range Codes() {
		e, _ := Lookup(c)
		if e.Hint == "" || e.HTTP < 400 || e.Code != c {
			t.Errorf("%s: bad entry %+v", c, e)
		}
	}
}

func TestIsAndAs(t *testing.T) {
	err := fmt.Errorf("outer: %w", New(SurfaceClosed, "gone"))
	if !errors.Is(err, Kind(SurfaceClosed)) {
		t.Fatal("errors.Is by kind failed")
	}
	if errors.Is(err, Kind(SurfaceNotFound)) {
		t.Fatal("errors.Is matched another code")
	}
	if CodeOf(err) != SurfaceClosed || CodeOf(errors.New("x")) != Internal {
		t.Fatal("CodeOf")
	}
}

func TestNewPanicsOnUnknownCode(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Fatal("no panic")
		}
	}()
	New(Code("NOPE"), "x")
}

// TestNoUnregisteredCodes scans the module's Go files for code-like string
// literals used as error codes and fails on any that the registry lacks.
func TestNoUnregisteredCodes(t *testing.T) {
	root := filepath.Join("..", "..")
	// The patterns must see a use, or this test could never fail.
	for _, src := range []string{`fail('NOPE_X', 'm')`, `{"code": "NOPE_X"}`, `errs.Code("NOPE_X")`, `code: 'NOPE_X'`} {
		if got := codeUses(src); len(got) != 1 || got[0] != "NOPE_X" {
			t.Fatalf("the scanner misses %s: %v", src, got)
		}
	}
	n := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "node_modules" || d.Name() == ".git" || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if d.IsDir() || !(strings.HasSuffix(path, ".go") || strings.HasSuffix(path, ".js")) || strings.HasSuffix(path, "errs_test.go") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, c := range codeUses(string(b)) {
			n++
			if _, ok := Lookup(Code(c)); !ok {
				t.Errorf("%s uses unregistered code %q", path, c)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("checked %d code uses", n)
}

// codeUses finds error codes used in Go or JS source: errs.Code("X")
// conversions, "code":"X" fields and the walker's fail('X', …).
func codeUses(src string) []string {
	pats := []*regexp.Regexp{
		regexp.MustCompile(`errs\.Code\("([A-Z_]+)"\)`),
		regexp.MustCompile(`"code"\s*:\s*"([A-Z][A-Z_]+)"`),
		regexp.MustCompile(`code:\s*'([A-Z][A-Z_]+)'`),
		regexp.MustCompile(`\bcode:\s*"([A-Z][A-Z_]+)"`),
		regexp.MustCompile(`\bfail\(\s*'([A-Z][A-Z_]+)'`),
	}
	var out []string
	for _, p := range pats {
		for _, m := range p.FindAllStringSubmatch(src, -1) {
			out = append(out, m[1])
		}
	}
	return out
}

// TestFromContext: the one conversion of an ended context keeps the cause
// in the chain and always carries a code.
func TestFromContext(t *testing.T) {
	if err := FromContext(context.Background(), CDPTimeout, "x"); err != nil {
		t.Fatalf("live context: %v", err)
	}
	dl, cancel := context.WithTimeout(context.Background(), 0)
	defer cancel()
	<-dl.Done()
	err := FromContext(dl, CDPTimeout, "Test.call got no reply")
	if CodeOf(err) != CDPTimeout || !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "Test.call got no reply") {
		t.Errorf("deadline: %v", err)
	}
	if CodeOf(FromContext(dl, WaitTimeout, "w")) != WaitTimeout {
		t.Error("deadline code is the caller's")
	}
	cc, cancel2 := context.WithCancel(context.Background())
	cancel2()
	err = FromContext(cc, CDPTimeout, "sleeping")
	if CodeOf(err) != OperationTimeout || !errors.Is(err, context.Canceled) {
		t.Errorf("cancel: %v", err)
	}
}

func TestUnknownJSONField(t *testing.T) {
	var v struct{ A int }
	dec := json.NewDecoder(strings.NewReader(`{"A":1,"bogus":2}`))
	dec.DisallowUnknownFields()
	if name, ok := UnknownJSONField(dec.Decode(&v)); !ok || name != "bogus" {
		t.Fatalf("got %q %v from encoding/json's error", name, ok)
	}
	for _, err := range []error{nil, errors.New("json: cannot unmarshal"), errors.New(`unknown field "`)} {
		if name, ok := UnknownJSONField(err); ok {
			t.Fatalf("%v: got %q", err, name)
		}
	}
}

// TestCopyOfLeavesTheOriginal: an amended copy has details of its own; an
// error without a code becomes INTERNAL_ERROR with a details map to fill.
func TestCopyOfLeavesTheOriginal(t *testing.T) {
	e := New(BadArgument, "x").With("field", "a")
	c := CopyOf(e, "ctx")
	c.Details["extra"] = 1
	c.Message = "changed"
	if e.Details["extra"] != nil || e.Message != "x" || c.Code != BadArgument || c.Details["field"] != "a" {
		t.Fatalf("original %+v, copy %+v", e, c)
	}
	w := CopyOf(errors.New("boom"), "ctx")
	w.Details["k"] = 1
	if w.Code != Internal {
		t.Fatalf("uncoded: %+v", w)
	}
}
