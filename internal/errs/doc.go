// Package errs is the one registry of error codes that understudy reports to
// agents. Each [Code] has an HTTP-like status, a retryable flag and a hint that
// tells the agent what to do next (see ../shared/reference/tool-surface.md).
//
// Entry points: [New] builds an [*Error] with a registered code, [As] finds one
// in a wrapped chain, and [Lookup] reads a code's registry entry. Code that
// reports a failure to an agent must use a code from this registry; a test in
// this package scans the tree and fails on an unregistered one.
package errs
