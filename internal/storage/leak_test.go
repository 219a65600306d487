package storage

import (
	"os"
	"testing"

	"github.com/understudy-dev/understudy/internal/leakcheck"
)

// Origins reads frame trees from goroutines it waits for.
func TestMain(m *testing.M) { os.Exit(leakcheck.Main(m.Run)) }
