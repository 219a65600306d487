package tool

// The interaction tools (registered here) and what they share: the
// element and timeout arguments, the window that takes input. Each
// concern has its own file: pointer.go (where a point lies, covers,
// receipts), click.go, typing.go, editors.go, keys.go, forms.go,
// filetools.go, drag.go, scroll.go, dialogwatch.go.

const actionabilityNote = " Before acting it waits (timeoutMs, default 5000, max 30000) until the element is attached, visible, stable (same box in two animation frames), enabled, scrolled into view and receives the pointer at its centre. Errors: SELECTOR_NO_MATCH / REF_NOT_FOUND (no such element), REF_STALE at once (the ref's element now shows another item than you last saw; allowChanged:true acts anyway), ELEMENT_NOT_VISIBLE (hidden, moving, or covered — the message names the cover), ELEMENT_DISABLED."

func registerInteract(s *Server) {
	define(s, Def{
		Name: "electron_click", Title: "Click", Profiles: "ETD", Class: classAction, Session: true,
		Effects: Effects{Does: kAct},
		Short:   "Click an element or point with real mouse events. Verified: the press reached it, else an error names what took it.",
		Desc:    "Click an element of the active surface (ref or selector) or a point (x, y) with real mouse events on its window, so the browser's own hit-testing decides what receives it. An element is clicked at the centre of its first box, or at position {x, y} (CSS pixels from the top-left corner of its border box; outside the box is BAD_ARGUMENT). x/y are CSS pixels of the active surface's own viewport (for a frame surface, of that frame: converted through the frame offsets; outside the viewport, negative or not finite is BAD_ARGUMENT naming the field), for what has no element of its own: canvas charts, design canvases, terminals. What covers the element or point in its own document (elements only) or its frame in an enclosing document is waited for before anything is sent. Verified: the press reached the element (for x/y: the element that was at the point, named in target {tag, id, role, name, selector, ref}; when it lies over another element there that is not its ancestor, over names that one: an overlay got the click); a click taken by something else is an error naming it, never a silent miss. button (left|right|middle), clickCount (2 = double click), modifiers held (Alt, Control, Meta, Shift)." + actionabilityNote + " force:true skips the checks (the browser still hit-tests). A click whose handler opens a JavaScript dialog returns at once with dialog_opened {type, message}: the page waits for the dialog's answer.",
	}, click)
	define(s, Def{
		Name: "electron_hover", Title: "Hover", Profiles: "TD", Class: classAction, Session: true,
		Effects: Effects{Does: kSelect},
		Short:   "Move the mouse onto an element or point (menus, tooltips). Verified: it saw the mouse arrive.",
		Desc:    "Move the mouse over an element of the active surface (real mouse events), e.g. to open a hover menu or show a tooltip: at its centre, at position {x, y} within it (from the top-left corner of its border box), or at a point x/y of the active surface's viewport (as electron_click takes them; target names the element there). Verified: the element's document saw the mouse arrive on it (a move taken by something else is an error naming it)." + actionabilityNote,
	}, hover)
	define(s, Def{
		Name: "electron_type", Title: "Set a field's text", Profiles: "ETD", Class: classAction, Session: true,
		Effects: Effects{Does: kSet},
		Short:   "Set a field's whole text, as a paste; verified by reading it back. Keys: electron_keyboard_type; editors: electron_type_into_editor.",
		Desc:    "Set the text of a text field, textarea or contenteditable (ref or selector) as a paste would: the value is replaced, then input and change fire (frameworks such as React see it); verified by reading the value back (altered:true when the page changed the text, e.g. a mask or maxlength; TYPE_NO_EFFECT when it did not change: the page rejected or reset it). On a code or rich-text editor or a terminal (Monaco, CodeMirror 6, Quill, ProseMirror, Lexical, xterm.js; their hidden input elements too), and on an editing host that does not take a scripted edit (an editor that owns its DOM), it does what electron_type_into_editor with replace:true does (a terminal: sends the text) and answers as it does. Waits until the element is visible, enabled and editable (timeoutMs).",
	}, typeText)
	define(s, Def{
		Name: "electron_keyboard_type", Title: "Type with key events", Profiles: "TD", Class: classAction, Session: true,
		Effects: Effects{Does: kAct},
		Short:   "Type text as real key events into the element given (focused first) or the focused one. To set a field's text: electron_type.",
		Desc:    "Type text with real key events, one keydown/keyup per character (characters with no US key go in as IME text), into the element given by ref or selector (focused first, caret at the end) or into whatever has the focus. Use it when a page reacts to keys (autocomplete, shortcuts) or rejects electron_type. With a text target, TYPE_NO_EFFECT when its text did not change.",
	}, keyboardType)
	define(s, Def{
		Name: "electron_type_into_editor", Title: "Type into a code or rich-text editor", Profiles: "TD", Class: classAction, Session: true,
		Effects: Effects{Does: kSet},
		Short:   "Put exact text into a code or rich-text editor or terminal (Monaco, CodeMirror, xterm…); verified by reading it back.",
		Desc:    "Put exact text into a code or rich-text editor or a terminal (ref or selector: the editor, its mount element or its input element). Known editors, by their DOM: Monaco (EditContext and textarea modes), CodeMirror 6, Quill, ProseMirror, Lexical, Ace (read through the editor its root carries), xterm.js; anything else that takes text counts as a plain field or editing host. The editor is clicked into like a user (TYPE_NO_EFFECT when that puts the focus in nothing that takes text); replace:true selects everything first (Control/Meta+A), else the caret goes to the end (Control/Meta+End); the text goes in as one paste (a paste event carrying text/plain on the editor's input element), so the editor's typing rules (auto-indent, closing brackets) do not rewrite it; a plain field or editing host gets it as one input-method insertion (Input.insertText), as does an editor that ignores the paste where that is exact. editor and path in the answer say which. Then the editor's text is read back from what it draws and compared: match/verified \"exact\" when all of it was read and equals the expected text exactly; \"partial\" when the editor draws only the lines in view (long texts in Monaco or CodeMirror): the drawn lines that end the text equal it (checked_lines) and the rest was not read; \"ignoring white space\" only for elements not known as editors whose drawn text spaces differently. Any difference is TYPE_MISMATCH with the observed text: the text went in, so do not type it again blindly. A terminal (xterm.js) gets no click and no key: its input element is focused and the paste goes to the application as one piece (line breaks as carriage returns, as Enter sends; bracketed when the application asked); verified \"delivered\" means the terminal's paste handler took it (what the application received is not readable), echoed says whether the screen changed; replace is BAD_ARGUMENT there. To go through an editor's typing rules key by key, use electron_keyboard_type instead (not after this tool: the text would go in twice).",
	}, typeIntoEditor)
	define(s, Def{
		Name: "electron_key", Title: "Press a key or chord", Profiles: "ETD", Class: classAction, Session: true,
		Effects: Effects{Does: kAct},
		Short:   "Press a key or chord with real key events into the element (focused first) or the focused one. Several: electron_press_sequence.",
		Desc:    "Press a key or chord (Enter, Tab, Escape, ArrowDown, Control+Shift+P, Meta+K, Shift+Tab…) with real key events in the active surface; with ref or selector that element is focused first (waiting until it is visible and enabled), else the surface's frame gets the focus and the key goes to whatever is focused there. A key that opens a JavaScript dialog returns at once with dialog_opened.",
	}, key)
	define(s, Def{
		Name: "electron_press_sequence", Title: "Press keys in order", Profiles: "TD", Class: classAction, Session: true,
		Effects: Effects{Does: kAct},
		Short:   "Press keys or chords in order, into the element given (focused first) or the focused one. Text: electron_keyboard_type.",
		Desc:    "Press keys one after another (keys: [\"Control+A\", \"Backspace\", \"Enter\"]), each a key or chord as electron_key takes, optionally focusing ref or selector first; delayMs between keys (default 0, max 1000).",
	}, pressSequence)
	define(s, Def{
		Name: "electron_clear_input", Title: "Empty a field", Profiles: "TD", Class: classAction, Session: true,
		Effects: Effects{Does: kSet},
		Short:   "Empty a field or editor; verified empty.",
		Desc:    "Empty a text field, textarea or contenteditable (ref or selector); input and change fire. TYPE_NO_EFFECT when the page kept a value. On a code or rich-text editor (Monaco, CodeMirror 6, Quill, ProseMirror, Lexical) or an editing host that does not take a scripted edit, it selects everything and presses Backspace, verified as electron_type_into_editor verifies.",
	}, clearInput)
	define(s, Def{
		Name: "electron_check", Title: "Check a checkbox", Profiles: "ETD", Class: classAction, Session: true,
		Effects: Effects{Does: kSet},
		Short:   "Check a checkbox, radio or switch, clicking only if needed; verified checked.",
		Desc:    "Check a checkbox, radio or switch (ref or selector; a label works too): clicks it only when it is not checked, then verifies it is (TYPE_NO_EFFECT when the page undid it)." + actionabilityNote,
	}, checkBox)
	define(s, Def{
		Name: "electron_uncheck", Title: "Uncheck a checkbox", Profiles: "ETD", Class: classAction, Session: true,
		Effects: Effects{Does: kSet},
		Short:   "Uncheck a checkbox or switch, clicking only if needed; verified unchecked.",
		Desc:    "Uncheck a checkbox or switch (ref or selector): clicks it only when it is checked, then verifies it is not. A radio cannot be unchecked (check another one of its group)." + actionabilityNote,
	}, uncheckBox)
	define(s, Def{
		Name: "electron_set_value", Title: "Set a value", Profiles: "TD", Class: classAction, Session: true,
		Effects: Effects{Does: kSet},
		Short:   "Set a range, date or color input, or an ARIA slider; verified. Text: electron_type.",
		Desc:    "Set the value of a control that holds one of its own (ref or selector): an <input> of type range, number, date, time, datetime-local, month, week or color gets the value whole, as a user's choice (input and change fire; a value the input does not take is BAD_ARGUMENT naming its format); an ARIA slider, spinbutton or scrollbar (role with aria-valuenow) is moved with its own keys (Home, End, arrows) as a keyboard user does. Verified by reading the value back (aria-valuenow): altered:true when an input snapped it to its step, min or max; TYPE_MISMATCH when a slider's steps pass over the value (the message names the nearest ones); TYPE_NO_EFFECT when the page reset it or the slider ignores its keys. Text fields take electron_type, selects electron_select_option, checkboxes electron_check.",
	}, setValue)
	define(s, Def{
		Name: "electron_select_option", Title: "Choose options of a select", Profiles: "ETD", Class: classAction, Session: true,
		Effects: Effects{Does: kSet},
		Short:   "Choose options of a native <select>; verified. A custom dropdown: electron_click.",
		Desc:    "Choose options of a <select> (ref or selector): values[] are matched against option values first, then visible labels (case-insensitive), so [\"b\"] and [\"Banana\"] both work; several values for a multiple select (the others are deselected; [] deselects all). input and change fire; the choice is verified (TYPE_NO_EFFECT when the page reset it). Waits until the select is visible and enabled.",
	}, selectOption)
	define(s, Def{
		Name: "electron_set_files", Title: "Set the files of a file input", Profiles: "T", Class: classAction, Session: true,
		Effects: Effects{Does: kSet, Reads: []string{"paths"}, Irreversible: true},
		Short:   "Set the files of an <input type=file>, even a hidden one. Drop zones: electron_drop_file.",
		Desc:    "Put files into an <input type=file> (ref or selector; it may be hidden, as styled file inputs are) as if the user chose them: paths[] are absolute paths of existing files under the allowed roots (ABSOLUTE_PATH_REQUIRED, FILE_NOT_FOUND, PATH_NOT_ALLOWED); [] empties it. change fires; returns the files the input holds.",
	}, setFiles)
	define(s, Def{
		Name: "electron_drop_file", Title: "Drop files onto an element", Profiles: "T", Class: classAction, Session: true,
		Effects: Effects{Does: kAct, Reads: []string{"paths"}, Irreversible: true},
		Short:   "Drop files onto a drop zone with drag events. File inputs: electron_set_files.",
		Desc:    "Drop files onto an element (a drop zone) with drag events carrying File objects built from the files' bytes (paths[] absolute, under the allowed roots; at most 8 MiB each, 16 MiB in all): dragenter, dragover, then drop when the page accepts it. Returns default_prevented (the page handled the drop itself); TYPE_NO_EFFECT when the page did not accept the drop there.",
	}, dropFile)
	define(s, Def{
		Name: "electron_drag", Title: "Drag and drop", Profiles: "T", Class: classAction, Session: true,
		Effects: Effects{Does: kAct},
		Short:   "Drag an element onto another with real input. Verified: a list reordered, an item moved or a drop accepted.",
		Desc:    "Drag an element (ref or selector) onto another (targetRef or targetSelector) in the active surface with real input, as a user's drag goes: the mouse presses the source and moves past the drag threshold; when the page starts an HTML drag there (the source or an ancestor is draggable, even if only since the press, as SortableJS makes it), the browser's own drag events carry it on (dragenter, a dragover at every step, drop at the target's centre: trusted, with the page's DataTransfer; mode \"html5\"), else the mouse keeps moving with the button held and is released at the target's centre (mode \"pointer\"). The steps (default: none skips more than a quarter of the smaller element, at least 10) are held 25 ms each and the last 150 ms, so libraries that sort by where the pointer has been see every item it passes. Verified: the press reached the source. For two children of one list (ul, ol, tbody, role list, listbox, grid, tree…, or a parent whose children the page moved during the drag; expect reorder or drop says it yourself) the target means the dragged item ends where the target item was: ok (reordered:true, index, order as the page shows it) only when it is there; DRAG_NO_EFFECT when the order did not change, DRAG_MISPLACED when the item went elsewhere, both with details.order. Otherwise, when the page moved the source (into another list, say), ok only when it went beside the target (into the target's parent) or into it (source_moved, source {parent, index}), else DRAG_MISPLACED with details.source; when it did not, an HTML drag must be dropped on a target that accepted it (TYPE_NO_EFFECT when the page cancelled dragstart or the target refused the drop), and a pointer drag is answered once the press reached the source (reordered:false says two siblings kept their order)." + actionabilityNote,
	}, drag)
	define(s, Def{
		Name: "electron_scroll", Title: "Scroll", Profiles: "ETD", Class: classAction, Session: true,
		Effects: Effects{Does: kAdd},
		Short:   "Turn the wheel by dx/dy at an element or the viewport; without dx/dy, scroll the element into view. Virtualized lists: electron_scroll_into_view.",
		Desc:    "Scroll the active surface: with ref or selector and no dx/dy, scroll that element into view; with dx/dy (CSS pixels, positive = down/right), turn the mouse wheel at the element's centre (scrolling whatever scrolls there, e.g. a list) or at the viewport's centre. Returns the scroll positions before and after.",
	}, scroll)
	define(s, Def{
		Name: "electron_scroll_into_view", Title: "Scroll an element into view", Profiles: "TD", Class: classAction, Session: true,
		Effects: Effects{Does: kSelect},
		Short:   "Bring an element into view through every scroller and frame, paging virtualized lists until it renders.",
		Desc:    "Scroll an element (ref, selector, or role and/or name / name_contains) into view: every scroll container and enclosing frame moves as needed. When nothing rendered matches a selector or a role/name, virtualized lists (those the snapshot shows with rows=/rows≈; listRef or listSelector names one) are scrolled page by page, checking after each step, until it renders (then it is scrolled into view and its ref returned) or the lists end: ELEMENT_NOT_FOUND (SELECTOR_NO_MATCH for a selector) says how far it scrolled. A grid is searched in both axes: when the name, or a selector's [attr=value] parts, follow the aria-rowindex/aria-colindex of its drawn rows and cells (AG Grid's r300c2, [row-id=\"1500\"] [col-id=\"c2\"]), it is scrolled straight to that row and column; otherwise its columns are swept at each row position, and ELEMENT_NOT_FOUND comes only after every row and column was searched (details.searched). Waits until it is visible (timeoutMs; default 5000, or 15000 when it must scroll a list); returns its ref, role, name and box in the viewport.",
	}, scrollIntoView)
}
