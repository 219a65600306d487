package tool

import (
	"context"
	"encoding/json"
	"maps"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/understudy-dev/understudy/internal/cdp"
	"github.com/understudy-dev/understudy/internal/fixture"
	"github.com/understudy-dev/understudy/internal/fixture/chromiumtest"
)

// TestClickRefWalk follows electron_click's ref from the dispatcher to the
// protocol (issue #26): its arguments are decoded once, and every message
// the call sends leaves from a stack that crosses at most three of our
// packages above the socket (cdp), each entered once, never climbing back
// to one it left: the dispatcher's tool, act (where the pointer goes and
// whether the press got there) and page or input, as issue 26 counts the
// walk "from the MCP call to CDP" (ADR-046).
func TestClickRefWalk(t *testing.T) {
	chrome := chromiumtest.Require(t)
	app, err := fixture.Serve(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = app.Close() })
	s := New(Config{})
	t.Cleanup(s.Close)
	call := func(ctx context.Context, name string, args any) map[string]any {
		t.Helper()
		raw, _ := json.Marshal(args)
		res := s.Dispatch(ctx, name, raw, nil)
		var m map[string]any
		_ = json.Unmarshal(res.JSON, &m)
		if res.IsError {
			t.Fatalf("%s: %s", name, res.JSON)
		}
		return m
	}
	call(context.Background(), "electron_launch", map[string]any{"executablePath": chrome, "args": []string{
		"--host-resolver-rules=" + fixture.HostResolverRules(), app.URL("a.test", "/large.html")}})
	items := call(context.Background(), "electron_elements_list", map[string]any{"selector": "#edit-250"})["items"].([]any)
	ref := num(items[0].(map[string]any)["ref"])

	d := s.tools().defs["electron_click"]
	decode := d.decode
	decodes := 0
	d.decode = func(raw json.RawMessage) (any, error) { decodes++; return decode(raw) }
	t.Cleanup(func() { d.decode = decode })

	var mu sync.Mutex
	walks := map[string]bool{} // "method: the packages its stack crossed"
	ctx := cdp.WithSendObserver(context.Background(), func(method string) {
		walk := packagesOnStack()
		mu.Lock()
		defer mu.Unlock()
		walks[method+": "+strings.Join(walk, " → ")] = true
	})
	if got := call(ctx, "electron_click", map[string]any{"ref": ref}); got["verified"] != true {
		t.Fatalf("the click was not verified: %v", got)
	}
	if decodes != 1 {
		t.Errorf("electron_click's arguments were decoded %d times; want once", decodes)
	}
	if len(walks) == 0 {
		t.Fatal("the click sent nothing the observer saw")
	}
	resolved := false
	for _, w := range slices.Sorted(maps.Keys(walks)) {
		resolved = resolved || strings.HasSuffix(w, " → page → cdp")
		method, walk, _ := strings.Cut(w, ": ")
		pkgs := strings.Split(walk, " → ")
		if pkgs[len(pkgs)-1] != "cdp" {
			t.Errorf("%s left from %s: not through cdp, the one socket", method, walk)
		}
		t.Log(w)
		distinct := slices.Compact(slices.Sorted(slices.Values(pkgs)))
		if len(distinct) != len(pkgs) {
			t.Errorf("%s left from %s: a package is entered twice (a climb back)", method, walk)
		}
		if above := len(pkgs) - 1; above > 3 {
			t.Errorf("%s left from %s: %d packages above cdp, want ≤ 3", method, walk, above)
		}
	}
	if !resolved {
		t.Error("no message went from page to cdp: the ref was not resolved where the test looks for it")
	}
}

// packagesOnStack lists our packages on the calling goroutine's stack,
// outermost first, each run of frames of one package once; the test's own
// frames and the observer are left out.
func packagesOnStack() []string {
	pcs := make([]uintptr, 128)
	n := runtime.Callers(3, pcs)
	frames := runtime.CallersFrames(pcs[:n])
	const mod = "github.com/understudy-dev/understudy/internal/"
	var inner []string
	for {
		f, more := frames.Next()
		name := f.Function
		if strings.HasPrefix(name, mod) && !strings.Contains(f.File, "_test.go") {
			pkg := strings.TrimPrefix(name, mod)
			pkg = pkg[:strings.IndexAny(pkg, ".")]
			if len(inner) == 0 || inner[len(inner)-1] != pkg {
				inner = append(inner, pkg)
			}
		}
		if !more {
			break
		}
	}
	slices.Reverse(inner)
	return inner
}
