// Package dialogs keeps a session's JavaScript dialogs (alert, confirm,
// prompt, beforeunload): a log of those its windows opened, fed by the
// sockets' Page.javascriptDialogOpening and Page.javascriptDialogClosed
// events, and an optional armed policy that answers dialogs as they open.
// A dialog stops its page until it is answered; [Log.Open] says which one
// blocks a window, [Log.Handle] answers what is open, arms or disarms the
// policy and reads the log. The MCP tool electron_dialog_handler and the
// dispatcher's DIALOG_OPEN gate are internal/tool's; the state is here.
package dialogs
