// editors.js: code and rich-text editors for the typing tools.
//
// An editor is found from the DOM alone (no page globals: apps do not
// expose them): Monaco (.monaco-editor; its input is the EditContext
// div.native-edit-context or the hidden textarea.inputarea), CodeMirror 6
// (.cm-editor / .cm-content), xterm.js (.xterm and its
// textarea.xterm-helper-textarea), Quill (.ql-editor) and ProseMirror
// (.ProseMirror), Lexical ([data-lexical-editor]), Ace (.ace_editor and its
// textarea.ace_text-input). Text goes in as a paste: a ClipboardEvent carrying
// text/plain, dispatched on the editor's input element, which each of them
// handles as a user's paste (no auto-indent, no closing brackets). What the
// editor holds afterwards is read back from what it draws, and says how
// much of the document that is (editors draw only the lines in view).

var _edRaf = window.requestAnimationFrame.bind(window);
var _edSetTimeout = window.setTimeout.bind(window);
var _ClipboardEvent = window.ClipboardEvent, _EdDataTransfer = window.DataTransfer;

// editFieldInfo(el) is {kind, text}: what el takes text as ('value',
// 'editable' or '') and what it holds; actions.js sets it.
var editFieldInfo = null;

// EDITORS are the editors known by their DOM, most specific first: the
// selector of their root, and of their input element inside it.
var EDITORS = [
  { kind: 'monaco', root: '.monaco-editor', input: '.native-edit-context, textarea.inputarea' },
  { kind: 'xterm', root: '.xterm', input: 'textarea.xterm-helper-textarea' },
  { kind: 'codemirror', root: '.cm-editor', input: '.cm-content' },
  { kind: 'quill', root: '.ql-container', input: '.ql-editor' },
  { kind: 'prosemirror', root: '.ProseMirror', input: '.ProseMirror' },
  { kind: 'lexical', root: '[data-lexical-editor]', input: '[data-lexical-editor]' },
  { kind: 'ace', root: '.ace_editor', input: 'textarea.ace_text-input' }
];

var EDITOR_ROOTS = EDITORS.map(function (d) { return d.root; }).join(', ');

// editorOf is the editor el belongs to (el is inside its root) or, when
// el holds exactly one editor, that one: {kind, root, input, mode}; null
// for anything else. (One closest() and, for an element that is not
// inside an editor, one querySelector(): it runs at every look of an
// action.)
function editorOf(el) {
  if (!el || el.nodeType !== ELEMENT_NODE) return null;
  var root = el.closest(EDITOR_ROOTS);
  var inside = !!root;
  if (!root) {
    if (el === document.body || el === document.documentElement) return null;
    root = el.querySelector(EDITOR_ROOTS);
    if (!root) return null;
  }
  // The innermost editor (a ProseMirror inside something else) is the
  // one that counts; from outside, exactly one must be there.
  for (var i = 0; i < EDITORS.length; i++) {
    var d = EDITORS[i];
    if (!root.matches(d.root)) continue;
    if (!inside && el.querySelectorAll(d.root).length !== 1) return null;
    return editorAt(d, root, inside ? el : null);
  }
  return null;
}

function editorAt(d, root, el) {
  var input = root.matches(d.input) ? root : root.querySelector(d.input);
  if (!input) return null;
  // A field inside an editor (Monaco's find box) is a field of its own.
  if (el && el !== input && (el.localName === 'input' || el.localName === 'textarea')) return null;
  var ed = { kind: d.kind, root: root, input: input, mode: '' };
  if (d.kind === 'monaco') ed.mode = input.localName === 'textarea' ? 'textarea' : 'editcontext';
  return ed;
}

