// Package session holds what one driven app is to the server: its process
// (when we launched it), its DevTools endpoint, its target pool and surface
// registry, and the gate that admits tool calls to it (reads and waits
// together, actions in order, state changes alone; docs/adr/018).
//
// Entry points: [Manager] keeps the open sessions and resolves a call's
// sessionId; [Session.Acquire] admits a tool call by its class; [Manager.Close]
// ends everything on server exit, killing only what we launched (an attached
// app is the user's: we close our sockets and nothing else). A call ends a
// session with [Session.End] (stop: closed, detached or cleaned up, as
// [StopArgs] say) or [Manager.Leave] (detach); [Session.Status] and
// [Session.Runtime] describe it.
package session
