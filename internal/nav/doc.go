// Package nav is a window's document as the tools move and read it, as
// typed Go values over the DevTools protocol: bringing a window to the
// front (and waiting until it has painted), navigating it and waiting for
// its load event, and the small reads the tools report about it (location
// and title, visibility and focus, whether the main document is ready,
// what the top document shows at a point). A Window wraps one page
// target's socket; internal/tool calls it and never names a protocol
// method itself.
package nav
