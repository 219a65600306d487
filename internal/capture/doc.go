// Package capture is what the tools read out of a window without acting on
// it, as typed Go values over the DevTools protocol: screenshots of a
// window (Shooter), the records of what a renderer reported (console
// messages, uncaught exceptions and Chromium's own log entries, decoded by
// DecodeConsole into Entry), and JavaScript dialogs (DecodeDialogOpening,
// DecodeDialogClosed, WatchDialogs, HandleDialog). internal/tool calls it
// and never names a protocol method itself. A screenshot's options and
// result are capture's own types (Clip, Encoding, Shot, Cut; docs/adr/045);
// Shooter.Take shoots and shapes one, Shooter.ElementClip aims at an
// element's box, ThumbFile scales the written file for an inline copy, and
// Downloads.Listing is what a session's downloads read as.
package capture
