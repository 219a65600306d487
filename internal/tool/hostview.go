package tool

import (
	"encoding/json"
	"sync"
)

// The host view (docs/adr/022, amended by docs/adr/030): what tools/list
// carries for each tool, which every MCP host puts into the model's
// context before the first call. The registry keeps every word (each
// tool's full description, every parameter's description, the full result
// schema), and docs/tools.md prints all of it; tools/list carries
//
//   - the tool's short description from hostDescs (the full one when the
//     tool has no entry, so a new tool is measured as it is written);
//   - its input schema with the shared and long parameter prose replaced
//     (hostParams), without sessionId (the instructions say it once), and
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

// hostDescs are the short descriptions of tools/list, by tool name.
var hostDescs = sync.OnceValue(func() map[string]string {
	return map[string]string{
		// lifecycle and targeting
		"electron_launch":           "Start an app, wait for a ready renderer: executablePath (packaged Electron app or headless Chromium; omitted: the one electron_doctor finds), main (+ electronPath) for a dev launch with the main-process inspector, or grid. Replaces an ended session (replaced_dead_session).",
		"electron_attach":           "Attach to a running app's DevTools endpoint on loopback: port (+host) or cdpUrl; pid allows kill escalation. The app stays the user's: only our sockets close.",
		"electron_detach":           "Disconnect and leave the app running; an app understudy launched still ends with the server (ends_with_server).",
		"electron_stop":             "End the session: a launched app is closed, escalating to SIGTERM and SIGKILL until none of its processes remains; an attached app is only disconnected unless closeApp:true. action says closed, detached or cleaned_up.",
		"electron_discover_running": "Probe loopback ports for DevTools endpoints and list what answers; attach with electron_attach.",
		"electron_status":           "Server version and uptime, the open sessions with their window and surface, and the last error. A session whose app ended says alive:false with ended_why.",
		"electron_info":             "The app's runtime versions, transport, endpoints and capability matrix.",
		"electron_doctor":           "Non-mutating preflight: browser binary, display, eval policy, app root, temp space. Run it when a launch fails.",
		"electron_plugins":          "The capability groups (--with NAME) and core profiles (--tool-profile): which are on, their tools, what each needs. A tool that is off answers TOOL_NOT_ENABLED naming its flag.",
		"electron_windows_list":     "List the window roots (pages, <webview> guests) with visibility, focus and surface id.",
		"electron_switch_window":    "Select a window by targetId, else windowTitle (substring), else index, and its top surface.",
		"electron_navigate":         "Navigate the active window to url and wait (waitUntil). A file: URL only under the allowed roots.",
		"electron_surfaces_list":    "List live surfaces parent-first: window roots (kinds from the main process are unverified on real Electron), <webview> guests, iframes (frame), with parentId and active_surface_id.",
		"electron_switch_surface":   "Select the surface renderer tools act on (and its window). Refs need none: a ref acts in its own surface. SURFACE_CLOSED when it closed.",
		"electron_relay_endpoint":   "Start a loopback CDP relay for this session's app and return ws_url and http_url, for a Playwright (connectOverCDP), Puppeteer or chromedp script that shares the app, isolated from you.",
		"electron_window_open":      "Open a window showing url and wait for its load (select:true selects it). On Electron the app decides: WINDOW_OPEN_REFUSED.",
		"electron_window_close":     "Close a window (windowId). The last window of an attached app is refused (LAST_WINDOW) unless force:true.",
		"electron_go_back":          "Go back in the active window's history and wait for the load. HISTORY_EMPTY when there is none.",
		"electron_go_forward":       "Go forward in the active window's history and wait for the load. HISTORY_EMPTY when there is none.",
		"emulation_set":             "Emulate device and environment in the active window (only the fields given change); device is a built-in name (iPhone 15, Pixel 7, Desktop 1280…; an unknown one lists them). The result says what the page now reports.",
		// observe
		"electron_snapshot":       "Accessibility-style snapshot of the active surface with refs. format:'text' is compact; surfaces:'all' inlines every frame and webview under its iframe line, refs acting where they point; since:'last' gives only changes. interactiveOnly, maxEntries, budgetTokens trim it (truncated says so); partial:true when a huge page's walk stopped early.",
		"electron_find":           "Find elements of the active surface (surfaces:'all': of every surface) by role and name_contains or name_exact; returns refs. scroll:true pages virtualized lists until a match renders (ELEMENT_NOT_FOUND says how far).",
		"electron_get_state":      "An element's state: visible, enabled, checked, selected, expanded, pressed, focused, readonly, required, invalid, busy.",
		"electron_console_logs":   "Console messages, uncaught exceptions and Chromium's log entries of every window, webview and frame, oldest first; filter by type, match (regex), since (next_since) and limit. The newest 2000 are kept; dropped counts the rest.",
		"electron_dialog_handler": "Answer JavaScript dialogs and read those opened. action accept or dismiss answers the open ones and arms the answer for later ones (oneShot: the next only); off disarms; no action only reads. While a dialog is open, tools on its page answer DIALOG_OPEN.",
		"electron_screenshot":     "Save a PNG or JPEG of the active window (or windowId, windowTitle, windowIndex), an element (ref or selector), the full page or a clip under the allowed roots (default: artifacts folder); also returned inline. FILE_EXISTS for a file this server did not write, unless overwrite:true.",
		// interact
		"electron_click":            "Click an element (ref or selector; position within it) or a viewport point (x, y) with real mouse events: the browser's hit-testing decides what receives it. Waits until the element is visible, stable, enabled and uncovered (force:true skips the checks). Verified: the press reached the element (target and over name what was hit); a click taken by something else is an error naming it. A dialog it opens returns dialog_opened.",
		"electron_hover":            "Move the mouse onto an element (ref or selector; position within it) or a viewport point (x, y), e.g. for a menu or tooltip. Waits as electron_click does; verified: the element's document saw the mouse arrive.",
		"electron_type":             "Set a field's text (text field, textarea, contenteditable; an editor or terminal as electron_type_into_editor replace:true) as a paste; input and change fire. Verified by reading it back: altered:true when the page changed it, TYPE_NO_EFFECT when the page rejected it.",
		"electron_keyboard_type":    "Type text with real key events, one per character, into ref or selector (focused first) or the focused element, for pages that react to keys. TYPE_NO_EFFECT when a text target did not change.",
		"electron_type_into_editor": "Put exact text into a code or rich-text editor or a terminal (Monaco, CodeMirror 6, Quill, ProseMirror, xterm.js, any editable) as one paste (replace:true: over everything), then read it back: verified exact, or partial when only drawn lines could be read. TYPE_MISMATCH carries the observed text: it went in, do not type it again blindly.",
		"electron_key":              "Press a key or chord (Enter, Escape, Control+Shift+P…) with real key events, into ref or selector (focused first) or whatever has the focus. A dialog it opens returns dialog_opened.",
		"electron_press_sequence":   "Press keys or chords in order (keys: [\"Control+A\", \"Backspace\"]), focusing ref or selector first if given; delayMs between.",
		"electron_clear_input":      "Empty a text field, textarea, contenteditable or editor (ref or selector); input and change fire; verified: TYPE_NO_EFFECT when the page kept a value.",
		"electron_check":            "Check a checkbox, radio or switch (ref or selector; its label works): clicks only when unchecked, then verifies it is checked (TYPE_NO_EFFECT when the page undid it). Waits as electron_click does.",
		"electron_uncheck":          "Uncheck a checkbox or switch: clicks only when checked, then verifies it is not (TYPE_NO_EFFECT when the page undid it). A radio cannot be unchecked.",
		"electron_set_value":        "Set a range, number, date, time or color input's value whole, or move an ARIA slider with its keys (ref or selector); read back (aria-valuenow). Text fields: electron_type.",
		"electron_select_option":    "Choose options of a <select> (ref or selector) by value or visible label; several for a multiple select, [] deselects all. input and change fire; verified (TYPE_NO_EFFECT when the page reset it).",
		"electron_set_files":        "Put files into an <input type=file> (it may be hidden): paths are absolute, existing, under the allowed roots; [] empties it. change fires; returns the files it holds.",
		"electron_drop_file":        "Drop files (absolute paths under the allowed roots) onto a drop zone with drag events carrying File objects. TYPE_NO_EFFECT when the page did not accept the drop.",
		"electron_drag":             "Drag an element (ref or selector) onto targetRef or targetSelector with real input (HTML drag events when the page starts one, else pointer moves). Verified: two items of one list must end reordered (DRAG_NO_EFFECT when not, DRAG_MISPLACED when elsewhere; details.order); a moved source must land by or in the target; an HTML drop must be accepted.",
		"electron_scroll":           "Scroll: ref or selector without dx/dy scrolls it into view; dx/dy (CSS pixels, positive down/right) turns the wheel at the element or the viewport's centre. Returns the positions before and after.",
		"electron_scroll_into_view": "Scroll an element (ref, selector, or role and name) into view through every scroll container and frame; when it is not rendered, pages virtualized lists until it renders (ELEMENT_NOT_FOUND says how far). Returns its ref, role, name and box.",
		// waits and assertions
		"electron_wait":              "Sleep ms (at most 60000). Prefer electron_wait_for_selector, electron_wait_for_state or an electron_expect_* tool.",
		"electron_wait_for_selector": "Wait until an element (selector or ref) is attached, visible (default), hidden or detached, watched in the renderer; returns a ref; survives a navigation. WAIT_TIMEOUT carries last_state.",
		"electron_wait_for_state":    "Wait until an element's state matches every flag of state at once (the flags of electron_get_state); waits for it to appear too. WAIT_TIMEOUT carries details.last_state.",
		"electron_wait_for_event":    "Wait for a DOM event (eventName) fired after the call starts, on ref or selector (descendants count) or the document; returns type, target (with a ref) and key, button, value or detail. Arm it first only for an action that runs on its own.",
		"electron_expect_text":       "Assert an element's text (ref or selector; innerText or a field's value) with one of equals, contains, regex, not_equals, not_contains, retried in the renderer until timeoutMs (0: once). EXPECTATION_FAILED carries expected and actual.",
		"electron_expect_value":      "Assert a form control's value (a select's value, not its label) with one of equals, contains, regex, not_equals, not_contains, retried until timeoutMs. EXPECTATION_FAILED carries expected and actual.",
		"electron_expect_visible":    "Assert an element is visible (visible:true, default) or hidden or absent (false), retried until timeoutMs. EXPECTATION_FAILED carries expected and actual.",
		"electron_expect_state":      "Assert an element's state flags all hold at once (state {\"checked\":true}), retried until timeoutMs. EXPECTATION_FAILED carries the last state.",
		"electron_expect_count":      "Assert how many elements match selector, or snapshot entries have role (+ name): equals, or min and max; retried until timeoutMs. EXPECTATION_FAILED carries the last count.",
		"electron_expect_url":        "Assert the active surface's URL contains a string or matches a regex, retried across navigations until timeoutMs. EXPECTATION_FAILED carries expected and actual.",
		"electron_assert_pattern":    "Check once, without waiting, an element's text (none: the document's) against one of regex, equals, contains, not_equals, not_contains. EXPECTATION_FAILED carries expected and actual.",
	}
})

