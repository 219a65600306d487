package tool

import (
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A tool is one Def, written beside its handler (docs/adr/037). Everything
// the server says about the tool (tools/list, docs/tools.md, the MCP
// annotations, profiles and groups) and everything it enforces around a
// call (the eval gate, the secrets gate, the client's roots, how the call
// meets an open dialog, a hung page or a crashed app, its admission to the
// session, whether a replay needs confirm) is derived from it by the
// dispatcher, in one place. No other table is keyed by a tool's name:
// TestToolNameInOneFile fails when a name is written in a second Go file.
type Def struct {
	// Name is the tool's name in tools/list; written only here.
	Name string
	// Title is the MCP annotation title: a few words.
	Title string
	// Short is what tools/list carries (docs/adr/030): one line saying what
	// the tool is for and, when another tool is easily confused with it,
	// which one is for that. Empty: Desc, which must then be short.
	Short string
	// Desc is the full description docs/tools.md prints.
	Desc string
	// Profiles holds the letters of the core profiles the tool is in
	// (E essential, T testing, D debug; full has every core tool). A
	// group's tool (Group set) needs none.
	Profiles string
	// Group is the capability group (--with) the tool belongs to; "" for a
	// core tool.
	Group string
	// Class is how its calls share the session (classes.go, docs/adr/018).
	Class toolClass
	// Session says the call resolves a session and takes its admission.
	Session bool
	// Effects is what a call does; a Def without them fails TestEffects.
	Effects Effects
	// TextBody names the result's field that is text for the agent to read
	// (a text snapshot): MCP carries it as a plain text block, not a string
	// escaped inside the JSON (mcp.go).
	TextBody string
	// Image says the result's path is an image the MCP answer also carries
	// inline (inline.go).
	Image bool
	// VerifiedOn, for a tool whose behaviour rests on Electron, says what
	// proves it here (electron_info's electron_verified_on).
	VerifiedOn string
}

// Effects is what a call of a tool does, declared once. Does decides the
// MCP annotations; the other fields decide what the dispatcher checks or
// asks for before the handler runs.
type Effects struct {
	// Does is what the call does to the app and the world (catalog.go's
	// kinds): reads, selects, adds, sets, acts, opens or reaches.
	Does kind
	// Eval is the operator flag the tool needs; without it the tool is
	// absent from the server.
	Eval gate
	// Reads and Writes name the parameters that are paths (or file: URLs)
	// the call reads or writes; Artifacts says it writes files no
	// parameter of the call names (into the artifacts folder, or the trace
	// it records). A tool with any of them gets the MCP client's roots
	// before it runs.
	Reads, Writes []string
	Artifacts     bool
	// Secrets says a result or file may carry secret values, shown only for
	// reveal:true on a server started with --allow-secrets; the
	// dispatcher refuses reveal:true without that flag.
	Secrets bool
	// Page is how the call needs the renderer's page: the zero value needs
	// the active window's page, so an open dialog fails it at once
	// (DIALOG_OPEN) and a hung page answers PAGE_UNRESPONSIVE.
	Page pageNeed
	// AfterCrash says the call runs on a session whose app crashed (it
	// cleans up or reads what happened); every other call answers
	// APP_CRASHED.
	AfterCrash bool
	// EndsSession says the call ends the session (stop, detach, kill): it
	// runs on a crashed app's session too, and a replay of it needs
	// confirm:true.
	EndsSession bool
	// OpensSession says the call opens the session it runs in (a launch,
	// an attach): a replay continues on the session it opened.
	OpensSession bool
	// Irreversible says the call ends the app or the session, runs code,
	// hands local files to the page or replaces a baseline: trace_replay
	// runs a trace holding it only with confirm:true.
	Irreversible bool
}

// pageNeed is how a call needs the renderer's page.
type pageNeed int

const (
	// pageActive: the call acts in the active window's page.
	pageActive pageNeed = iota
	// pageEveryWindow: the call acts in the pages of every window.
	pageEveryWindow
	// pageUnsticks: the call navigates, which stops a running script, so
	// it is a way out of a hung page and is not probed; a dialog still
	// blocks it.
	pageUnsticks
	// pageFree: the call reads or changes only understudy's state, the
	// browser's target list or the main process, or answers dialogs: it
	// works while a dialog is open or the page hangs.
	pageFree
)

// usesFiles says the call reads or writes files, and so needs the MCP
// client's roots before it runs.
func (e Effects) usesFiles() bool {
	return len(e.Reads) > 0 || len(e.Writes) > 0 || e.Artifacts
}

// annotations are the MCP annotations the tool's effects imply.
func (d Def) annotations() *mcp.ToolAnnotations {
	f, t := false, true
	a := &mcp.ToolAnnotations{Title: d.Title, OpenWorldHint: &f}
	switch d.Effects.Does {
	case kRead:
		// destructiveHint means nothing beside readOnlyHint (MCP): left out.
		a.ReadOnlyHint, a.IdempotentHint = true, true
	case kSelect:
		a.IdempotentHint, a.DestructiveHint = true, &f
	case kAdd:
		a.DestructiveHint = &f
	case kSet:
		a.IdempotentHint, a.DestructiveHint = true, &t
	case kAct:
		a.DestructiveHint = &t
	case kOpen:
		a.DestructiveHint, a.OpenWorldHint = &t, &t
	case kReach:
		a.DestructiveHint, a.OpenWorldHint = &f, &t
	}
	return a
}

// needsConfirm says a replay of the call needs confirm:true.
func (d Def) needsConfirm() bool {
	switch d.Effects.Eval {
	case gateEvalRenderer, gateEvalMain:
		return true // the caller's own code
	case gateNone, gateMainCode:
	}
	return d.Effects.Irreversible || d.Effects.EndsSession
}

// gate names what a tool needs from the operator's flags.
type gate int

// kind is what a tool does to the world, which decides its annotations.
type kind int

const (
	// kRead changes nothing: reads, waits, assertions, listings.
	kRead kind = iota + 1
	// kSelect changes only what later calls act on or how they are
	// answered (a selected window or surface, a dialog policy, a relay),
	// or moves the pointer or a scroll position back to the same place on
	// a repeat: not read-only, not destructive, idempotent.
	kSelect
	// kAdd adds something and takes nothing away (a session, a file, a
	// scroll offset): not read-only, not destructive, not idempotent.
	kAdd
	// kSet drives the app to a stated value (a field's text, a checkbox):
	// the app reacts as to a user, so destructive, but a repeat does
	// nothing more.
	kSet
	// kAct drives the app as a user would (a click, a key): the app may do
	// anything, destructive and not idempotent.
	kAct
	// kOpen reaches past the app: navigation to any URL, arbitrary code.
	kOpen
	// kReach reaches past the app and takes nothing away: a session on a
	// grid or a remote endpoint, a new window at any URL. Not destructive,
	// open world.
	kReach
)

const (
	gateNone gate = iota
	// gateEvalRenderer and gateEvalMain: the tool is absent unless the
	// operator allows that eval.
	gateEvalRenderer
	gateEvalMain
	// gateMainCode: the tool runs fixed code of ours that wraps the app's
	// main-process handlers; it is listed (its group names the flag) and
	// answers EVAL_REQUIRED without --allow-eval=main.
	gateMainCode
)
