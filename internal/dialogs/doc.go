// Package dialogs keeps a session's JavaScript dialogs (alert, confirm,
// prompt, beforeunload): a log of those its windows opened, fed by the
// sockets' Page.javascriptDialogOpening and Page.javascriptDialogClosed
// events, and an optional armed policy that answers dialogs as they open.
// A dialog stops its page until it is answered; [Log.Open] says which one
// blocks a window, [Log.Handle] answers what is open, arms or disarms the
// policy and reads the log. [Request] and [Handled] are also the MCP tool
// electron_dialog_handler's parameters and result (JSON names,
// descriptions, [Request.Check]); [Event.Blocking] is the error of the
// dispatcher's DIALOG_OPEN gate and [Log.During] its watch of a running
// call; [Opened] is the dialog input opened, as the action answers it.
// Which calls a dialog blocks, and where they act, is internal/tool's
// (from each tool's declared effects).
package dialogs
