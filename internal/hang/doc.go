// Package hang tells a renderer stuck in a script (while(true){}) from a
// slow one, for a session. Before a page call does anything, the caller
// writes a probe (a trivial evaluation) on the sockets of the renderers
// the call acts in (it talks to the renderer; this package does not), and
// [Watch] waits for their answers: the renderer runs commands in order on
// its main thread, so a probe with no answer in time means the page was
// busy before the call began. A navigation under way holds a target's
// commands, so the [Navigations] of each window (from its Page events)
// excuse the silence until it commits. [Hung] remembers the renderer last
// found stuck (one per session), which waits less the next time and whose
// script the caller ends to make way for a reload or a navigation.
// [Targets] says which renderers a call probes and [Unresponsive] is what
// it answers when one is stuck (PAGE_UNRESPONSIVE with its ways out);
// writing the probes is the caller's (a click's probe leaves from tool
// through nav); [Unstick] ends a stuck script to make way for a navigation
// (the caller says which windows a dialog holds).
package hang
