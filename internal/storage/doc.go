// Package storage is the state an app keeps in its browser profile, as
// typed Go values over the DevTools protocol: cookies (Storage and Network
// domains, never page JavaScript), Web Storage of any origin a document of
// the app has open (the DOMStorage domain on the target whose frame holds
// the origin, so an origin that lives only in a cross-site OOPIF or a
// webview guest is reached through that target's own socket), and
// Playwright's storageState shape with its validation. App is one session's
// storage as whole operations, each checked by reading back what it
// changed: snapshot, cookie set and clear, Web Storage changes, and the
// storageState export and import (everything checked and every origin
// reached before anything is written). The storage tools' arguments (with
// their JSON names, descriptions and Check), their results and the App
// operations that answer them are here too (ops.go, idbops.go):
// internal/tool embeds the arguments in its inputs, calls App and returns
// the result, and never names a protocol method itself.
package storage
