package cdp

import (
	"errors"
	"strings"
)

// Kinds of protocol error, for errors.Is on a *ProtocolError (ADR-007).
//
// Chromium answers almost every failed call with the generic server-error
// code -32000; what went wrong is only in the message. The message is
// classified here, once, into these sentinels, and every other package asks
// errors.Is(err, cdp.ErrX) instead of reading the text.
var (
	// ErrContextLost: the execution context the call ran in, or named, went
	// away (a navigation, a reload, a frame moved between processes).
	ErrContextLost = errors.New("cdp: the execution context is gone")
	// ErrNotFound: the frame, node or object the call names does not exist
	// (any more), or nothing is at the location asked for.
	ErrNotFound = errors.New("cdp: what the call names was not found")
	// ErrNoBoxModel: the node exists but has no layout box.
	ErrNoBoxModel = errors.New("cdp: the node has no box model")
)

// contextLost lists Chromium's messages (V8 inspector and the DevTools
// agents) that say an execution context went away.
var contextLost = []string{
	"execution context was destroyed",
	"inspected target navigated or closed",
	"cannot find context with specified id",
	"cannot find default execution context",
}

// notFound lists message fragments Chromium uses when a call names a frame,
// node or location with nothing there: "Frame with the given id was not
// found", "No frame for given id found", "No node found at given location",
// "No node with given id found", "Could not find node with given id".
var notFound = []string{"not found", "no frame", "no node", "could not find"}

// KindOf returns the sentinel a browser message stands for, or nil. It is
// the one place that reads Chromium's error text; exception texts of a
// Runtime.evaluate carry the same phrases and go through it too.
func KindOf(message string) error {
	m := strings.ToLower(message)
	for _, s := range contextLost {
		if strings.Contains(m, s) {
			return ErrContextLost
		}
	}
	if strings.Contains(m, "box model") {
		return ErrNoBoxModel
	}
	for _, s := range notFound {
		if strings.Contains(m, s) {
			return ErrNotFound
		}
	}
	return nil
}

// Is makes errors.Is(err, ErrContextLost) (and the other kinds) true for
// a protocol error of that kind.
func (e *ProtocolError) Is(target error) bool {
	k := KindOf(e.Message)
	return k != nil && k == target
}
