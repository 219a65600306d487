// dom.js: flat-tree traversal, styles, visibility and geometry.

var ELEMENT_NODE = 1, TEXT_NODE = 3;

// Elements whose content is never rendered as part of the page.
var SKIP_TAGS = new _Set(['script', 'style', 'template', 'head', 'meta', 'link',
  'title', 'noscript', 'base', 'datalist', 'param', 'source', 'track']);

// rendered returns the rendered child nodes of node: a shadow root's
// children for an open shadow host, a slot's assigned nodes (its fallback
// children when none are assigned), else the child nodes.
function rendered(node) {
  if (node.nodeType === ELEMENT_NODE) {
    if (node.shadowRoot) return node.shadowRoot.childNodes;
    if (node.localName === 'slot' && typeof node.assignedNodes === 'function') {
      var a = node.assignedNodes();
      if (a.length) return a;
    }
  }
  return node.childNodes;
}

// flatParent is the parent of el in the flat tree (crossing slots and
// shadow roots), or null.
function flatParent(el) {
  if (el.assignedSlot) return el.assignedSlot;
  var p = el.parentNode;
  if (p && p.nodeType === 11) return p.host || null; // ShadowRoot
  return p && p.nodeType === ELEMENT_NODE ? p : null;
}

// composedContains reports whether outer is el or a flat-tree ancestor of el.
function composedContains(outer, el) {
  for (var n = el; n; n = flatParent(n)) if (n === outer) return true;
  return false;
}

// A per-walk style cache: getComputedStyle is the walker's main cost, and
// the name computation revisits elements the walk has already styled.
function Styles() { this.m = new _Map(); }
Styles.prototype.of = function (el) {
  var s = this.m.get(el);
  if (s === undefined) { s = _getComputedStyle(el); this.m.set(el, s); }
  return s;
};

// isInlineDisplay reports whether a display value lays out inline (so that
// text on both sides joins without a space in names).
function isInlineDisplay(d) {
  return d.lastIndexOf('inline', 0) === 0 || d === 'contents' || d.lastIndexOf('ruby', 0) === 0;
}

// ariaHidden reports aria-hidden="true" on el itself.
function ariaHidden(el) {
  var v = el.getAttribute('aria-hidden');
  return v !== null && v.trim().toLowerCase() === 'true';
}

// hiddenForName reports whether el itself is hidden in the sense of
// accname (display:none, visibility:hidden/collapse, aria-hidden="true");
// opacity and off-screen do not hide. A traversal that goes down from a
// visible node meets a hidden ancestor before its descendants, so checking
// el alone is enough there; skipped content (closed <details>,
// content-visibility:hidden) is cut where the traversal meets it.
function hiddenForName(el, styles) {
  if (el.hasAttribute('aria-hidden') && ariaHidden(el)) return true;
  var s = styles.of(el);
  return s.display === 'none' || s.visibility !== 'visible';
}

// hiddenDeep is hiddenForName for a node reached by reference (aria-
// labelledby, a label, a describedby target), whose ancestors may hide it.
function hiddenDeep(el, styles) {
  if (hiddenForName(el, styles)) return true;
  for (var n = flatParent(el); n; n = flatParent(n)) if (ariaHidden(n)) return true;
  if (styles.of(el).display !== 'contents' && el.checkVisibility && !el.checkVisibility()) {
    var tag = el.localName;
    return tag !== 'option' && tag !== 'optgroup' && tag !== 'area' && tag !== 'br' && tag !== 'wbr';
  }
  return false;
}

// skipsChildren reports whether el renders none of its children
// (content-visibility:hidden).
function skipsChildren(el, style) {
  return style.contentVisibility === 'hidden';
}

// renderedChild reports whether child c of el is rendered at all: only the
// first <summary> of a closed <details> is.
function closedDetailsHides(el, c) {
  if (el.localName !== 'details' || el.open) return false;
  return !(c.nodeType === ELEMENT_NODE && c.localName === 'summary' && el.querySelector(':scope > summary') === c);
}

// isVisible is the "visible" state of reads and finds: rendered with a
// non-empty box and not visibility:hidden. Opacity does not count.
function isVisible(el) {
  if (!el.isConnected) return false;
  if (el.checkVisibility && !el.checkVisibility({ visibilityProperty: true })) {
    if (_getComputedStyle(el).display !== 'contents') return false;
  }
  var r = el.getBoundingClientRect();
  if (r.width > 0 && r.height > 0) return true;
  // display:contents and inline wrappers: any rendered child box counts.
  var rects = el.getClientRects();
  for (var i = 0; i < rects.length; i++) if (rects[i].width > 0 && rects[i].height > 0) return true;
  if (_getComputedStyle(el).display === 'contents') {
    var kids = el.children;
    for (var k = 0; k < kids.length; k++) if (isVisible(kids[k])) return true;
  }
  return false;
}

