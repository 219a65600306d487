// Package tool is understudy's MCP surface: the tool definitions (one file
// per group) and the one dispatcher every call goes through.
//
// [New] builds a [*Server]; [Server.Dispatch] runs one call (validate the
// arguments → resolve the session → enter it by the tool's class (classes.go:
// reads and waits together, actions in order, lifecycle alone) → run the handler
// under the backstop timeout → wrap the envelope) and is what both the MCP
// transport ([Server.MCP]) and the demo call. No tool talks to a socket
// directly: handlers use session, surface, page and input.
package tool
