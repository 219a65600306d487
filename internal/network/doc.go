// Package network sees, stubs, records and replays the requests of every
// renderer target of a session: window roots, webview guests and
// out-of-process frames, including the ones that appear later.
//
// It owns the Network and Fetch domains of the pool's sockets: a [Network]
// enables them on each target as the desired state asks (capture on,
// stubs present, conditions set), decodes Network events into bounded
// records (a ring of records and a byte budget for bodies), answers every
// Fetch.requestPaused with a fulfil, fail or continue, and writes and
// reads HAR 1.2. Secret headers and body fields are secret.Strings from
// where they are read (see [Redactor], [Headers]): every encoding of a
// record writes them [redacted] unless the record is [Record.Shown].
//
// It also owns the network tools' arguments and answers: [Filter] and the
// argument types ([CaptureArgs], [StubArgs], [ConditionsArgs], …) carry the
// JSON names and descriptions of the tools' input schemas and check
// themselves (Check, errors naming the field); the operations that answer
// them ([Network.CaptureStart], [Network.Captured], [Network.StubRequests],
// [Network.ReplayHAR], …) return the result types the tools send.
package network