// normSpace turns text into a flat string: runs of ASCII whitespace become
// one space, and the ends are trimmed.
function normSpace(s) {
  return s.replace(/[ \t\n\r\f]+/g, ' ').trim();
}

// clip shortens s to at most n characters, marking the cut with "…".
function clip(s, n) {
  return s.length > n ? s.slice(0, n - 1) + '\u2026' : s;
}

// deepActive is the focused element, looking into open shadow roots; null
// when nothing but the body has focus.
function deepActive() {
  var a = document.activeElement;
  while (a && a.shadowRoot && a.shadowRoot.activeElement) a = a.shadowRoot.activeElement;
  if (!a || a === document.body || a === document.documentElement) return null;
  return a;
}

// idRefs resolves a space-separated IDREF list in el's tree scope.
function idRefs(el, value) {
  var out = [];
  if (!value) return out;
  var root = el.getRootNode();
  var get = root.getElementById ? root : document;
  var ids = value.trim().split(/\s+/);
  for (var i = 0; i < ids.length; i++) {
    if (!ids[i]) continue;
    var r = get.getElementById(ids[i]);
    if (r) out.push(r);
  }
  return out;
}

// docRect is el's bounding box in document coordinates (viewport + scroll),
// rounded to whole pixels.
function docRect(el) {
  var r = el.getBoundingClientRect();
  return { x: Math.round(r.left + window.scrollX), y: Math.round(r.top + window.scrollY), width: Math.round(r.width), height: Math.round(r.height) };
}

// cssPath is a short CSS selector that names el for a human: tag#id, or
// tag.class under a named ancestor, or an nth-of-type path of up to four
// steps.
function cssPath(el) {
  var parts = [];
  for (var n = el, i = 0; n && n.nodeType === ELEMENT_NODE && i < 4; n = n.parentElement, i++) {
    var tag = n.localName;
    if (n.id && /^[A-Za-z][\w-]*$/.test(n.id)) { parts.unshift(tag + '#' + n.id); break; }
    var step = tag;
    var cls = (n.getAttribute('class') || '').trim().split(/\s+/).filter(function (c) { return /^[A-Za-z_][\w-]*$/.test(c); });
    if (cls.length) step += '.' + cls.slice(0, 2).join('.');
    var p = n.parentElement;
    if (p) {
      var same = 0, idx = 0;
      for (var c = p.firstElementChild; c; c = c.nextElementSibling) {
        if (c.localName === tag) { same++; if (c === n) idx = same; }
      }
      if (same > 1) step += ':nth-of-type(' + idx + ')';
    }
    parts.unshift(step);
  }
  return parts.join(' > ');
}

// ---- selectors ----
//
// Selectors pierce open shadow roots, as Playwright's CSS selectors do: a
// descendant (" ") or child (">") combinator steps from an element at the
// top of a shadow tree to its host, so "sl-button#save button" matches the
// <button> inside the host's shadow root. ">>>" is accepted as an explicit
// descendant combinator that crosses shadow roots ("#save >>> button"
// means the same). Sibling combinators ("+", "~") stay within one tree, and
// so does everything inside a compound selector (":has()", ":is()" …).
// Matches in the document come first (in document order), then those in
// open shadow roots (each root in document order, outer roots first).
// Closed shadow roots are never entered.

// parseSelector splits a selector list into complex selectors, each a
// list of steps {comb, cmp}: comb joins the step to the one before it
// (' ', '>', '+', '~'; '' for the first) and cmp is a compound selector.
// Brackets, parentheses, strings and escapes are kept whole. It returns
// null for a list that is plainly malformed (an empty part or a dangling
// combinator); the browser judges the compounds themselves.
function parseSelector(sel) {
  var list = [], steps = [], cmp = '', comb = '', depth = 0, quoteCh = '';
  var flush = function () {
    if (!cmp) return true;
    if (steps.length && !comb) comb = ' ';
    steps.push({ comb: steps.length ? comb : '', cmp: cmp });
    cmp = ''; comb = '';
    return true;
  };
  for (var i = 0; i < sel.length; i++) {
    var ch = sel[i];
    if (quoteCh) {
      cmp += ch;
      if (ch === '\\' && i + 1 < sel.length) cmp += sel[++i];
      else if (ch === quoteCh) quoteCh = '';
      continue;
    }
    if (ch === '\\' && i + 1 < sel.length) { cmp += ch + sel[++i]; continue; }
    if (ch === '"' || ch === "'") { quoteCh = ch; cmp += ch; continue; }
    if (ch === '(' || ch === '[') { depth++; cmp += ch; continue; }
    if (ch === ')' || ch === ']') { depth--; cmp += ch; continue; }
    if (depth > 0) { cmp += ch; continue; }
    if (ch === ',') {
      flush();
      if (!steps.length || comb) return null;
      list.push(steps);
      steps = [];
      continue;
    }
    if (/[ \t\n\r\f]/.test(ch)) { if (cmp) flush(); continue; }
    if (ch === '>' || ch === '+' || ch === '~') {
      if (cmp) flush();
      if (!steps.length || (comb && comb !== ' ')) return null;
      if (ch === '>' && sel.substr(i, 3) === '>>>') { comb = ' '; i += 2; }
      else comb = ch;
      continue;
    }
    cmp += ch;
  }
  flush();
  if (!steps.length || comb) return null;
  list.push(steps);
  return list;
}

