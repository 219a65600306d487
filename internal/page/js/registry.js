// registry.js: refs. One namespace per (store, surface): a WeakMap element →
// ref and a Map ref → WeakRef(element). Nothing is written into the DOM, so
// a node keeps its ref while it lives, wherever it moves.

// Registry is the state of one document. A new document (or a window reused
// for a new document) gets a new registry and a new token.
function Registry() {
  this.doc = document;
  this.timeOrigin = performance.timeOrigin;
  this.token = Math.random().toString(36).slice(2, 10) + '-' + Math.round(performance.timeOrigin).toString(36);
  this.spaces = new _Map();
}

// space returns the namespace of key; refs continue from minNext at least,
// so a fresh document goes on with the Go side's counter.
Registry.prototype.space = function (key, minNext) {
  var s = this.spaces.get(key);
  if (!s) {
    s = { refOf: new _WeakMap(), byRef: new _Map(), next: 1, base: null, reported: new _Map(), memo: [], walks: 0,
      seen: new _Map(), quiet: false, namer: null };
    this.spaces.set(key, s);
  }
  if (minNext > s.next) s.next = minNext;
  return s;
};

// refFor returns el's ref in s, issuing the next number when it has none.
function refFor(s, el) {
  var r = s.refOf.get(el);
  if (r === undefined) {
    r = s.next++;
    s.refOf.set(el, r);
    s.byRef.set(r, new _WeakRef(el));
  }
  return r;
}

// lookup returns the live element of ref in s, or null when it was never
// issued here, has been collected, or is no longer in this document.
function lookup(s, ref) {
  var w = s.byRef.get(ref);
  var el = w && w.deref();
  if (!el || !el.isConnected || el.ownerDocument !== document) return null;
  return el;
}

// remember queues (ref, role, name) for the Go side when it differs from
// what was last reported, so the store knows what every ref was; unless
// s.quiet (a walk whose entries the agent is not shown), it also records
// that the agent has now seen the element so (see sameAsSeen).
function remember(s, ref, role, name) {
  var key = role + '\u001f' + name;
  if (!s.quiet) saw(s, ref, key, role, name);
  if (s.reported.get(ref) === key) return;
  s.reported.set(ref, key);
  s.memo.push(ref + '\u001f' + role + '\u001f' + clip(name, 120));
}

// prune forgets refs whose elements have been collected.
function prune(s) {
  s.byRef.forEach(function (w, ref) {
    if (!w.deref()) { s.byRef.delete(ref); s.reported.delete(ref); s.seen.delete(ref); }
  });
}

// ---- what the agent last saw of a ref (REF_STALE) ----
//
// A ref names an element, and an element can come to show another item
// while it lives: list widgets that recycle their rows (VS Code's, react-
// window's) rewrite a pooled row's text as the list scrolls. Acting on such
// a ref would act on an item the agent never saw. So every ref keeps what
// the agent was last shown of it — by a snapshot, a find, a list or an
// action's answer — as a label (the walk's role and name) and an identity
// (identityOf, computed the same way at both ends, so the comparison never
// depends on how a walk words a label). An action on a ref whose identity
// changed fails with REF_STALE, unless the call allows the change; its
// answer then reports it, and the agent has seen the new identity.

// IDENTITY_TEXT_MAX bounds the text that names an element without an
// accessible name (a plain clickable row): longer text is a container's,
// whose content changing says nothing about which item it is.
var IDENTITY_TEXT_MAX = 200;

// Roles whose text is their content, not what they are: fields and
// containers have no identity text.
var IDENTITY_NO_TEXT = new _Set(['textbox', 'searchbox', 'combobox', 'spinbutton', 'slider', 'listbox', 'list',
  'grid', 'table', 'tree', 'treegrid', 'menu', 'menubar', 'tablist', 'tabpanel', 'toolbar', 'radiogroup', 'rowgroup',
  'main', 'navigation', 'banner', 'complementary', 'contentinfo', 'region', 'form', 'search', 'dialog', 'alertdialog',
  'document', 'application', 'feed', 'log', 'group', 'article', 'status', 'alert', 'marquee', 'timer', 'figure']);