// editorFace is what a pointer action on el should aim at: an editor's
// hidden input (Monaco's and xterm's, often 0 px wide; another editor's
// when it has no box) stands for the part of the editor that shows its
// text; anything else is itself.
// An element that holds an editor (the element it was mounted in, which
// may be larger than the editor) stands for that part too.
function editorFace(el) {
  var ed = editorOf(el);
  if (!ed) return el;
  var holder = el !== ed.root && el.contains(ed.root);
  if (!holder) {
    if (el !== ed.input && !ed.input.contains(el)) return el;
    // Monaco's and xterm's input elements are never what shows the text
    // (Monaco moves and sizes its own under the caret).
    if (ed.kind !== 'monaco' && ed.kind !== 'xterm') {
      var r = el.getBoundingClientRect();
      if (r.width >= 2 && r.height >= 2) return el;
    }
  }
  var face = null;
  if (ed.kind === 'monaco') face = ed.root.querySelector('.view-lines');
  else if (ed.kind === 'xterm') face = ed.root.querySelector('.xterm-screen');
  else face = ed.input;
  return face || ed.root;
}

// editorFocused says whether the focus is in the editor.
function editorFocused(ed) {
  var act = deepActive();
  return !!act && composedContains(ed.root, act);
}

function edLater(s, work) {
  var finish = function (o) {
    o.n = s.next;
    if (s.memo.length) { o.m = s.memo.join('\u001e'); s.memo = []; }
    return o;
  };
  return work().then(function (r) { return finish({ r: r }); }, function (err) { return finish({ e: errorOut(err) }); });
}

// afterFrames resolves after n animation frames (editors draw a change at
// the next frame), each bounded by 100 ms for a page that does not render.
function afterFrames(n) {
  return new Promise(function (resolve) {
    var step = function () {
      if (n-- <= 0) return resolve();
      var done = false;
      var go = function () { if (!done) { done = true; step(); } };
      _edRaf(go);
      _edSetTimeout(go, 100);
    };
    step();
  });
}

// ---- reading what an editor holds ----

function nbspToSpace(s) { return s.replace(/\u00a0/g, ' '); }

// monacoLine is a drawn line's text: spaces and tabs Monaco draws as
// marks (renderWhitespace) are spaces and tabs again; other tabs it draws
// as spaces (the comparison allows for that).
function monacoLine(el) {
  var t = '';
  var spans = el.querySelectorAll('span');
  var leaf = false;
  for (var i = 0; i < spans.length; i++) {
    var sp = spans[i];
    if (sp.querySelector('span')) continue;
    leaf = true;
    var x = sp.textContent || '';
    if (sp.classList.contains('mtkw') || sp.classList.contains('mtkz')) {
      x = x.replace(/[\u00b7\u2e31]\u200c/g, ' ').replace(/[\u2192\uffeb]\u00a0*/g, '\t');
    }
    t += x;
  }
  if (!leaf) t = el.textContent || '';
  return nbspToSpace(t);
}

// monacoLines reads the lines Monaco draws, in order, and whether they
// are the document's first and last lines: the first drawn line is line 1
// when it sits at the top of the content (top:0), and the last drawn line
// is the document's last when empty space follows it in the viewport. The
// caret's line ends an insertion. With line numbers shown, a wrapped
// line's rows (no number of their own) are joined again.
function monacoLines(ed) {
  var nodes = ed.root.querySelectorAll('.view-lines > .view-line');
  var rows = [];
  for (var i = 0; i < nodes.length; i++) {
    var top = parseFloat(nodes[i].style.top);
    rows.push({ top: isNaN(top) ? i : top, el: nodes[i] });
  }
  rows.sort(function (a, b) { return a.top - b.top; });
  var out = { lines: [], at_start: false, at_end: false, contiguous: true, caret: -1 };
  if (!rows.length) return out;
  var lh = rows[0].el.getBoundingClientRect().height || parseFloat(rows[0].el.style.height) || 0;
  // The gutter's numbers by row top ('' on a wrapped line's later rows).
  // (A later row has no number element at all; with line numbers off no
  // row has one.)
  var numbers = {}, numbered = false;
  var cells = ed.root.querySelectorAll('.margin-view-overlays > div');
  for (var g = 0; g < cells.length; g++) {
    var ln = cells[g].querySelector('.line-numbers');
    if (ln) numbered = true;
    numbers[parseFloat(cells[g].style.top)] = ln ? (ln.textContent || '').trim() : '';
  }
  if (!numbered) numbers = null;
  var cur = ed.root.querySelector('.cursors-layer .cursor');
  var ct = cur ? parseFloat(cur.style.top) : NaN;
  var caretRow = -1;
  for (var j = 0; j < rows.length; j++) {
    if (j > 0 && lh && Math.abs(rows[j].top - rows[j - 1].top - lh) > 0.5) out.contiguous = false;
    if (!isNaN(ct) && Math.abs(rows[j].top - ct) < 1) caretRow = j;
    var text = monacoLine(rows[j].el);
    var num = numbers ? numbers[rows[j].top] : undefined;
    if (numbers && num === '') {
      // A later row of a wrapped line.
      // (A wrapped line whose start is out of view is left out.)
      if (out.lines.length) out.lines[out.lines.length - 1] += text;
    } else {
      out.lines.push(text);
    }
    if (caretRow === j) out.caret = out.lines.length - 1;
  }
  out.at_start = rows[0].top === 0;
  var view = ed.root.querySelector('.editor-scrollable') || ed.root.querySelector('.monaco-scrollable-element') || ed.root;
  var vb = view.getBoundingClientRect();
  var lb = rows[rows.length - 1].el.getBoundingClientRect();
  out.at_end = lh > 0 && lb.bottom + lh / 2 <= vb.bottom;
  return out;
}

