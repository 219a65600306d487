package page

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"
)

// Issue 15, item 5: the text snapshot of the 2,000-element page
// (large.html) within 0.6× the smallest peer that shows the same text
// (chrome-devtools-mcp, 44,723 characters), and with interactiveOnly
// within 18,000 characters, each with every row, form field and the
// footer still in it.
const (
	maxLargeTextChars        = 26800
	maxLargeInteractiveChars = 18000
)

// TestLargeSnapshotSize checks both sizes and that nothing was bought with
// a missing row, field or footer: every control of the page (each row's
// checkbox and Edit button, each form field, the footer's link) is on a
// line with its ref, role and name in both forms, and the full form keeps
// each row's text and the footer's words.
func TestLargeSnapshotSize(t *testing.T) {
	s, _, f := largePage(t)
	ctx := ctxT(t)
	full, io, controls := largeSnapshots(t, ctx, s, f)
	for _, c := range []struct {
		name string
		text string
		max  int
	}{{"text", full, maxLargeTextChars}, {"text interactiveOnly", io, maxLargeInteractiveChars}} {
		n := utf8.RuneCountInString(c.text)
		t.Logf("%s: %d characters (limit %d)", c.name, n, c.max)
		if n > c.max {
			t.Errorf("%s snapshot of large.html is %d characters, over %d", c.name, n, c.max)
		}
		for _, want := range controls {
			if !strings.Contains(c.text, want) {
				t.Fatalf("%s snapshot lacks %s", c.name, want)
			}
		}
		// Every row: its checkbox and its Edit button on one line.
		rows := regexp.MustCompile(`(?m)\[\d+\] checkbox "Select Item (\d+)" \[\d+\] button "Edit"$`).FindAllStringSubmatch(c.text, -1)
		if len(rows) != 300 {
			t.Fatalf("%s snapshot: %d row lines, want 300", c.name, len(rows))
		}
		for i, r := range rows {
			if r[1] != fmt.Sprint(i+1) {
				t.Fatalf("%s snapshot: row line %d is Item %s", c.name, i+1, r[1])
			}
		}
	}
	for _, want := range []string{
		`"owner Grace": [`, `"owner Ken": [`, // a row's own text
		`textbox "Full name" value="" required`, `combobox "Country" value="Choose…"`, `slider "Volume" value="5"`,
		`"Fixture app, large page.": [`, `link "Back to top page"`, // the footer
	} {
		if !strings.Contains(full, want) {
			t.Fatalf("text snapshot lacks %s", want)
		}
	}
}

// largeSnapshots takes the text snapshot of large.html, its interactiveOnly
// form, and lists every control as "[ref] role "name"" from the JSON one.
func largeSnapshots(t testing.TB, ctx context.Context, s *Store, f Frame) (full, io string, controls []string) {
	t.Helper()
	r, err := s.Snapshot(ctx, f, SnapshotOptions{Format: "text"})
	if err != nil {
		t.Fatal(err)
	}
	ri, err := s.Snapshot(ctx, f, SnapshotOptions{Format: "text", InteractiveOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	j, err := s.Snapshot(ctx, f, SnapshotOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range j.Entries {
		if e.Interactive {
			controls = append(controls, fmt.Sprintf("[%d] %s %q", e.Ref, e.Role, e.Name))
		}
	}
	if len(controls) < 600+20 {
		t.Fatalf("only %d controls in the JSON snapshot of large.html", len(controls))
	}
	return r.Text, ri.Text, controls
}

// BenchmarkSnapshotSizeLarge reports the characters of the text snapshot
// of large.html, with and without interactiveOnly, and of the JSON one:
//
//	go test -run '^$' -bench BenchmarkSnapshotSizeLarge -benchtime 1x ./internal/page/
func BenchmarkSnapshotSizeLarge(b *testing.B) {
	s, _, f := benchLarge(b)
	ctx := context.Background()
	for _, c := range []struct {
		name string
		o    SnapshotOptions
	}{
		{"text", SnapshotOptions{Format: "text"}},
		{"text-interactiveOnly", SnapshotOptions{Format: "text", InteractiveOnly: true}},
		{"json", SnapshotOptions{}},
	} {
		b.Run(c.name, func(b *testing.B) {
			var chars int
			for b.Loop() {
				r, err := s.Snapshot(ctx, f, c.o)
				if err != nil {
					b.Fatal(err)
				}
				chars = utf8.RuneCountInString(r.Text)
				if c.o.Format != "text" {
					j, err := json.Marshal(r)
					if err != nil {
						b.Fatal(err)
					}
					chars = utf8.RuneCount(j)
				}
			}
			b.ReportMetric(float64(chars), "chars")
		})
	}
}

// TestInteractiveOnlyRowLabels: with interactiveOnly a row keeps its words
// when its controls do not name it (they tell the Edit buttons apart), and
// shows only its controls when one of them names it.
func TestInteractiveOnlyRowLabels(t *testing.T) {
	tb := openTab(t, dataURL(`<title>R</title><table><tbody>`+
		`<tr><td>Alpha report</td><td><button>Edit</button></td></tr>`+
		`<tr><td>Beta report</td><td><button>Edit</button></td></tr>`+
		`<tr><td>Gamma · owner Ada</td><td><input type=checkbox aria-label="Select Gamma"></td></tr>`+
		`</tbody></table>`))
	r, err := NewStore().Snapshot(ctxT(t), tb.frame("r"), SnapshotOptions{Format: "text", InteractiveOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"Alpha report": [`, `"Beta report": [`} {
		if !strings.Contains(r.Text, want) {
			t.Fatalf("interactiveOnly lost the words of a row its controls do not name (%s):\n%s", want, r.Text)
		}
	}
	if strings.Contains(r.Text, "owner Ada") || !regexp.MustCompile(`(?m)^\[\d+\] checkbox "Select Gamma"$`).MatchString(r.Text) {
		t.Fatalf("interactiveOnly kept the text of a row its checkbox names:\n%s", r.Text)
	}
}
