package tool

import (
	"sync"

	"github.com/understudy-dev/understudy/internal/a11y"
)

// a11yRules is a11y_audit's rules (a11y.Rules), named here for its input
// schema (inputTypeSchemas): it decodes itself.
type a11yRules = a11y.Rules

// axeEngine holds the engine the server loaded (once it loads; a failure
// is tried again at the next audit, so an operator can install it while
// the server runs).
type axeEngine struct {
	mu  sync.Mutex
	eng *a11y.Engine
}
