package leakcheck

import (
	"os"
	"strings"
	"testing"
	"time"
)

func TestMain(m *testing.M) { os.Exit(Main(m.Run)) }

func parked(started chan<- struct{}, stop <-chan struct{}) {
	if started != nil {
		close(started)
	}
	<-stop
}

// TestLeftFindsAndForgets: a goroutine started here is reported while it
// runs, by its own function, and not once it has ended.
func TestLeftFindsAndForgets(t *testing.T) {
	stop, started := make(chan struct{}), make(chan struct{})
	go parked(started, stop)
	<-started
	mine := func(g Goroutine) bool { return strings.Contains(g.Stack, "leakcheck.parked(") }
	if left := Left(50*time.Millisecond, mine); !strings.Contains(left, "leakcheck.parked(") {
		t.Fatalf("a running goroutine was not found:\n%s", left)
	}
	close(stop)
	if left := Left(2*time.Second, mine); left != "" {
		t.Fatalf("an ended goroutine was reported:\n%s", left)
	}
}

// TestMainFailsOnALeak: Main turns a passing run that leaves a goroutine
// behind into a failure, and passes one that leaves none.
func TestMainFailsOnALeak(t *testing.T) {
	stop := make(chan struct{})
	defer close(stop)
	saved := os.Stderr
	os.Stderr, _ = os.Open(os.DevNull)
	defer func() { os.Stderr = saved }()
	start := time.Now()
	if code := Main(func() int { go parked(nil, stop); return 0 }); code != 1 {
		t.Fatalf("a leak passed: %d", code)
	}
	if d := time.Since(start); d < Grace {
		t.Fatalf("gave up after %s, before the grace of %s", d, Grace)
	}
	if code := Main(func() int { return 0 }); code != 0 {
		t.Fatalf("no leak failed: %d", code)
	}
	if code := Main(func() int { return 3 }); code != 3 {
		t.Fatalf("a failing run's code was replaced: %d", code)
	}
}

func TestTestingGoroutinesIgnored(t *testing.T) {
	t.Run("sub", func(t *testing.T) {
		for _, g := range Stacks() {
			if strings.Contains(g.Stack, "testing.tRunner") && !strings.Contains(g.Stack, "leakcheck.") {
				t.Errorf("a testing goroutine counted:\n%s", g.Stack)
			}
		}
	})
}
