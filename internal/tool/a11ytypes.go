package tool

import "github.com/understudy-dev/understudy/internal/a11y"

// axeEngine holds the engine the server loaded (a11y.Cache: once it
// loads; a failure is tried again at the next audit).
type axeEngine = a11y.Cache
