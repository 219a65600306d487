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
// [Session.Runtime] describe it. The window tools' arguments, checks and
// results live here too ([SwitchWindowArgs], [NavigateArgs],
// [WindowOpenArgs], [WindowCloseArgs], [HistoryArgs]) with the operations
// they drive: [Session.SwitchWindow], [Session.Navigate],
// [Session.OpenWindowFor], [Session.CloseWindowFor], [Session.GoBack],
// [Session.GoForward] and [Session.Reload]; a page stuck in a script is
// ended first by the [Unstick] the caller passes. A session holds its
// app-state services from their first use ([Session.Network],
// [Session.Clock], [Session.Emulation] with [Session.Emulate], and the
// main-process inspector: [Session.MainConn], [Session.Instrument]); its
// surfaces are listed with the root kinds the main process tells
// ([Session.SurfaceListing]). electron_status's and electron_info's results
// are here ([Report], [Session.Info]) with the [Capabilities] matrix's type
// (the flags are set, beside the tests that prove them, in internal/tool)
// and what proves each Electron-specific capability ([ElectronProofs]).
package session