// plainSelector is the list written back with ">>>" as a descendant
// combinator: what the browser's own selector engine takes.
function plainSelector(list) {
  return list.map(function (steps) {
    return steps.map(function (st) { return (st.comb ? (st.comb === ' ' ? ' ' : ' ' + st.comb + ' ') : '') + st.cmp; }).join('');
  }).join(', ');
}

// Selector is a parsed selector. A malformed list throws a SyntaxError
// here; the browser's engine throws its own for a bad compound at the
// first query with plain (which the queries below always make first).
function Selector(sel) {
  var list = parseSelector(sel);
  if (!list) throw new SyntaxError('\'' + sel + '\' is not a valid selector');
  this.list = list;
  this.plain = plainSelector(list);
  var lasts = [];
  for (var i = 0; i < list.length; i++) lasts.push(list[i][list[i].length - 1].cmp);
  this.last = lasts.join(', ');
  this.crosses = false;
  for (var j = 0; j < list.length; j++) if (list[j].length > 1) this.crosses = true;
}

// composedParent is the parent element of el, or the host of the shadow
// root el sits at the top of.
function composedParent(el) {
  var p = el.parentNode;
  if (!p) return null;
  if (p.nodeType === 11) return p.host || null;
  return p.nodeType === ELEMENT_NODE ? p : null;
}

// matchesSteps reports whether el matches steps[0..i] with piercing
// descendant and child combinators.
function matchesSteps(el, steps, i) {
  if (!el.matches(steps[i].cmp)) return false;
  if (i === 0) return true;
  var comb = steps[i].comb, n;
  switch (comb) {
    case '>':
      n = composedParent(el);
      return !!n && matchesSteps(n, steps, i - 1);
    case '+':
      n = el.previousElementSibling;
      return !!n && matchesSteps(n, steps, i - 1);
    case '~':
      for (n = el.previousElementSibling; n; n = n.previousElementSibling) if (matchesSteps(n, steps, i - 1)) return true;
      return false;
  }
  for (n = composedParent(el); n; n = composedParent(n)) if (matchesSteps(n, steps, i - 1)) return true;
  return false;
}

Selector.prototype.matches = function (el) {
  for (var i = 0; i < this.list.length; i++) {
    var steps = this.list[i];
    if (matchesSteps(el, steps, steps.length - 1)) return true;
  }
  return false;
};

// inRoot lists the matches inside one shadow root (up to max when max > 0).
Selector.prototype.inRoot = function (root, out, max) {
  if (!this.crosses) {
    // No combinator: the root's own engine decides.
    var own = max === 1 ? [root.querySelector(this.plain)] : root.querySelectorAll(this.plain);
    for (var k = 0; k < own.length; k++) if (own[k]) out.push(own[k]);
    return;
  }
  var cands = root.querySelectorAll(this.last);
  for (var i = 0; i < cands.length; i++) {
    if (this.matches(cands[i])) {
      out.push(cands[i]);
      if (max > 0 && out.length >= max) return;
    }
  }
};

// queryOne returns the first element matching sel (see above) or null. A
// bad selector throws a SyntaxError.
function queryOne(sel) {
  var q = new Selector(sel);
  var el = document.querySelector(q.plain);
  if (el) return el;
  var roots = shadowRoots(document);
  for (var i = 0; i < roots.length; i++) {
    var out = [];
    q.inRoot(roots[i], out, 1);
    if (out.length) return out[0];
  }
  return null;
}

// queryAll returns every element matching sel: the document's matches,
// then each open shadow root's.
function queryAll(sel) {
  var q = new Selector(sel);
  var out = Array.prototype.slice.call(document.querySelectorAll(q.plain));
  var roots = shadowRoots(document);
  for (var i = 0; i < roots.length; i++) q.inRoot(roots[i], out, 0);
  return out;
}

// shadowRoots lists the open shadow roots under root, nested ones included.
function shadowRoots(root) {
  var out = [];
  var queue = [root];
  while (queue.length) {
    var r = queue.shift();
    var all = r.querySelectorAll('*');
    for (var i = 0; i < all.length; i++) {
      if (all[i].shadowRoot) { out.push(all[i].shadowRoot); queue.push(all[i].shadowRoot); }
    }
  }
  return out;
}
