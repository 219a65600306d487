package tool

import (
	"encoding/json"
	"sync"

	"github.com/understudy-dev/understudy/internal/mcpwire"
)

// The host view (docs/adr/022, amended by docs/adr/030): what tools/list
// carries for each tool, which every MCP host puts into the model's
// context before the first call. The registry keeps every word (each
// tool's full description, every parameter's description, the full result
// schema), and docs/tools.md prints all of it; tools/list carries
//
//   - the tool's short description (Def.Short; the full one when the
//     tool has none, so a new tool is measured as it is written),
//     without the sentences after the first that point to a tool this
//     server's profile and groups leave off;
//   - its input schema with every parameter described, long prose
//     shortened (hostParams), without sessionId and allowChanged (the
//     instructions say them once; every tool still takes them), without
//     reveal when the server runs without --allow-secrets (it could only
//     be refused), and
//     without additionalProperties:false and "null" in a type list (the
//     server still refuses an unknown parameter with BAD_ARGUMENT naming
//     it, and still accepts null where the Go type does);
//   - no outputSchema: MCP makes it optional, every result is the JSON of
//     its text block and structuredContent, and the schema of each result
//     is embedded (schemas/out/) and printed in docs/tools.md.
//
// A short description says what the tool does, what it verifies and what
// an agent needs to recover (TestHostDescriptions); the error a tool
// answers carries its own hint, so the list of codes stays in the docs.

// hostDescription is the description tools/list carries for a tool: its
// short one (else the full one), less every sentence after the first that
// points to a tool that is off in this server (issue 30, point 1: no dead
// ends; essential has no electron_keyboard_type, so electron_type does not
// send the agent there). off reports a registered tool that is not
// enabled.
func hostDescription(d Def, off func(string) bool) string {
	desc := d.Short
	if desc == "" {
		desc = d.Desc
	}
	return withoutPointersTo(desc, off)
}

