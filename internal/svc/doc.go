// Package svc names the services a session holds (a relay, a dialog log,
// the main-process inspector's connection…) with typed keys: each key is
// declared once, by the package that attaches its service, and a session
// keeps at most one service per key. A key says the type of its service,
// so what a session hands back needs no type assertion at the call site,
// and two services of one Go type (two *cdp.Conn) are never confused.
package svc
