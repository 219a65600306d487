package consolelog

import (
	"os"
	"testing"

	"github.com/understudy-dev/understudy/internal/leakcheck"
)

// TestMain fails the package when its tests leave goroutines running.
func TestMain(m *testing.M) { os.Exit(leakcheck.Main(m.Run)) }
