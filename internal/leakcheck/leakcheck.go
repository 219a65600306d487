package leakcheck

import (
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"time"
)

// Grace is how long [Main] waits for goroutines to end after the tests:
// closers may return before the goroutines they stopped have unwound.
const Grace = 5 * time.Second

// Main runs run (m.Run, or a wrapper such as chromiumtest.Main) and
// returns its exit code, or 1 when it passed but left goroutines running
// that were not running before it: their stacks go to stderr. Use it as
// os.Exit(leakcheck.Main(m.Run)).
func Main(run func() int) int {
	before := ids()
	code := run()
	if code != 0 {
		return code
	}
	if left := Left(Grace, func(g Goroutine) bool { return !before[g.ID] }); left != "" {
		fmt.Fprintf(os.Stderr, "leakcheck: goroutines left running after the tests:\n\n%s\n", left)
		return 1
	}
	return 0
}

// Goroutine is one goroutine's stack.
type Goroutine struct {
	ID    int
	Stack string // as runtime.Stack prints it, header line included
}

// Left waits up to d for the goroutines that keep selects to end, and
// returns the stacks of those still running ("" when none). The calling
// goroutine and the runtime's and testing's own are never counted.
func Left(d time.Duration, keep func(Goroutine) bool) string {
	deadline := time.Now().Add(d)
	for {
		var left []string
		for _, g := range Stacks() {
			if keep(g) {
				left = append(left, g.Stack)
			}
		}
		if len(left) == 0 {
			return ""
		}
		if time.Now().After(deadline) {
			return strings.Join(left, "\n\n")
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Stacks returns the running goroutines, except the caller and those that
// belong to the runtime or the testing package.
func Stacks() []Goroutine {
	buf := make([]byte, 1<<20)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			buf = buf[:n]
			break
		}
		buf = make([]byte, 2*len(buf))
	}
	var out []Goroutine
	for i, g := range strings.Split(string(buf), "\n\n") {
		if i == 0 {
			continue // the caller: runtime.Stack prints it first
		}
		id, ok := parseID(g)
		if !ok || ignored(g) {
			continue
		}
		out = append(out, Goroutine{ID: id, Stack: g})
	}
	return out
}

// ids returns the ids of the goroutines Stacks reports now.
func ids() map[int]bool {
	m := map[int]bool{}
	for _, g := range Stacks() {
		m[g.ID] = true
	}
	return m
}

func parseID(stack string) (int, bool) {
	rest, ok := strings.CutPrefix(stack, "goroutine ")
	if !ok {
		return 0, false
	}
	end := strings.IndexByte(rest, ' ')
	if end < 0 {
		return 0, false
	}
	id, err := strconv.Atoi(rest[:end])
	return id, err == nil
}

// ignored reports whether a goroutine is the runtime's or testing's own,
// judged by its first frame outside the runtime and the standard library's
// internals (a blocked goroutine has runtime frames on top).
func ignored(stack string) bool {
	lines := strings.Split(stack, "\n")
	fn := ""
	for i := 1; i < len(lines); i += 2 { // function lines; file lines follow each
		f := lines[i]
		if strings.HasPrefix(f, "runtime.") || strings.HasPrefix(f, "internal/") || strings.HasPrefix(f, "sync.") ||
			strings.HasPrefix(f, "created by ") {
			continue
		}
		fn = f
		break
	}
	if fn == "" {
		return true // only runtime frames: the runtime's own
	}
	for _, p := range []string{
		"testing.", "os/signal.", "runtime/trace.",
	} {
		if strings.HasPrefix(fn, p) {
			return true
		}
	}
	return false
}
