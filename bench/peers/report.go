package main

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"time"
)

// interactiveTotal is the number of interactive elements completeness checks.
const interactiveTotal = 647

// Goals from the issues, for understudy.
const (
	goalSnapshotTime = 0.5  // × the fastest peer's snapshot time
	goalSnapshotSize = 0.75 // × the smallest peer snapshot
	goalChange       = 0.02 // since:'last' ÷ the full text snapshot
	goalReadMS       = 1.5
	goalClickMS      = 20.0
	goalExpectMS     = 3.0
)

func medianDur(ds []time.Duration) float64 {
	if len(ds) == 0 {
		return math.NaN()
	}
	ms := make([]float64, len(ds))
	for i, d := range ds {
		ms[i] = float64(d) / float64(time.Millisecond)
	}
	return medianF(ms)
}

func p90Dur(ds []time.Duration) float64 {
	if len(ds) == 0 {
		return math.NaN()
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	i := int(math.Ceil(0.9*float64(len(s)))) - 1
	return float64(s[max(i, 0)]) / float64(time.Millisecond)
}

func medianInt(xs []int) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	f := make([]float64, len(xs))
	for i, x := range xs {
		f[i] = float64(x)
	}
	return medianF(f)
}

func medianF(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

func fmtMS(v float64) string {
	switch {
	case math.IsNaN(v):
		return "—"
	case v < 10:
		return fmt.Sprintf("%.2f", v)
	case v < 100:
		return fmt.Sprintf("%.1f", v)
	}
	return fmt.Sprintf("%.0f", v)
}

func fmtRatio(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return "—"
	}
	if v < 0.1 {
		return fmt.Sprintf("%.3f×", v)
	}
	return fmt.Sprintf("%.2f×", v)
}

// cell renders a measurement: value, or why there is none, plus failures.
func cell(m *measure, value func(*measure) string) string {
	switch {
	case m == nil:
		return "—"
	case m.Skipped != "":
		return "not measured: " + m.Skipped
	case !m.ok():
		return fmt.Sprintf("**failed** %d/%d (%s)", m.Fails, m.Fails, m.LastErr)
	}
	s := value(m)
	if m.Fails > 0 {
		s += fmt.Sprintf(" (%d of %d failed: %s)", m.Fails, m.Fails+len(m.Durs), m.LastErr)
	}
	return s
}

func timeCell(m *measure) string {
	return cell(m, func(m *measure) string {
		return fmt.Sprintf("%s (p90 %s)", fmtMS(medianDur(m.Durs)), fmtMS(p90Dur(m.Durs)))
	})
}

func charsCell(m *measure) string {
	return cell(m, func(m *measure) string {
		s := fmt.Sprintf("%.0f", medianInt(m.Chars))
		if len(m.Body) > 0 {
			s += fmt.Sprintf(" (body %.0f)", medianInt(m.Body))
		}
		return s
	})
}

// val returns a measurement's median time or chars, NaN when it has none.
func val(r *serverResult, key string, chars bool) float64 {
	if r == nil {
		return math.NaN()
	}
	m := r.Measures[key]
	if !m.ok() {
		return math.NaN()
	}
	if chars {
		return medianInt(m.Chars)
	}
	return medianDur(m.Durs)
}

// bodyVal returns a measurement's median snapshot-body size, NaN when none.
func bodyVal(r *serverResult, key string) float64 {
	if r == nil || !r.Measures[key].ok() || len(r.Measures[key].Body) == 0 {
		return math.NaN()
	}
	return medianInt(r.Measures[key].Body)
}