// codemirrorLines reads the lines CodeMirror draws: the lines of
// .cm-content after its last gap (CodeMirror leaves the lines out of view
// as gaps in long documents).
function codemirrorLines(ed) {
  var kids = ed.input.children;
  var out = { lines: [], at_start: true, at_end: true, contiguous: true };
  for (var i = 0; i < kids.length; i++) {
    var k = kids[i];
    if (k.classList.contains('cm-line')) { out.lines.push(k.textContent || ''); continue; }
    if (k.classList.contains('cm-gap')) {
      if (i === kids.length - 1) out.at_end = false;
      out.at_start = false;
      out.lines = [];
    }
  }
  return out;
}

// blockLines reads an editing host whose children are its lines (Quill,
// ProseMirror): each block's text, a list or code-block container's
// items one by one.
function blockLines(host) {
  var lines = [];
  var walk = function (el) {
    for (var i = 0; i < el.children.length; i++) {
      var c = el.children[i];
      if (c.getAttribute('contenteditable') === 'false' && !c.textContent) continue;
      if (/^(ol|ul)$/.test(c.localName) || c.classList.contains('ql-code-block-container')) { walk(c); continue; }
      lines.push(textOfBlock(c));
    }
  };
  walk(host);
  return { lines: lines, at_start: true, at_end: true, contiguous: true };
}

// aceLines reads an Ace editor's text through the editor its root element
// carries (Ace sets root.env.editor: the page's own model, all of it),
// else from its text layer only (never the gutter's line numbers), which
// draws the lines in view.
function aceLines(ed) {
  var env = ed.root.env;
  var model = env && env.editor && typeof env.editor.getValue === 'function' ? env.editor : null;
  if (model) {
    var lines = String(model.getValue()).split(/\r?\n/);
    var pos = typeof model.getCursorPosition === 'function' ? model.getCursorPosition() : null;
    return { lines: lines, at_start: true, at_end: true, contiguous: true, caret: pos ? pos.row : -1, model: true };
  }
  var rows = ed.root.querySelectorAll('.ace_text-layer > .ace_line, .ace_text-layer .ace_line_group');
  var out = { lines: [], at_start: false, at_end: false, contiguous: false, caret: -1 };
  for (var i = 0; i < rows.length; i++) out.lines.push(nbspToSpace(rows[i].textContent || ''));
  return out;
}

// textOfBlock is a block's text without the editor's decorations
// (Quill's list markers are contenteditable=false).
function textOfBlock(el) {
  var t = '';
  var walk = function (n) {
    for (var c = n.firstChild; c; c = c.nextSibling) {
      if (c.nodeType === 3) t += c.data;
      else if (c.nodeType === ELEMENT_NODE) {
        if (c.getAttribute('contenteditable') === 'false') continue;
        if (c.localName === 'br') continue;
        walk(c);
      }
    }
  };
  walk(el);
  return nbspToSpace(t);
}

