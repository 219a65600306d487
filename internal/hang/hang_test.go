package hang

import (
	"os"
	"testing"

	"github.com/understudy-dev/understudy/internal/leakcheck"
)

// TestMain fails the package when its tests leave goroutines running.
func TestMain(m *testing.M) { os.Exit(leakcheck.Main(m.Run)) }

// TestHungOneAtATime: the renderer last found stuck is remembered until it
// answers; a frame of the window is told from the window itself.
func TestHungOneAtATime(t *testing.T) {
	var h Hung
	if h.Is("") || h.Is("w1") || h.FrameIn("w1") != "" {
		t.Fatal("a fresh Hung names a target")
	}
	h.Set("w1", "f1")
	if !h.Is("f1") || h.Is("w1") || h.FrameIn("w1") != "f1" || h.FrameIn("w2") != "" {
		t.Fatalf("frame f1 of w1 hung: Is(f1)=%v FrameIn(w1)=%q", h.Is("f1"), h.FrameIn("w1"))
	}
	h.Clear("w1") // another target answering forgets nothing
	if !h.Is("f1") {
		t.Fatal("Clear of another target forgot f1")
	}
	h.Set("w1", "w1")
	if h.FrameIn("w1") != "" {
		t.Fatal("the window itself hung: FrameIn names no frame")
	}
	h.Clear("w1")
	if h.Is("w1") {
		t.Fatal("Clear did not forget w1")
	}
}

// TestNavigationsIdle: a watch that saw no event has no navigation under
// way.
func TestNavigationsIdle(t *testing.T) {
	if NewNavigations().Navigating("w1") {
		t.Fatal("a fresh watch says w1 navigates")
	}
}