// hostParams are parameter descriptions as tools/list carries them, by
// their full text (which docs/tools.md keeps): shorter, never empty
// (issue 26: every parameter is described in tools/list, which
// TestEveryParameterDescribed checks for every profile and group). The
// first ones are the descriptions many tools repeat word for word; the
// server's instructions say them once in more words
// (hostParamsInstructions).
var hostParams = sync.OnceValue(func() map[string]string {
	return map[string]string{
		"a ref from electron_snapshot or electron_find of the active surface": "snapshot ref",
		"text; true or false for a checkbox, radio or switch; an option's value or label, or a list of them, for a select; a number, date or color for those inputs and ARIA sliders": "text; true/false; option(s); number, date",
		"the fields in the order to fill them: {ref or selector, value}":                                                                                            "{ref or selector, value}, in order",
		"how long each field may take to become actionable; default 5000, max 30000":                                                                                "default 5000",
		"a CSS selector in the active surface's document":                                                                                                           "CSS selector",
		"act on the ref's element even when it now shows another role or name than you last saw (else REF_STALE); the result's ref_changed reports the change":      "skip REF_STALE",
		"use the ref's element even when it now shows another role or name than you last saw (else REF_STALE); the result's ref_changed reports the change":         "skip REF_STALE",
		"how long to wait until the element is actionable; default 5000, max 30000":                                                                                 "default 5000",
		"how long to wait for the element; default 5000, max 30000":                                                                                                 "default 5000",
		"how long to keep checking, in ms: default 5000, max 60000; 0 checks once":                                                                                  "default 5000; 0: once",
		"the element (a ref from electron_snapshot or electron_find): keys go to it, focused first; a wheel turns at it, or without dx/dy it is scrolled into view": "snapshot ref",
		"the element (a CSS selector): keys go to it, focused first; a wheel turns at it, or without dx/dy it is scrolled into view":                                "CSS selector",
		"dev launch only: install understudy's fixed notification and tray hooks before the app's main runs (launch-time instrumentation), so native_notifications reach back to app start and native_trays know tooltips and menus set at startup; the app's process.argv[1] is then the shim's path": "dev launch: hook notifications, trays",
		"a Selenium Grid 4 URL (http://HOST:4444): create a WebDriver session there and drive it over its se:cdp endpoint; electron_stop deletes it (docs/scale-out.md)":                                                                                                                               "Selenium Grid 4 URL",
		"with grid: W3C capabilities (alwaysMatch), e.g. {browserName: chrome, goog:chromeOptions: {binary, args}}; executablePath and args add to goog:chromeOptions":                                                                                                                                 "with grid: W3C capabilities",
		"connect to the user's own running Chrome/Chromium that has remote debugging on, found by its DevToolsActivePort (needs the server's --allow-auto-connect)":                                                                                                                                    "the user's Chrome (--allow-auto-connect)",
		"with autoConnect: also look in this user-data directory (absolute), first":                                                                                                                                                                                                                    "with autoConnect: profile dir",
		"start again, with the same arguments, the app of a session that crashed or ended (sessionId names it when several did); pass no other launch arguments":                                                                                                                                       "restart an ended session's app",
		"absolute path of a packaged Electron app or a Chromium-based browser":                                                                                                                                                                                                                         "app or browser binary",
		"the Electron binary for a dev launch; default $ELECTRON_PATH, else node_modules/.bin/electron under cwd":                                                                                                                                                                                      "dev launch: Electron binary",
		"dev launch: the app's main script, run by electronPath":                                                                                                                                                                                                                                       "dev launch: main script",
		"extra command-line arguments (debugging switches are ours and refused)":                                                                                                                                                                                                                       "extra arguments",
		"extra environment (NODE_OPTIONS, ELECTRON_RUN_AS_NODE, LD_*, DYLD_* are refused)":                                                                                                                                                                                                             "extra environment",
		"Chromium only: run headless (default true)":                              "Chromium: default true",
		"working directory (absolute)":                                            "working directory",
		"open another session while one is open":                                  "open a second session",
		"how long to wait for a ready renderer; default 15000":                    "ms; default 15000",
		"how long to wait for the DevTools endpoint; default 30000":               "default 30000",
		"loopback host; default 127.0.0.1":                                        "default 127.0.0.1",
		"http://127.0.0.1:PORT or ws://127.0.0.1:PORT/devtools/browser/ID":        "DevTools http or ws URL",
		"the main process's Node inspector ws URL, if open":                       "main process inspector URL",
		"the main process's Node inspector port, if open":                         "main process inspector port",
		"the app's pid; enables electron_stop escalation and electron_force_kill": "app pid, to kill it",
		"the app's --remote-debugging-port":                                       "DevTools port",
		"default 10000":                                                           "ms; default 10000",
		"per-port budget; default 750":                                            "ms per port; default 750",
		"attached or injected app: close it (Browser.close) instead of only disconnecting; a launched app is always closed": "close an attached app too",
		"grace before each escalation step; default 10000":                                                                  "ms per escalation; default 10000",
		"require this token from clients (?token= or Authorization: Bearer)":                                                "token clients must send",
		"a substring of the window title (case-insensitive)":                                                                "title substring",
		"a window id from electron_windows_list":                                                                            "window id",
		"the window's index in electron_windows_list":                                                                       "window index",
		"an id from electron_surfaces_list":                                                                                 "surface id",
		"the URL to open in the active window":                                                                              "URL to open",
		"the URL the new window shows":                                                                                      "URL to show",
		"make the new window the active one":                                                                                "make it active",
		"how long to wait for the window's load; default 30000":                                                             "default 30000",
		"how long to wait for the load; default 30000":                                                                      "default 30000",
		"default 30000": "default 30000",
		"close even the last window of an attached app":          "close the last window too",
		"the window to close (an id from electron_windows_list)": "window id",
		"bypass the cache": "bypass the cache",
		"'all': search the active window's every surface; each match says its surface_id":                                                       "'all': every surface",
		"'all': the active window's every surface in one text snapshot, each frame or webview under its iframe line; refs act where they point": "'all': every surface",
		"'last': only what changed since the last snapshot or find of this surface":                                                             "'last': only changes",
		"drop the least useful entries to fit about this many tokens":                                                                           "token budget",
		"default 2000, max 10000":                           "default 2000",
		"ARIA role, e.g. button, link, textbox, checkbox":   "ARIA role, e.g. button",
		"case-insensitive substring of the accessible name": "name substring",
		"the exact accessible name":                         "exact name",
		"default true: only visible elements":               "default true",
		"default 50, max 500":                               "default 50",
		"default 50, max 200":                               "default 50",
		"when nothing rendered matches, scroll the virtualized lists page by page until a match renders (ELEMENT_NOT_FOUND with how far it scrolled when none does); plain find never scrolls": "page virtualized lists to a match",
		"with scroll: how long to scroll, default 15000, max 30000":                              "with scroll: ms; default 15000",
		"a ref: search only inside that element":                                                 "search in ref",
		"case-insensitive substring of the visible text; a non-control match lists its controls": "visible text",
		"a CSS selector":                                                                                                    "CSS selector",
		"the attribute name":                                                                                                "attribute name",
		"CSS property names, e.g. display, color":                                                                           "CSS property names",
		"entries to return, the newest; default 200, max 1000":                                                              "newest N; default 200",
		"only entries whose seq is greater (next_since of an earlier call)":                                                 "next_since of a previous call",
		"only events whose seq is greater (next_since of an earlier call)":                                                  "next_since of a previous call",
		"only entries whose text this regular expression matches (RE2 syntax, at most 500 characters)":                      "RE2 regex on the text",
		"only this type: log, info, warning (or warn), error, debug, … or exception":                                        "log, info, warning, error, debug… or exception",
		"accept or dismiss: answer the dialogs open now and arm that answer for later ones; off: disarm; omit to only read": "accept, dismiss, off; omit to read",
		"the answer applies to one dialog (one open now, else the next), then disarms":                                      "answer one dialog only",
		"what a prompt() is accepted with":                                                                                  "prompt() answer",
		"only dialogs of this type: alert, confirm, prompt or beforeunload":                                                 "alert, confirm, prompt or beforeunload",
		"events to return, the newest; default 50, max 200":                                                                 "newest N; default 50",
		"forget the events returned":                                                                                        "forget those returned",
		"file to write, under an allowed root; relative: in the artifacts folder":                                           "file to write; relative: artifacts folder",
		"folder to write a new file into, under an allowed root; relative: in the artifacts folder":                         "folder for a new file",
		"replace path even if this server did not write it":                                                                 "replace a file not ours",
		"also return the image inline (MCP image content), scaled so its longer side is at most this many pixels; default 1024, 0: the file only": "inline max side px; default 1024, 0: none",
		"capture the whole scrollable page, not only the viewport":                                                                                "whole page, not the viewport",
		"capture this element (a CSS selector in the active surface)":                                                                             "element to capture",
		"capture this element (a ref of the active surface)":                                                                                      "element to capture",
		"capture this rectangle of the viewport":                                                                                                  "viewport rectangle",
		"the window to capture (an id from electron_windows_list)":                                                                                "window id",
		"the window whose title contains this (case-insensitive)":                                                                                 "title substring",
		"the window at this index of electron_windows_list":                                                                                       "window index",
		"left, CSS pixels from the viewport's left":                                                                                               "CSS px",
		"top, CSS pixels from the viewport's top":                                                                                                 "CSS px",
		"width in CSS pixels":  "CSS px",
		"height in CSS pixels": "CSS px",
		"skip the actionability checks (the browser still decides what the click hits)": "skip actionability checks",
		"skip the actionability checks of the click":                                    "skip actionability checks",
		"skip the actionability checks":                                                 "skip actionability checks",
		"instead of an element: a point of the active surface's viewport, CSS pixels from its left edge (with y); for a frame surface, of that frame's own viewport": "viewport x, instead of an element",
		"instead of an element: CSS pixels from the top edge of the active surface's viewport (with x)":                                                              "viewport y",
		"with ref or selector: the point to use, in CSS pixels from the top-left corner of the element's border box (default: the centre of its first box)":          "{x, y} in it; default: centre",
		"CSS pixels from the left edge":                                                              "CSS px",
		"CSS pixels from the top edge":                                                               "CSS px",
		"held during the click: Alt, Control, Meta, Shift":                                           "held: Alt, Control, Meta, Shift",
		"the text the field will hold (replaces what it holds)":                                      "the field's new text",
		"the text to type; \\n presses Enter, \\t Tab":                                               "\\n is Enter, \\t Tab",
		"the text to type; \\n starts a new line":                                                    "exact text",
		"select everything first, so the text replaces the editor's content":                         "replace all content",
		"a key or chord: Enter, a, Control+Shift+P, Meta+K, Shift+Tab":                               "e.g. Enter, Control+Shift+P",
		"keys or chords pressed in order, e.g. [\"Control+A\", \"Backspace\", \"Enter\"]":            "keys or chords, in order",
		"pause between keys in ms; default 0, max 1000":                                              "ms between keys",
		"option values or visible labels to choose; several for a multiple select, [] deselects all": "values or labels; []: none",
		"absolute paths of existing files":                                                           "absolute file paths",
		"auto (default), reorder or drop: reorder checks that the source ends where the target item was; drop never checks an order; auto checks it for two children of one list (or when the page moved the parent's children)": "auto (default), reorder or drop",
		"moves from source to target; default: enough that no move skips more than a quarter of the smaller element (at least 10), max 100":                                                                                      "pointer moves; max 100",
		"the element to drop onto: a CSS selector":                                                                   "drop target",
		"the element to drop onto: a ref":                                                                            "drop target",
		"wheel delta down in CSS pixels (negative: up)":                                                              "px down (negative: up)",
		"wheel delta to the right in CSS pixels (negative: left)":                                                    "px right (negative: left)",
		"ARIA role of the element to bring into view (with or without a name)":                                       "ARIA role",
		"its exact accessible name":                                                                                  "exact name",
		"a case-insensitive part of its accessible name":                                                             "name substring",
		"the virtualized list to scroll (a CSS selector)":                                                            "virtualized list",
		"the virtualized list to scroll (a ref); default: every virtualized list of the surface":                     "virtualized list; default all",
		"default 5000 (15000 when a list must be scrolled), max 30000":                                               "default 5000",
		"milliseconds to sleep, at most 60000":                                                                       "max 60000",
		"attached, visible (default), hidden (or absent) or detached":                                                "attached, visible (default), hidden, detached",
		"the flags that must all hold, e.g. {\"visible\":true,\"enabled\":true,\"focused\":false}":                   "flags that must all hold",
		"the event type: click, input, change, keydown, submit, focus, a custom event name…":                         "e.g. click, input, keydown",
		"a JavaScript regular expression source without slashes, e.g. ^Saved \\d+ items?$ (at most 1000 characters)": "JS regex",
		"a JavaScript regular expression the URL matches, without slashes (at most 1000 characters)":                 "JS regex",
		"regex flags, any of i m s u":                                                                                "any of imsu",
		"regex flags for matches, any of i m s u":                                                                    "any of imsu",
		"the whole text, exactly":                                                                                    "exact text",
		"anything but this text":                                                                                     "not this exact text",
		"the text must not contain this":                                                                             "must not contain",
		"a part of the text (case-sensitive)":                                                                        "substring",
		"a part of the URL":                                                                                          "URL substring",
		"the same as regex":                                                                                          "alias of regex",
		"true (default): the element is visible; false: hidden or absent":                                            "false: hidden or absent",
		"count the elements matching this CSS selector (open shadow roots included)":                                 "CSS selector to count",
		"or count the snapshot entries (not hidden) with this ARIA role":                                             "or ARIA role to count",
		"with role: a case-insensitive part of the accessible name":                                                  "with role: name substring",
		"with role: the exact accessible name":                                                                       "with role: exact name",
		"the count, exactly":                                                                                         "exact count",
		"at least this many":                                                                                         "minimum",
		"at most this many":                                                                                          "maximum",
		"a built-in device name (sets viewport and user agent)":                                                      "built-in device name",
		"the emulated screen: width and height in CSS pixels, deviceScaleFactor (0 = the screen's), mobile":          "emulated screen",
		"latitude, longitude and accuracy (meters)":                                                                  "position",
		"an IANA timezone ID like Europe/Berlin":                                                                     "IANA timezone",
		"a BCP 47 locale like de-DE":                                                                                 "BCP 47 locale",
		"the user agent string":                                                                                      "user agent",
		"CPU slowdown factor, 1 = none":                                                                              "slowdown factor, 1: none",
		"device pixels per CSS pixel; 0: the screen's":                                                               "0: the screen's",
		"emulate a mobile device (meta viewport, overlay scrollbars)":                                                "mobile device",
		"jpeg quality 0-100 (default 80)":                                                                            "0-100; default 80",
		"1 (default) to 3; 2 is a double click":                                                                      "1 (default) to 3",
		"true: only enabled elements; false: only disabled ones":                                                     "true: enabled only; false: disabled",
		"true: only controls (buttons, links, fields…); false: only other elements":                                  "true: controls only; false: others",
		"lowest key (number or string); omit: no lower bound":                                                        "lowest key",
		"highest key (number or string); omit: no upper bound":                                                       "highest key",
		"the rect's width in CSS pixels":                                                                             "CSS px",
		"the rect's height in CSS pixels":                                                                            "CSS px",
	}
})