func renderMarkdown(rep *report) string {
	var b strings.Builder
	w := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }

	var ours *serverResult
	var peers []*serverResult
	for _, r := range rep.Servers {
		if r.Name == "understudy" {
			ours = r
		} else {
			peers = append(peers, r)
		}
	}

	idle := ""
	if rep.Idle != "" {
		idle = " · " + rep.Idle + " idle before each server's turn and after a click's page reset"
	}
	w("Run %s · understudy built at %s · load average before %s, after %s (%d cores%s) · %s · node %s · %d timed calls per cell, median (p90), client-side round trip%s · page %s\n\n",
		rep.Date.Format("2006-01-02 15:04 MST"), rep.Commit, rep.LoadBefore, rep.LoadAfter, rep.Cores,
		map[bool]string{true: ", waited for load below the limit", false: ", did not get a quiet machine"}[rep.WaitedQuiet],
		rep.Chromium, rep.Node, rep.N, idle, strings.Replace(rep.PageURL, "http://", "", 1))

	// Main table.
	w("| measurement |")
	for _, r := range rep.Servers {
		if r.Version != "" && r.Version != "this tree" {
			w(" %s %s |", r.Name, r.Version)
		} else {
			w(" %s |", r.Name)
		}
	}
	w("\n|---|")
	for range rep.Servers {
		w("---|")
	}
	w("\n")
	row := func(label string, f func(r *serverResult) string) {
		w("| %s |", label)
		for _, r := range rep.Servers {
			if r.StartupError != "" {
				w(" **failed to start** |")
				continue
			}
			w(" %s |", f(r))
		}
		w("\n")
	}
	row("MCP `ping` (the transport's floor), ms", func(r *serverResult) string { return timeCell(r.Measures["ping"]) })
	row("full text snapshot, ms", func(r *serverResult) string { return timeCell(r.Measures["snapshot"]) })
	row("snapshot size, chars of the response (of the snapshot itself)", func(r *serverResult) string { return charsCell(r.Measures["snapshot"]) })
	row(fmt.Sprintf("interactive elements in the snapshot (of %d)", interactiveTotal), func(r *serverResult) string {
		if !r.Measures["snapshot"].ok() {
			return "—"
		}
		s := fmt.Sprintf("%d", r.Present)
		if len(r.Missing) > 0 {
			s += " (missing: " + strings.Join(r.Missing[:min(len(r.Missing), 4)], ", ")
			if len(r.Missing) > 4 {
				s += fmt.Sprintf(", … %d in all", len(r.Missing))
			}
			s += ")"
		}
		return s
	})
	row("read `#status` text, interleaved with the other servers' calls, ms", func(r *serverResult) string { return timeCell(r.Measures["read"]) })
	row("the same read, one server's calls back to back, ms", func(r *serverResult) string { return timeCell(r.Measures["read-burst"]) })
	row(fmt.Sprintf("click Edit of row %d (off-screen) by ref, ms", clickRow), func(r *serverResult) string {
		m := r.Measures["click"]
		s := timeCell(m)
		if m.ok() {
			s += fmt.Sprintf(", effect seen %d/%d", m.Verified, m.Fails+len(m.Durs))
		}
		return s
	})
	row("the same click again, row already in view, ms", func(r *serverResult) string {
		m := r.Measures["click-inview"]
		s := timeCell(m)
		if m.ok() {
			s += fmt.Sprintf(", effect seen %d/%d", m.Verified, m.Fails+len(m.Durs))
		}
		return s
	})
	row("full text snapshot of the reloaded page, chars", func(r *serverResult) string { return charsCell(r.Measures["full"]) })
	row(fmt.Sprintf("what shows the change after clicking checkbox %d, chars", checkRow), func(r *serverResult) string { return charsCell(r.Measures["change"]) })
	row("… as a share of the full snapshot", func(r *serverResult) string {
		f, c := val(r, "full", true), val(r, "change", true)
		if math.IsNaN(f) || math.IsNaN(c) {
			return "—"
		}
		return fmt.Sprintf("%.1f%%", 100*c/f)
	})
	row("`electron_expect_text` that already holds, ms", func(r *serverResult) string {
		if r.Name != "understudy" {
			return "—"
		}
		return timeCell(r.Measures["expect"])
	})
	row("server RSS after the run, MiB (processes)", func(r *serverResult) string {
		if r.Procs == 0 {
			return "—"
		}
		return fmt.Sprintf("%.1f (%d; peak of the main process %.1f)", r.RSSMiB, r.Procs, r.PeakMiB)
	})

	// Ratios.
	if ours != nil && len(peers) > 0 {
		w("\n| understudy ÷ peer (below 1: understudy is faster or smaller) |")
		for _, p := range peers {
			w(" %s |", p.Name)
		}
		w("\n|---|")
		for range peers {
			w("---|")
		}
		w("\n")
		ratio := func(label, key string, chars bool) {
			w("| %s |", label)
			for _, p := range peers {
				w(" %s |", fmtRatio(val(ours, key, chars)/val(p, key, chars)))
			}
			w("\n")
		}
		ratio("snapshot time", "snapshot", false)
		ratio("snapshot size (response chars)", "snapshot", true)
		ratio("read time (interleaved)", "read", false)
		ratio("read time (back to back)", "read-burst", false)
		ratio("click time (off-screen row)", "click", false)
		ratio("click time (row in view)", "click-inview", false)
		w("| RSS |")
		for _, p := range peers {
			if ours.Procs == 0 || p.Procs == 0 {
				w(" — |")
			} else {
				w(" %s |", fmtRatio(ours.RSSMiB/p.RSSMiB))
			}
		}
		w("\n")
	}

	// Goals.
	if ours != nil {
		w("\n| goal (understudy) | measured | result |\n|---|---|---|\n")
		fastest, smallest, smallestBody := math.NaN(), math.NaN(), math.NaN()
		var fastName, smallName string
		for _, p := range peers {
			if t := val(p, "snapshot", false); !math.IsNaN(t) && (math.IsNaN(fastest) || t < fastest) {
				fastest, fastName = t, p.Name
			}
			if c := val(p, "snapshot", true); !math.IsNaN(c) && (math.IsNaN(smallest) || c < smallest) {
				smallest, smallName, smallestBody = c, p.Name, bodyVal(p, "snapshot")
			}
		}
		goal := func(name, measured string, met, known bool) {
			res := "not met"
			switch {
			case !known:
				res = "not measured"
			case met:
				res = "met"
			}
			w("| %s | %s | %s |\n", name, measured, res)
		}
		t := val(ours, "snapshot", false)
		goal(fmt.Sprintf("text snapshot ≤ %.1f× the fastest peer's time", goalSnapshotTime),
			fmt.Sprintf("%s ms vs %s ms (%s) = %s", fmtMS(t), fmtMS(fastest), fastName, fmtRatio(t/fastest)),
			t <= goalSnapshotTime*fastest, !math.IsNaN(t) && !math.IsNaN(fastest))
		c := val(ours, "snapshot", true)
		goal(fmt.Sprintf("snapshot size ≤ %.2f× the smallest peer snapshot, every interactive element present", goalSnapshotSize),
			fmt.Sprintf("%.0f vs %.0f chars of response (%s) = %s (snapshot text alone: %s); %d/%d elements", c, smallest, smallName,
				fmtRatio(c/smallest), fmtRatio(bodyVal(ours, "snapshot")/smallestBody), ours.Present, interactiveTotal),
			c <= goalSnapshotSize*smallest && ours.Present == interactiveTotal, !math.IsNaN(c) && !math.IsNaN(smallest))
		f, d := val(ours, "full", true), val(ours, "change", true)
		fb, db := bodyVal(ours, "full"), bodyVal(ours, "change")
		changeGoal := fmt.Sprintf("since:'last' after one checkbox click ≤ %.0f%% of the full text snapshot", 100*goalChange)
		if math.IsNaN(d) || math.IsNaN(f) {
			goal(changeGoal, "—", false, false)
		} else {
			res := "met"
			switch resp, text := d <= goalChange*f, db <= goalChange*fb; {
			case !resp && !text:
				res = "not met"
			case !resp:
				res = "met on the snapshot text, not met on the whole response"
			case !text:
				res = "met on the whole response, not met on the snapshot text"
			}
			w("| %s | whole response %.0f of %.0f chars = %.2f%%; snapshot text %.0f of %.0f = %.2f%% | %s |\n",
				changeGoal, d, f, 100*d/f, db, fb, 100*db/fb, res)
		}
		r, rb := val(ours, "read", false), val(ours, "read-burst", false)
		readGoal := fmt.Sprintf("a single read ≤ %.1f ms median", goalReadMS)
		if math.IsNaN(r) || math.IsNaN(rb) {
			goal(readGoal, fmtMS(r)+" ms", r <= goalReadMS, !math.IsNaN(r))
		} else {
			res := "met"
			switch {
			case r > goalReadMS && rb > goalReadMS:
				res = "not met"
			case r > goalReadMS:
				res = "met back to back, not met interleaved"
			case rb > goalReadMS:
				res = "met interleaved, not met back to back"
			}
			w("| %s | interleaved %s ms; back to back %s ms | %s |\n", readGoal, fmtMS(r), fmtMS(rb), res)
		}
		k := val(ours, "click", false)
		cm := ours.Measures["click"]
		verified := cm.ok() && cm.Fails == 0 && cm.Verified == len(cm.Durs)
		goal(fmt.Sprintf("click by ref on an off-screen row ≤ %.0f ms median", goalClickMS), fmtMS(k)+" ms", k <= goalClickMS && verified, !math.IsNaN(k))
		e := val(ours, "expect", false)
		em := ours.Measures["expect"]
		measured := fmtMS(e) + " ms"
		if em != nil && em.Skipped != "" {
			measured = em.Skipped
		}
		goal(fmt.Sprintf("`electron_expect_text` that already holds ≤ %.0f ms", goalExpectMS), measured, e <= goalExpectMS, !math.IsNaN(e))
	}

	// Calls.
	w("\n| server | snapshot | read | click | change after the checkbox click |\n|---|---|---|---|---|\n")
	for _, r := range rep.Servers {
		w("| %s | %s | %s | %s | %s |\n", r.Name, r.Calls["snapshot"], r.Calls["read"], r.Calls["click"], r.Calls["change"])
	}
	for _, r := range rep.Servers {
		if r.StartupError != "" {
			w("\n%s failed to start: %s\n", r.Name, r.StartupError)
		}
	}
	return b.String()
}
