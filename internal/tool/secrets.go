package tool

import (
	"sync"
)

// Secrets are a type (internal/secret, docs/adr/039): a value read from a
// password field or a cookie is a secret.String from the moment it is
// read, and encodes as [redacted] in results, traces and files unless the
// call may reveal (--allow-secrets and reveal:true). What a caller passes
// in is known to be a secret only once the call has met its target (text
// typed into a password field): the handler says so with secretArg and
// the trace records that argument as [redacted].

// secretArgs are the arguments of one call found to be secrets. A handler
// the backstop gave up on may still add one: it is guarded.
type secretArgs struct {
	mu    sync.Mutex
	names []string
}