// hostDescription is the description tools/list carries for a tool.
func hostDescription(name, full string) string {
	if d, ok := hostDescs()[name]; ok {
		return d
	}
	return full
}

// hostParams are parameter descriptions as tools/list carries them, by
// their full text (which docs/tools.md keeps): shorter, or "" for none.
// The first ones are the descriptions many tools repeat word for word,
// said once in the server's instructions (hostParamsInstructions).
var hostParams = sync.OnceValue(func() map[string]string {
	return map[string]string{
		"dev launch only: install understudy's fixed notification and tray hooks before the app's main runs (launch-time instrumentation), so native_notifications reach back to app start and native_trays know tooltips and menus set at startup; the app's process.argv[1] is then the shim's path": "dev launch: hook notifications and trays from app start",
		"a Selenium Grid 4 URL (http://HOST:4444): create a WebDriver session there and drive it over its se:cdp endpoint; electron_stop deletes it (docs/scale-out.md)":                                                                                                                               "Selenium Grid 4 URL: run the session there",
		"with grid: W3C capabilities (alwaysMatch), e.g. {browserName: chrome, goog:chromeOptions: {binary, args}}; executablePath and args add to goog:chromeOptions":                                                                                                                                 "with grid: W3C capabilities",
		"connect to the user's own running Chrome/Chromium that has remote debugging on, found by its DevToolsActivePort (needs the server's --allow-auto-connect)":                                                                                                                                    "attach to the user's own Chrome (needs --allow-auto-connect)",
		"with autoConnect: also look in this user-data directory (absolute), first":                                                                                                                                                                                                                    "with autoConnect: look here first",
		"the session to act on; omit when exactly one is open":                "",
		"a ref from electron_snapshot or electron_find of the active surface": "",
		"a CSS selector in the active surface's document":                     "",
		"act on the ref's element even when it now shows another role or name than you last saw (else REF_STALE); the result's ref_changed reports the change":       "",
		"use the ref's element even when it now shows another role or name than you last saw (else REF_STALE); the result's ref_changed reports the change":          "",
		"how long to wait until the element is actionable; default 5000, max 30000":                                                                                  "",
		"how long to wait for the element; default 5000, max 30000":                                                                                                  "",
		"how long to keep checking, in ms: default 5000, max 60000; 0 checks once":                                                                                   "default 5000, max 60000; 0: once",
		"a JavaScript regular expression source without slashes, e.g. ^Saved \\d+ items?$ (at most 1000 characters)":                                                 "JavaScript regex source, no slashes",
		"a JavaScript regular expression the URL matches, without slashes (at most 1000 characters)":                                                                 "JavaScript regex source, no slashes",
		"instead of an element: a point of the active surface's viewport, CSS pixels from its left edge (with y); for a frame surface, of that frame's own viewport": "a viewport point instead of an element (with y)",
		"instead of an element: CSS pixels from the top edge of the active surface's viewport (with x)":                                                              "",
		"with ref or selector: the point to use, in CSS pixels from the top-left corner of the element's border box (default: the centre of its first box)":          "{x, y} from the element's top-left (default: its centre)",
		"CSS pixels from the left edge":                                            "",
		"CSS pixels from the top edge":                                             "",
		"focus this element first (a ref from electron_snapshot or electron_find)": "focus it first",
		"focus this element first (a CSS selector)":                                "focus it first",
		"auto (default), reorder or drop: reorder checks that the source ends where the target item was; drop never checks an order; auto checks it for two children of one list (or when the page moved the parent's children)": "auto (default), reorder or drop",
		"when nothing rendered matches, scroll the virtualized lists page by page until a match renders (ELEMENT_NOT_FOUND with how far it scrolled when none does); plain find never scrolls":                                   "page virtualized lists until a match renders",
		"the flags that must all hold, e.g. {\"visible\":true,\"enabled\":true,\"focused\":false}":                                                                                                                               "flags that must all hold",
		"start again, with the same arguments, the app of a session that crashed or ended (sessionId names it when several did); pass no other launch arguments":                                                                 "restart an ended session's app with its arguments",
		"also return the image inline (MCP image content), scaled so its longer side is at most this many pixels; default 1024, 0: the file only":                                                                                "inline image's longer side; default 1024, 0: none",
		"'all': the active window's every surface in one text snapshot, each frame or webview under its iframe line; refs act where they point":                                                                                  "'all': every surface of the window",
		"'all': search the active window's every surface; each match says its surface_id":                                                                                                                                        "'all': every surface of the window",
		"how long to wait for the load; default 30000": "default 30000",
		"accept or dismiss: answer the dialogs open now and arm that answer for later ones; off: disarm; omit to only read": "accept, dismiss, off; omit to read",
		"attached or injected app: close it (Browser.close) instead of only disconnecting; a launched app is always closed": "close an attached app too",
		"ms; default 5000, max 30000": "",
		"the Electron binary for a dev launch; default $ELECTRON_PATH, else node_modules/.bin/electron under cwd": "default $ELECTRON_PATH or node_modules/.bin/electron",
		"the emulated screen: width and height in CSS pixels, deviceScaleFactor (0 = the screen's), mobile":       "",
		"only entries whose text this regular expression matches (RE2 syntax, at most 500 characters)":            "RE2 regex over the text",
		"option values or visible labels to choose; several for a multiple select, [] deselects all":              "",
		"folder to write a new file into, under an allowed root; relative: in the artifacts folder":               "",
		"the virtualized list to scroll (a ref); default: every virtualized list of the surface":                  "",
		"skip the actionability checks of the click":                                                              "",
		"the event type: click, input, change, keydown, submit, focus, a custom event name…":                      "",
		"extra environment (NODE_OPTIONS, ELECTRON_RUN_AS_NODE, LD_*, DYLD_* are refused)":                        "",
		"skip the actionability checks (the browser still decides what the click hits)":                           "",
		"the answer applies to one dialog (one open now, else the next), then disarms":                            "",
		"count the elements matching this CSS selector (open shadow roots included)":                              "",
		"'last': only what changed since the last snapshot or find of this surface":                               "",
		"the app's pid; enables electron_stop escalation and electron_force_kill":                                 "",
		"file to write, under an allowed root; relative: in the artifacts folder":                                 "",
		"extra command-line arguments (debugging switches are ours and refused)":                                  "",
		"absolute path of a packaged Electron app or a Chromium-based browser":                                    "absolute path",
		"ARIA role of the element to bring into view (with or without a name)":                                    "",
		"require this token from clients (?token= or Authorization: Bearer)":                                      "",
		"select everything first, so the text replaces the editor's content":                                      "",
		"only entries whose seq is greater (next_since of an earlier call)":                                       "next_since of an earlier call",
		"only events whose seq is greater (next_since of an earlier call)":                                        "next_since of an earlier call",
		"only dialogs of this type: alert, confirm, prompt or beforeunload":                                       "",
		"http://127.0.0.1:PORT or ws://127.0.0.1:PORT/devtools/browser/ID":                                        "",
		"loopback host; default 127.0.0.1":                                                                        "",
		"absolute paths of existing files":                                                                        "",
		"true (default): the element is visible; false: hidden or absent":                                         "",
		"or count the snapshot entries (not hidden) with this ARIA role":                                          "",
		"a key or chord: Enter, a, Control+Shift+P, Meta+K, Shift+Tab":                                            "Enter, a, Control+Shift+P…",
		"default 5000 (15000 when a list must be scrolled), max 30000":                                            "",
		"capture this element (a CSS selector in the active surface)":                                             "",
		"capture this element (a ref of the active surface)":                                                      "",
		"drop the least useful entries to fit about this many tokens":                                             "",
		"attached, visible (default), hidden (or absent) or detached":                                             "",
		"with role: a case-insensitive part of the accessible name":                                               "",
		"with role: the exact accessible name":                                                                    "",
		"with scroll: how long to scroll, default 15000, max 30000":                                               "",
		"how long to wait for the DevTools endpoint; default 30000":                                               "",
		"capture the whole scrollable page, not only the viewport":                                                "",
		"the window to capture (an id from electron_windows_list)":                                                "",
		"the window whose title contains this (case-insensitive)":                                                 "",
		"the window at this index of electron_windows_list":                                                       "",
		"wheel delta to the right in CSS pixels (negative: left)":                                                 "",
		"wheel delta down in CSS pixels (negative: up)":                                                           "",
		"dev launch: the app's main script, run by electronPath":                                                  "",
		"the window to close (an id from electron_windows_list)":                                                  "",
		"the text the field will hold (replaces what it holds)":                                                   "",
		"how long to wait for the window's load; default 30000":                                                   "",
		"a built-in device name (sets viewport and user agent)":                                                   "",
		"entries to return, the newest; default 200, max 1000":                                                    "",
		"events to return, the newest; default 50, max 200":                                                       "",
		"how long to wait for a ready renderer; default 15000":                                                    "",
		"a substring of the window title (case-insensitive)":                                                      "",
		"the main process's Node inspector ws URL, if open":                                                       "",
		"the main process's Node inspector port, if open":                                                         "",
		"case-insensitive substring of the accessible name":                                                       "",
		"replace path even if this server did not write it":                                                       "",
		"grace before each escalation step; default 10000":                                                        "",
		"ARIA role, e.g. button, link, textbox, checkbox":                                                         "",
		"the virtualized list to scroll (a CSS selector)":                                                         "",
		"a case-insensitive part of its accessible name":                                                          "",
		"pause between keys in ms; default 0, max 1000":                                                           "",
		"close even the last window of an attached app":                                                           "",
		"the window's index in electron_windows_list":                                                             "",
		"Chromium only: run headless (default true)":                                                              "",
		"left, CSS pixels from the viewport's left":                                                               "",
		"top, CSS pixels from the viewport's top":                                                                 "",
		"latitude, longitude and accuracy (meters)":                                                               "",
		"the element to drop onto: a CSS selector":                                                                "",
		"the element to drop onto: a ref":                                                                         "",
		"open another session while one is open":                                                                  "",
		"capture this rectangle of the viewport":                                                                  "",
		"a window id from electron_windows_list":                                                                  "",
		"the text to type; \\n starts a new line":                                                                 "",
		"an IANA timezone ID like Europe/Berlin":                                                                  "",
		"the URL to open in the active window":                                                                    "",
		"the URL the new window shows":                                                                            "",
		"make the new window the active one":                                                                      "",
		"the app's --remote-debugging-port":                                                                       "",
		"an id from electron_surfaces_list":                                                                       "",
		"what a prompt() is accepted with":                                                                        "",
		"per-port budget; default 750":                                                                            "",
		"working directory (absolute)":                                                                            "",
		"a BCP 47 locale like de-DE":                                                                              "",
		"the exact accessible name":                                                                               "",
		"its exact accessible name":                                                                               "",
		"the attribute name":                                                                                      "",
		"a CSS selector":                                                                                          "",
		"the count, exactly":                                                                                      "",
		"at least this many":                                                                                      "",
		"at most this many":                                                                                       "",
		"the same as regex":                                                                                       "",
		"a part of the URL":                                                                                       "",
		"bypass the cache":                                                                                        "",
		"height in CSS pixels":                                                                                    "",
		"width in CSS pixels":                                                                                     "",
		"forget the events returned":                                                                              "",
		"the whole text, exactly":                                                                                 "",
		"anything but this text":                                                                                  "",
		"the text must not contain this":                                                                          "",
		"a part of the text (case-sensitive)":                                                                     "",
		"regex flags, any of i m s u":                                                                             "any of imsu",
		"regex flags for matches, any of i m s u":                                                                 "any of imsu",
		"CSS property names, e.g. display, color":                                                                 "",
		"default 50, max 200":                                                                                     "",
		"default 50, max 500":                                                                                     "",
		"default 2000, max 10000":                                                                                 "",
		"default 10000":                                                                                           "",
		"default 30000":                                                                                           "",
	}
})