// actionTimeoutDesc is the description of an action's timeoutMs, which
// the instructions state once for every action.
const actionTimeoutDesc = "how long to wait until the element is actionable; default 5000, max 30000"

// hostParamsInstructions says once, in the server's instructions, what
// every tool's schema in tools/list leaves out.
const hostParamsInstructions = `Parameters many tools share: ref (an integer from electron_snapshot or electron_find; it acts in the surface that issued it) XOR selector (CSS in the active surface's document);
allowChanged:true acts on a ref whose element now shows another role or name than you last saw (else REF_STALE; ref_changed reports it);
timeoutMs: how long an action waits until its element is visible, stable, enabled and uncovered (default 5000, max 30000); sessionId (every tool) only when several sessions are open.
then (every action: click, type, key, check, select, fill_form, navigate…): act and observe in one call. After the action, wait until text=T (the page shows T), selector=S, gone=S or url=U holds, and/or diff (what changed since your last snapshot); join with ; and bound with timeout=MS, e.g. electron_click {ref: 5, then: "text=Saved;diff"}. The answer's then says met, waited_ms and diff; when it does not hold, EXPECTATION_FAILED says the action was done (details.result): do not repeat it.
An unknown parameter is BAD_ARGUMENT naming it and the closest one (details.did_you_mean). A failure says its code and a hint. docs/tools.md describes every tool and parameter in full.`

// hostInputSchema is an input schema as tools/list carries it (see the
// top of this file; mcpwire.HostSchema trims it).
//
// off names parameters this server cannot honour and leaves out: reveal
// without --allow-secrets (it would only answer SECRETS_NOT_ALLOWED).
func hostInputSchema(raw json.RawMessage, off ...string) json.RawMessage {
	return mcpwire.HostSchema(raw, mcpwire.HostSchemaOptions{
		// Said once in the server's instructions (hostParamsInstructions),
		// not in every tool: which session, acting on a changed ref, and
		// what to wait for after an action.
		Drop: append([]string{"sessionId", "allowChanged", "then"}, off...),
		// An action's wait for its element, as the instructions state it.
		DropDescribed: map[string]string{"timeoutMs": actionTimeoutDesc},
		Short:         hostParams(),
	})
}
