// Package mainproc reaches an Electron app's main process through its Node
// inspector: [Connect] resolves an inspector URL (ws://…, or the
// inspector's http://127.0.0.1:PORT) to a socket, and [Eval] runs agent code
// there with require available. Nothing here pretends: with no inspector
// the caller gets TRANSPORT_UNSUPPORTED.
//
// It also owns the main-process tools' arguments and answers: the argument
// types ([InvokeArgs], [MenuItemArgs], [IPCCaptureArgs], [IPCStubArgs],
// [TrayInvokeArgs], …) carry the JSON names and descriptions of the tools'
// input schemas and check themselves (Check, errors naming the field), and
// the operations that answer them ([InvokeArgs.Invoke], [Instrument.ReadIPC],
// [Instrument.ReadNotifications], …) return the result types the tools
// send; IPC events name their surface from the session's window roots
// ([Instrument.NameSurfaces]); [ClassifyRoots] gives a surface listing
// the kinds of its roots.
package mainproc