// hostParamsInstructions says once, in the server's instructions, what
// every tool's schema in tools/list leaves out.
const hostParamsInstructions = `Parameters many tools share: ref (an integer from electron_snapshot or electron_find; it acts in the surface that issued it) XOR selector (CSS in the active surface's document);
allowChanged:true acts on a ref whose element now shows another role or name than you last saw (else REF_STALE; ref_changed reports it);
timeoutMs: how long an action waits until its element is visible, stable, enabled and uncovered (default 5000, max 30000); sessionId (every tool) only when several sessions are open.
An unknown parameter is BAD_ARGUMENT naming it. A failure says its code and a hint. docs/tools.md describes every tool and parameter in full.`

// hostInputSchema is an input schema as tools/list carries it (see the
// top of this file).
func hostInputSchema(raw json.RawMessage) json.RawMessage {
	var schema map[string]any
	if json.Unmarshal(raw, &schema) != nil {
		return raw
	}
	if props, ok := schema["properties"].(map[string]any); ok {
		delete(props, "sessionId")
	}
	hostSchemaNode(schema)
	out, err := json.Marshal(schema)
	if err != nil {
		return raw
	}
	return out
}

// hostSchemaNode trims one schema node and those under it.
func hostSchemaNode(n map[string]any) {
	if ap, ok := n["additionalProperties"].(bool); ok && !ap {
		delete(n, "additionalProperties")
	}
	if types, ok := n["type"].([]any); ok {
		var kept []any
		for _, t := range types {
			if t != "null" {
				kept = append(kept, t)
			}
		}
		if len(kept) == 1 {
			n["type"] = kept[0]
		}
	}
	if d, ok := n["description"].(string); ok {
		if short, known := hostParams()[d]; known {
			if short == "" {
				delete(n, "description")
			} else {
				n["description"] = short
			}
		}
	}
	if props, ok := n["properties"].(map[string]any); ok {
		for _, p := range props {
			if p, ok := p.(map[string]any); ok {
				hostSchemaNode(p)
			}
		}
	}
	if items, ok := n["items"].(map[string]any); ok {
		hostSchemaNode(items)
	}
}
