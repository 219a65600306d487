package tool

// docsVerification is the part of docs/tools.md that says how each tool
// that changes the page knows it worked: what it checks in the page before
// it answers ok, and what it answers when the check fails. Every row names
// behaviour a real-browser test proves (the test names are in the ADRs and
// in internal/tool's *_test.go files).
const docsVerification = `## How each tool knows it worked

A tool that changes the page answers ` + "`ok`" + ` only after it has seen the change in the page; the
effect is never inferred from the input it sent. When the check fails it answers an error with a
code and what it observed, so an agent never has to act twice to find out.

| tool | what it checks in the page before ok | when the check fails |
|---|---|---|
| ` + "`electron_click`" + ` | the element (identity by ref: same role and name as you last saw) received the press: a listener armed on it sees the ` + "`pointerdown`" + ` in its composed path (shadow DOM included); at x/y, the element at the point is named in ` + "`target`" + ` and an overlay in ` + "`over`" + `. In a window with out-of-process frames, after a scroll (or for an element in such a frame) the press waits until the scrolled layout has been presented and goes only after a mouse move proved to reach the element (the browser routes input between processes by hit-test data that lags a scroll); a move that went elsewhere is aimed again, nothing pressed | ` + "`REF_STALE`" + `, ` + "`ELEMENT_NOT_VISIBLE`" + ` naming the cover (own document or an enclosing frame's), an error naming what took the click, or saying the pointer never reached the element and nothing was pressed |
| ` + "`electron_hover`" + ` | the element's document saw the mouse arrive on it | an error naming what took the move |
| ` + "`electron_type`" + ` | the field's value read back (` + "`altered`" + ` when the page changed it); on a known editor or terminal, and on an editing host that did not take a scripted edit (an editor that owns its DOM: Lexical, Slate, Draft.js), as ` + "`electron_type_into_editor`" + ` with ` + "`replace:true`" + ` | ` + "`TYPE_NO_EFFECT`" + ` (value unchanged) |
| ` + "`electron_type_into_editor`" + ` | the editor's text read back through its own model where the page exposes one, all of it (Ace: the editor its root carries, never the gutter's line numbers; Monaco: the page's ` + "`monaco.editor`" + ` instance of that root; CodeMirror 6: the view found from its content element; ProseMirror (and Tiptap on it): the document of the view its editable element carries; Lexical: the state of the editor its root element carries; those two one line a block, as typed, so a block handle, widget or node-view chrome drawn beside the text is not read as text), else from what it draws (Quill, and the others without a reachable model) and compared exactly: ` + "`exact`" + `, or ` + "`partial`" + ` with ` + "`checked_lines`" + ` when only the lines in view can be read; ` + "`read_from`" + ` says ` + "`model`" + ` or ` + "`drawn`" + `; xterm.js: ` + "`delivered`" + ` (its paste handler took the text) | ` + "`TYPE_MISMATCH`" + ` with the observed text and ` + "`read_from`" + ` (never retype blindly; read from a rich-text editor's blocks, the hint says its decorations may be what differs); ` + "`TYPE_NO_EFFECT`" + ` when nothing went in |
| ` + "`electron_keyboard_type`" + ` | each stroke goes once the page has run what the last one scheduled (a page turn, ADR-042: a controlled input, downshift's, keeps every key), and the check reads the page after the last one's turn: with a text target, its text changed; or, when the field ends as it was (react-select and downshift clear their input as Enter chooses), what the page shows changed (every text and form value in view, with its box): ` + "`effect`" + ` names it | ` + "`TYPE_NO_EFFECT`" + ` (the field and everything in view as before) |
| ` + "`electron_clear_input`" + ` | the value (or the editor's text, Lexical's too) is empty afterwards | ` + "`TYPE_NO_EFFECT`" + ` |
| ` + "`electron_check`" + ` / ` + "`electron_uncheck`" + ` | the element's checked state afterwards (a web component's own ` + "`checked`" + ` property first) | ` + "`TYPE_NO_EFFECT`" + ` (the page undid it) |
| ` + "`electron_select_option`" + ` | the select's chosen values afterwards | ` + "`TYPE_NO_EFFECT`" + ` |
| ` + "`electron_set_value`" + ` | the value read back: an input's ` + "`value`" + ` (range, number, date, time, datetime-local, month, week, color), an ARIA slider's or spinbutton's ` + "`aria-valuenow`" + ` after each of its keys (rc-slider), or the value its ElementInternals hold when the host carries no attribute (Fluent UI web components) | ` + "`BAD_ARGUMENT`" + ` (a value the input does not take, naming its format), ` + "`altered:true`" + ` (snapped to step, min or max), ` + "`TYPE_MISMATCH`" + ` (a slider's steps pass over the value; the nearest are named), ` + "`TYPE_NO_EFFECT`" + ` |
| ` + "`electron_set_files`" + ` | the files the input holds afterwards (returned) | ` + "`FILE_NOT_FOUND`" + `, ` + "`BAD_ARGUMENT`" + ` |
| ` + "`electron_drop_file`" + ` | the page accepted the drop (its dragover was cancelled; ` + "`default_prevented`" + ` says whether it handled the drop) | ` + "`TYPE_NO_EFFECT`" + ` |
| ` + "`electron_drag`" + ` | within a list: the dragged item's index equals the target's former index, read from the DOM after the order settles: it held still for three frames and no drop animation runs on the list or the item (@hello-pangea/dnd reorders only after its drop animation; ` + "`order`" + ` returned); otherwise the drop events the page saw, or that the page moved the source beside or into the target; else a pointer drag compares what the page shows (every text and form value in view, with its box) before and after: changed but unexplained is ` + "`ok`" + ` with ` + "`verified:false`" + ` and ` + "`changed_count`" + ` | ` + "`DRAG_NO_EFFECT`" + ` (order unchanged, or nothing the page shows changed), ` + "`DRAG_MISPLACED`" + ` (with the observed order), ` + "`TYPE_NO_EFFECT`" + ` (the page refused the HTML drag) |
| ` + "`electron_scroll`" + ` | the scroll positions before and after (returned) | — (the numbers say it) |
| ` + "`electron_scroll_into_view`" + ` | the element is rendered, visible and in the viewport (virtualized lists are scrolled until it renders) | ` + "`ELEMENT_NOT_FOUND`" + ` / ` + "`SELECTOR_NO_MATCH`" + ` with how far it scrolled; a grid (AG Grid, react-data-grid) is searched in both axes, jumping to the row and column its aria indexes point at, and answers not found only after every row and column was searched (` + "`details.searched`" + `: ` + "`rows and columns`" + `), never that a cell it holds does not exist |
| ` + "`electron_key`" + ` / ` + "`electron_press_sequence`" + ` | the keys were dispatched to the focused element of the surface; a dialog opened by a key is reported | — (use a wait or an expectation for the key's effect) |
| ` + "`electron_navigate`" + ` | the window's URL and title after the chosen load event | ` + "`BAD_ARGUMENT`" + ` (refused URL), a timeout code |
| ` + "`electron_switch_window`" + ` / ` + "`electron_switch_surface`" + ` | the window was brought to the front before it is recorded as active | ` + "`SURFACE_CLOSED`" + `, ` + "`SURFACE_NOT_FOUND`" + ` |
| ` + "`electron_dialog_handler`" + ` | the browser took the answer (` + "`Page.handleJavaScriptDialog`" + `); ` + "`open`" + ` lists what still waits, kept from the browser's dialog events | the browser's refusal, with a code |
| ` + "`electron_stop`" + ` | launched: no process of the app remains; attached: our sockets are closed and the app runs on (` + "`action`" + ` says which) | ` + "`escalated`" + ` says SIGTERM/SIGKILL were needed |
| waits and ` + "`electron_expect_*`" + ` | the condition polled inside the renderer until it holds | a timeout code with the last observed value |

Every action that takes a ref first checks that the ref's element still shows the role and name you
were last shown (` + "`REF_STALE`" + ` otherwise; ` + "`allowChanged: true`" + ` acts anyway and reports ` + "`ref_changed`" + `), and
every tool that needs a window's page answers ` + "`DIALOG_OPEN`" + ` at once while a JavaScript dialog blocks it.
A page whose renderer is stuck in a script (` + "`while(true){}`" + `) answers no trivial evaluation: every
tool that needs it answers ` + "`PAGE_UNRESPONSIVE`" + ` within about 3 s (1 s once known), not the backstop;
` + "`electron_reload`" + ` (and ` + "`electron_navigate`" + `, ` + "`electron_go_back`" + `/` + "`electron_go_forward`" + `) first end the script
(` + "`Runtime.terminateExecution`" + `) and say ` + "`stopped_script: true`" + `. The same holds for a selected
cross-site iframe whose own renderer is stuck (` + "`frame_target_id`" + ` in the details): its script is
ended on the frame's own target.

`