// modelText reads the whole text through the editor's own model when the
// page exposes it (issue 28, point 4): Monaco's editor instance (the
// page's global monaco, its editor whose DOM node is this root),
// CodeMirror 6's view (found from the content element as
// EditorView.findFromDOM finds it), ProseMirror's document and Lexical's
// state (both found from the editable element). Ace's model is read
// by aceLines. null when there is none: the drawn lines are read instead.
function modelText(ed) {
  try {
    if (ed.kind === 'monaco') {
      var m = window.monaco, eds = m && m.editor && typeof m.editor.getEditors === 'function' ? m.editor.getEditors() : [];
      for (var i = 0; i < eds.length; i++) {
        var node = typeof eds[i].getDomNode === 'function' ? eds[i].getDomNode() : null;
        if (node && (node === ed.root || ed.root.contains(node) || node.contains(ed.root))) {
          var model = eds[i].getModel();
          if (model && typeof model.getValue === 'function') return String(model.getValue());
        }
      }
    }
    if (ed.kind === 'codemirror') {
      // EditorView.findFromDOM's way: the content element's tile (6.4x:
      // cmTile, its root's view) or, before, its cmView's view.
      var tile = ed.input.cmTile, view = (tile && tile.root && tile.root.view) || (ed.input.cmView && ed.input.cmView.view);
      if (view && view.state && view.state.doc && typeof view.state.doc.toString === 'function') return view.state.doc.toString();
    }
    if (ed.kind === 'prosemirror') return proseMirrorText(ed.input);
    if (ed.kind === 'lexical') return lexicalText(ed.root);
  } catch (e) {
    // A model that throws is no model: the drawn lines answer.
  }
  return null;
}

// proseMirrorText is a ProseMirror document's text, its blocks separated
// by "\n" as the lines typed into it, hard breaks as "\n": the document
// is the node of the view's description of its editable element
// (prosemirror-view sets dom.pmViewDesc; its node is view.state.doc once
// drawn; editors built on it, Tiptap's, have the same). Widgets and
// node-view chrome are drawn, not in the document.
function proseMirrorText(dom) {
  var desc = dom.pmViewDesc;
  var doc = desc && desc.dom === dom ? desc.node : null;
  if (!doc || !doc.content || typeof doc.textBetween !== 'function') return null;
  return doc.textBetween(0, doc.content.size, '\n', function (leaf) {
    var spec = leaf.type && leaf.type.spec;
    if (spec && typeof spec.leafText === 'function') return spec.leafText(leaf);
    return leaf.isInline && /break/i.test(leaf.type.name) ? '\n' : '';
  });
}

// lexicalText is a Lexical editor's text through its own state (the
// editor is on its root element as __lexicalEditor): its blocks'
// text content separated by "\n" as the lines typed into it (Lexical's
// own root text joins paragraphs with a blank line); a block of blocks (a
// list, a quote of paragraphs) gives one line a block. Decorations and
// chrome outside a node's DOM slot are drawn, not in the state.
function lexicalText(root) {
  var lx = root.__lexicalEditor;
  var st = lx && typeof lx.getEditorState === 'function' ? lx.getEditorState() : null;
  var map = st && st._nodeMap;
  if (!map || typeof map.get !== 'function' || typeof st.read !== 'function') return null;
  var top = map.get('root');
  if (!top || typeof top.getChildren !== 'function') return null;
  var isBlock = function (n) { return typeof n.getChildren === 'function' && typeof n.isInline === 'function' && !n.isInline(); };
  var lines = function (n, out) {
    var kids = n.getChildren();
    for (var i = 0; i < kids.length; i++) {
      var k = kids[i];
      if (isBlock(k) && k.getChildren().some(isBlock)) lines(k, out);
      else out.push(k.getTextContent());
    }
    return out;
  };
  return st.read(function () { return lines(top, []).join('\n'); }, { editor: lx });
}

