// Package act carries out the actions whose effect a tool must prove, and
// proves it. A pointer action is put on an element or a point of a
// surface: it waits until the element passes the action's checks in its
// own document and, in a frame, until nothing in an enclosing document
// covers it; it turns the point into the window's viewport; where
// Chromium's routing of pointer input may lag a scroll (a window with
// out-of-process frames) it moves the pointer until the element's document
// saw it arrive before anything is pressed; and after the press it asks the
// element's document whether the event reached it, naming what took it
// when not (ADR-003, ADR-036, ADR-046).
//
// It calls page (the checks and receipts, in the renderer) and input (the
// events) and never the tools: a tool handler resolves the surface, builds
// a Pointer and shapes the answer.
package act
