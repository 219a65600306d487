// Package session holds what one driven app is to the server: its process
// (when we launched it), its DevTools endpoint, its target pool and surface
// registry, and the per-session lock under which every tool call runs.
//
// Entry points: [Manager] keeps the open sessions and resolves a call's
// sessionId; [Session.Lock] serialises tool calls on one app; [Manager.Close]
// ends everything on server exit, killing only what we launched (an attached
// app is the user's: we close our sockets and nothing else).
package session