// editorText is what the editor shows of its text: {lines, at_start,
// at_end, contiguous} (readable: false for a terminal, whose screen is the
// application's output, not its input), or its whole text (whole) when
// its model is readable.
function editorText(ed) {
  var whole = modelText(ed);
  if (whole !== null) return { readable: true, whole: whole.replace(/\r\n?/g, '\n'), lines: [], at_start: true, at_end: true, contiguous: true, model: true };
  var r;
  switch (ed.kind) {
    case 'monaco': r = monacoLines(ed); break;
    case 'codemirror': r = codemirrorLines(ed); break;
    case 'quill': case 'prosemirror': case 'lexical': r = blockLines(ed.input); break;
    case 'ace': r = aceLines(ed); break;
    default: return { readable: false, lines: [] };
  }
  r.readable = true;
  return r;
}

// terminalScreen is what a terminal draws (its DOM renderer's rows), to
// see whether anything changed after input.
function terminalScreen(ed) {
  var rows = ed.root.querySelector('.xterm-rows');
  return rows ? rows.textContent : null;
}

// ---- operations ----

// editorState: the editor a locator names (kind, mode), whether the focus
// is in it, what the focused element takes text as, and its text as
// drawn, once the editor has drawn (after two frames).
OPS.editorState = function (s, a) {
  var el = locate(s, a);
  return edLater(s, function () {
    return afterFrames(2).then(function () { return editorStateOf(el); });
  });
};

function editorStateOf(el) {
  var act = deepActive();
  var out = { kind: '', mode: '', focused: false, focus_kind: act ? editFieldInfo(act).kind : '' };
  var ed = editorOf(el);
  if (!ed) {
    out.focused = !!act && (act === el || composedContains(el, act));
    out.text = { lines: [], readable: false };
    // A field's value; else the text the element draws (an editing
    // host, or an editor not known here), which may show spacing its own
    // way.
    var tt = editFieldInfo(el);
    var whole = tt.kind ? tt.text : nbspToSpace(el.innerText || '');
    out.text = { readable: true, whole: whole, drawn: tt.kind !== 'value', lines: [], at_start: true, at_end: true, contiguous: true };
    return out;
  }
  out.kind = ed.kind;
  out.mode = ed.mode;
  out.focused = editorFocused(ed);
  out.text = editorText(ed);
  if (ed.kind === 'xterm') out.screen = terminalScreen(ed);
  return out;
}

// editorPaste pastes a.text into the editor a locator names: a paste
// event with a DataTransfer holding text/plain, on the focused element
// when the focus is in the editor, else on its input element (focused
// first). handled says the editor took it: its handler cancelled the
// event or stopped it (xterm stops it), so it never reached the window.
OPS.editorPaste = function (s, a) {
  var ed = editorOf(locate(s, a));
  if (!ed) return { kind: '', handled: false };
  if (!editorFocused(ed) && typeof ed.input.focus === 'function') ed.input.focus();
  var target = editorFocused(ed) ? deepActive() : ed.input;
  var dt = new _EdDataTransfer();
  dt.setData('text/plain', a.text || '');
  var ev = new _ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true, composed: true });
  var reached = false;
  var seen = function (e) { if (e === ev) reached = true; };
  window.addEventListener('paste', seen, false);
  try {
    target.dispatchEvent(ev);
  } finally {
    window.removeEventListener('paste', seen, false);
  }
  return { kind: ed.kind, handled: ev.defaultPrevented || !reached, prevented: ev.defaultPrevented, target: target.localName + (target.className && typeof target.className === 'string' ? '.' + target.className.split(/\s+/)[0] : '') };
};

// editorFocus focuses an editor's input element without a click (a
// terminal: a click can reach the application as mouse input).
OPS.editorFocus = function (s, a) {
  var ed = editorOf(locate(s, a));
  if (!ed) fail('BAD_ARGUMENT', 'the element is not inside an editor', { field: 'selector' });
  if (typeof ed.input.focus === 'function') ed.input.focus();
  return { focused: editorFocused(ed) };
};