// identityOf is el's role and name as a ref check sees them: its role and
// accessible name, else (for an element that cannot be named or has no
// name, and is not a field or a container) its short text content.
//
// namer, when given, is the namer of a walk just made (its caches of
// styles, labels and names hold while the document has not changed since),
// so an entry's identity costs no second name computation; without it the
// identity is computed afresh.
function identityOf(el, namer) {
  var role = roleOf(el) || 'generic';
  var n = namer || new Namer(new Styles());
  var name = n.name(el, role);
  if (!name && !el.isContentEditable && !IDENTITY_NO_TEXT.has(role) &&
      textAtMost(el, 4 * IDENTITY_TEXT_MAX) && !scrolls(el)) {
    n.root = el;
    n.visited = new _Set();
    var t = normSpace(n.content(el, 0));
    if (t.length <= IDENTITY_TEXT_MAX) name = t;
  }
  return { role: role, name: clip(name, IDENTITY_TEXT_MAX) };
}

// scrolls reports whether el is a scroll container with something to
// scroll: its text is what it scrolls to, not what it is.
function scrolls(el) {
  if (el.scrollHeight <= el.clientHeight && el.scrollWidth <= el.clientWidth) return false;
  var cs = _getComputedStyle(el);
  return /auto|scroll/.test(cs.overflowY + ' ' + cs.overflowX);
}

// textAtMost reports whether el's text content is at most max characters
// long, reading no further than that: a wrapper around a whole page is not
// read whole.
function textAtMost(el, max) {
  var n = 0, node = el.firstChild;
  while (node) {
    if (node.nodeType === TEXT_NODE && (n += node.data.length) > max) return false;
    if (node.firstChild) { node = node.firstChild; continue; }
    while (node !== el && !node.nextSibling) node = node.parentNode;
    if (node === el) break;
    node = node.nextSibling;
  }
  return true;
}

function identityKey(id) { return id.role + '\u001f' + id.name; }

// saw records that the agent was shown ref with this label (key is role
// and label); the identity is computed again only when the label changed.
function saw(s, ref, key, role, name) {
  var was = s.seen.get(ref);
  if (was && was.key === key) return;
  var w = s.byRef.get(ref);
  var el = w && w.deref();
  if (!el) return;
  s.seen.set(ref, { key: key, role: role, name: clip(name, IDENTITY_TEXT_MAX), id: identityKey(identityOf(el, s.namer)) });
}

// sawNow records that the agent has been shown el's identity as it is now
// (an action's answer reported it).
function sawNow(s, ref, id) {
  s.seen.set(ref, { key: null, role: id.role, name: id.name, id: identityKey(id) });
}

// sameAsSeen compares el, the element of ref, with what the agent last saw
// of it. It returns null when nothing changed (or the agent never saw it),
// else {ref, was, now} — and fails with REF_STALE unless allow is set. The
// caller records the change as seen (sawNow) once its answer reports it.
function sameAsSeen(s, ref, el, allow) {
  var was = s.seen.get(ref);
  if (!was) return null;
  var now = identityOf(el);
  if (identityKey(now) === was.id) return null;
  var ch = { ref: ref, was: { role: was.role, name: was.name }, now: now };
  if (!allow) {
    // Where the item the agent saw is now, if it is still shown.
    ch.similar = similar(s, { role: was.role, name: was.name }, ref);
    fail('REF_STALE', 'ref ' + ref + ' was ' + was.role + ' ' + quote(was.name) + ' when you last saw it; its element now shows ' +
      now.role + ' ' + quote(now.name) + ' (the page reused the element for another item)', ch);
  }
  return ch;
}

// changedSince reports a change of el (found by ref or selector) that an
// action itself made (a toggle renamed), against what the agent saw, and
// records it as seen; null when there is none.
function changedSince(s, el) {
  var ref = s.refOf.get(el);
  if (ref === undefined) return null;
  var ch = sameAsSeen(s, ref, el, true);
  if (ch) sawNow(s, ref, ch.now);
  return ch;
}
