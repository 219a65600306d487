// Package target is the target pool of one browser or Electron app
// (ADR-003): one WebSocket per renderer target, opened lazily, shared by
// every caller and closed when the target goes.
//
// [Open] dials the browser socket and keeps the set of renderer targets
// (page, webview, iframe) current from Target.targetCreated, targetDestroyed
// and targetInfoChanged, without polling. [Pool.List] reads /json/list (the
// only source of webSocketDebuggerUrl, and of parentId for webview guests)
// and returns the renderer targets in a stable first-seen order. [Pool.Socket]
// and [Pool.Conn] return the socket of one target: concurrent callers share
// one dial, and the socket is closed when the target is destroyed.
//
// Events of every pooled target socket are fanned out to the functions
// registered with [Pool.Listen] on the socket's reader goroutine, in order,
// from the first frame on: a listener registered before a socket is asked for
// sees every event of it, so a caller can send Runtime.enable after
// [Pool.Socket] returns and miss no executionContextCreated. Target changes go
// to [Options.OnChange] and to [Pool.Watch] functions from one pool goroutine,
// in order, with no lock held. [Pool.Hold] holds new windows and OOPIFs
// paused until registered functions have brought them to a state (ADR-033),
// and a [Follower] owns the goroutines a component starts for targets as
// the pool reports them.
//
// Read internal/surface next: it builds the surface registry on this pool.
package target
