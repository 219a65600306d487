// Package mainproc reaches an Electron app's main process through its Node
// inspector: [Connect] resolves an inspector URL (ws://…, or the
// inspector's http://127.0.0.1:PORT) to a socket, and [Eval] runs agent code
// there with require available. Nothing here pretends: with no inspector
// the caller gets TRANSPORT_UNSUPPORTED.
package mainproc
