package tool

import (
	"sync"

	"github.com/understudy-dev/understudy/internal/a11y"
)

// axeEngine holds the engine the server loaded (once it loads; a failure
// is tried again at the next audit, so an operator can install it while
// the server runs).
type axeEngine struct {
	mu  sync.Mutex
	eng *a11y.Engine
}
