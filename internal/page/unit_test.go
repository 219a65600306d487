package page

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/understudy-dev/understudy/internal/cdp"
	"github.com/understudy-dev/understudy/internal/errs"
)

// These tests need no browser; they run under -short.

func TestBundle(t *testing.T) {
	b := loadBundle()
	if !strings.HasPrefix(b.key, "understudy.page/") || strings.Contains(b.script, keyPlaceholder) {
		t.Fatalf("key %q, placeholder left: %v", b.key, strings.Contains(b.script, keyPlaceholder))
	}
	if !strings.Contains(b.script, "Symbol.for('"+b.key+"')") {
		t.Fatal("the bundle does not install under its key")
	}
	if loadBundle().key != b.key {
		t.Fatal("the key is not stable")
	}
	for _, name := range jsOrder() {
		if _, err := jsFiles.ReadFile("js/" + name); err != nil {
			t.Fatal(err)
		}
	}
	all, _ := jsFiles.ReadDir("js")
	if len(all) != len(jsOrder()) {
		t.Fatalf("%d files under js/, %d in jsOrder", len(all), len(jsOrder()))
	}
}

func TestParseFlags(t *testing.T) {
	if parseFlags("") != nil {
		t.Fatal("no flags must be nil")
	}
	st := parseFlags("disabled mixed selected expanded=false pressed=false focused readonly required invalid busy")
	b, _ := json.Marshal(st)
	want := `{"disabled":true,"checked":"mixed","selected":true,"expanded":false,"pressed":false,"focused":true,"readonly":true,"required":true,"invalid":true,"busy":true}`
	if string(b) != want {
		t.Fatalf("got  %s\nwant %s", b, want)
	}
	b, _ = json.Marshal(parseFlags("checked expanded pressed"))
	if string(b) != `{"checked":true,"expanded":true,"pressed":true}` {
		t.Fatalf("got %s", b)
	}
}

func TestTriJSON(t *testing.T) {
	for _, c := range []struct {
		t Tri
		j string
	}{{False, "false"}, {True, "true"}, {Mixed, `"mixed"`}} {
		b, _ := json.Marshal(c.t)
		if string(b) != c.j {
			t.Fatalf("%v → %s, want %s", c.t, b, c.j)
		}
		var back Tri
		if err := json.Unmarshal(b, &back); err != nil || back != c.t {
			t.Fatalf("%s → %v, %v", b, back, err)
		}
	}
	var x Tri
	if err := json.Unmarshal([]byte(`"maybe"`), &x); err == nil {
		t.Fatal("a bad tri-state was accepted")
	}
}

func TestFillFrames(t *testing.T) {
	in := "[3] iframe \"A\"\x013\x01\n[4] iframe \"B\"\x014\x01\n[5] button \"C\""
	got := fillFrames(in, map[int]string{3: "s-surface-2"})
	want := "[3] iframe \"A\" surface=s-surface-2\n[4] iframe \"B\"\n[5] button \"C\""
	if got != want {
		t.Fatalf("got %q\nwant %q", got, want)
	}
	if fillFrames("plain", nil) != "plain" {
		t.Fatal("text without markers changed")
	}
}

func TestArgumentChecks(t *testing.T) {
	for _, c := range []struct {
		l     Locator
		field string
	}{
		{Locator{}, "selector"},
		{Locator{Selector: "  "}, "selector"},
		{Locator{Ref: -1}, "ref"},
		{Locator{Ref: 2, Selector: "a"}, "ref"},
	} {
		e := errs.As(c.l.Check())
		if e == nil || e.Code != errs.BadArgument || e.Details["field"] != c.field {
			t.Fatalf("%+v: %v", c.l, e)
		}
	}
	if (Locator{Ref: 3}).Check() != nil || (Locator{Selector: "#a"}).Check() != nil {
		t.Fatal("a good locator was refused")
	}
	for _, o := range []SnapshotOptions{{Since: "x"}, {Format: "xml"}, {MaxEntries: -1}, {MaxEntries: 10001}, {BudgetTokens: -5}} {
		if errs.CodeOf(o.check()) != errs.BadArgument {
			t.Fatalf("%+v accepted", o)
		}
	}
	if (&SnapshotOptions{Since: "last", Format: "text", MaxEntries: 10000}).check() != nil {
		t.Fatal("good options refused")
	}
	s := NewStore()
	if _, err := s.Snapshot(t.Context(), Frame{}, SnapshotOptions{}); errs.CodeOf(err) != errs.BadArgument {
		t.Fatalf("a frame without a surface: %v", err)
	}
}

func TestAbsorb(t *testing.T) {
	sf := &surface{next: 1, known: map[int]refInfo{}}
	sf.absorb(&reply{Doc: "d1", Next: 5, Memo: "1\x1fbutton\x1fSave\x1e2\x1flink\x1fHome"})
	if sf.next != 5 || sf.docKey != "d1" || sf.reloaded || sf.known[1] != (refInfo{"button", "Save"}) || sf.known[2].name != "Home" {
		t.Fatalf("%+v", sf)
	}
	sf.absorb(&reply{Doc: "d2", Next: 3})
	if sf.next != 5 || !sf.reloaded || sf.known[1].role != "button" {
		t.Fatalf("a new document: %+v", sf)
	}
	if err := sf.checkRef(Frame{SurfaceID: "s"}, 5); errs.CodeOf(err) != errs.RefNotFound {
		t.Fatalf("checkRef of the next ref: %v", err)
	}
	if err := sf.checkRef(Frame{SurfaceID: "s"}, 4); err != nil {
		t.Fatalf("checkRef of an issued ref: %v", err)
	}
}

// TestDropKeepsTheCounter: dropping a closed surface frees its state but
// not the store-wide counter, so the surface id coming back numbers on.
func TestDropKeepsTheCounter(t *testing.T) {
	s := NewStore()
	s.next = 40
	s.surfaces["a"] = &surface{mu: &s.op, next: 40, docKey: "d", known: map[int]refInfo{3: {"button", "Go"}}}
	if st := s.Stats(); st.Surfaces != 1 || st.Refs != 1 {
		t.Fatalf("before Drop: %+v", st)
	}
	s.Drop("a")
	s.Drop("never-seen")
	if st := s.Stats(); st.Surfaces != 0 || st.Refs != 0 {
		t.Fatalf("after Drop: %+v", st)
	}
	sf, err := s.lock(Frame{SurfaceID: "a", Session: (*cdp.Conn)(nil)})
	if err != nil {
		t.Fatal(err)
	}
	defer sf.mu.Unlock()
	if sf.next != 40 || sf.docKey != "" || len(sf.known) != 0 {
		t.Fatalf("the surface back after Drop: %+v", sf)
	}
}
