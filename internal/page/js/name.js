// name.js: accessible name and description (accname 1.2 with the HTML-AAM
// host-language rules). Step letters follow the accname editor's draft:
// 2A hidden, 2B aria-labelledby, 2C embedded control, 2D aria-label,
// 2E host language label, 2F name from content, 2G text node, 2H recursion,
// 2I tooltip.

var F_LABELLEDBY = 1;   // inside an aria-labelledby / aria-describedby traversal
var F_HIDDEN_OK = 2;    // the node that traversal started from was hidden
var F_CONTENT = 4;      // name-from-content descendant recursion
var F_NATIVE_LABEL = 8; // inside a <label>, <legend>, <caption>, <figcaption>

// Roles whose value, not name, speaks for them inside another's label.
var RANGE_ROLES = new _Set(['slider', 'spinbutton', 'progressbar', 'scrollbar', 'meter']);

// Namer computes names and descriptions for one walk; it shares the walk's
// style cache.
function Namer(styles) {
  this.styles = styles;
  this.root = null;
  this.visited = null;
  this.from = '';
  // The labels of each control, per tree scope, built once per walk:
  // el.labels searches the whole tree scope on every call, which made a
  // page of many labelled fields quadratic.
  this.labelMaps = new _Map();
  // Nodes visited by the current name computation, bounded (NAME_NODES)
  // so a name from content of a huge subtree costs little.
  this.nodes = 0;
  // Names computed by this namer, per element: a walk names an entry once,
  // and the identity of the same element (registry.js) asks again. The
  // DOM does not change during one walk, so the answer is the same.
  this.memo = new _Map();
  // Whether the style sheets of a tree scope can give a ::before or
  // ::after text, per scope (see mayPseudo).
  this.pseudoScopes = new _Map();
}

// NAME_NODES bounds the nodes one name computation visits: names are cut at
// 400 characters, and a huge subtree (a clickable card around a page)
// would otherwise be read once per entry around it.
var NAME_NODES = 2000;
var NAME_CHARS = 2000;

// name returns the accessible name of el (whose role is role) as a flat
// string, and records in this.from where it came from: labelledby, label,
// native, content, title, placeholder or ''.
Namer.prototype.name = function (el, role) {
  this.from = '';
  if (NAME_PROHIBITED.has(role)) {
    // WAI-ARIA prohibits naming these roles; an author label still wins in
    // browsers for generic elements that take focus, which we do not copy.
    this.nodes = 0;
    return '';
  }
  var m = this.memo.get(el);
  if (m && m.role === role) {
    this.from = m.from;
    this.nodes = m.nodes;
    return m.name;
  }
  this.root = el;
  this.visited = new _Set();
  this.nodes = 0;
  var s = normSpace(this.alt(el, role, 0, true));
  this.memo.set(el, { role: role, name: s, from: this.from, nodes: this.nodes });
  return s;
};

// description returns the accessible description of el: aria-describedby,
// else aria-description, else title when the name did not use it.
Namer.prototype.description = function (el, nameFrom) {
  var refs = idRefs(el, el.getAttribute('aria-describedby'));
  if (refs.length) {
    this.root = el;
    var parts = [];
    for (var i = 0; i < refs.length; i++) {
      this.visited = new _Set();
      this.nodes = 0;
      var hid = hiddenDeep(refs[i], this.styles);
      parts.push(this.alt(refs[i], roleOf(refs[i]), F_LABELLEDBY | (hid ? F_HIDDEN_OK : 0), false));
    }
    var d = normSpace(parts.join(' '));
    if (d) return d;
  }
  var ad = el.getAttribute('aria-description');
  if (ad && ad.trim()) return normSpace(ad);
  if (nameFrom !== 'title') {
    var t = el.getAttribute('title');
    if (t && t.trim()) return normSpace(t);
  }
  return '';
};

// alt is the text alternative of the current node (step 2).
Namer.prototype.alt = function (el, role, flags, isRoot) {
  if (this.visited.has(el) && !isRoot) return '';
  this.visited.add(el);
  // 2A: hidden and not reached from a hidden referenced node.
  if (!isRoot && !(flags & F_HIDDEN_OK) && hiddenForName(el, this.styles)) return '';

  // 2B: aria-labelledby, unless already inside such a traversal.
  if (!(flags & F_LABELLEDBY)) {
    var refs = idRefs(el, el.getAttribute('aria-labelledby'));
    if (refs.length) {
      var parts = [];
      for (var i = 0; i < refs.length; i++) {
        var r = refs[i];
        var hid = (flags & F_HIDDEN_OK) || hiddenDeep(r, this.styles);
        // A node may reference itself ("Delete" + file name): let it in.
        this.visited.delete(r);
        parts.push(this.alt(r, r === el ? role : roleOf(r), F_LABELLEDBY | (hid ? F_HIDDEN_OK : 0), false));
      }
      var lb = normSpace(parts.join(' '));
      if (lb) { if (isRoot) this.from = 'labelledby'; return lb; }
    }
  }

  // 2C: a control embedded in another element's label gives its value.
  if (!isRoot && el !== this.root && (flags & (F_LABELLEDBY | F_CONTENT | F_NATIVE_LABEL)) && isEmbeddedControl(el, role)) {
    return embeddedValue(el, role);
  }

  // 2D: aria-label.
  var al = el.getAttribute('aria-label');
  if (al && al.trim() && el.localName !== 'slot') {
    if (isRoot) this.from = 'aria-label';
    return al;
  }

  // 2E: host-language label, unless the node is presentational.
  if (role !== 'none') {
    var nat = this.native(el, role, flags, isRoot);
    if (nat) { if (isRoot) this.from = this.from || 'native'; return nat; }
  }

  // 2F/2H: name from content.
  var fromContent = isRoot ? NAME_FROM_CONTENT.has(role) : true;
  if (fromContent && !(isRoot && el.localName === 'select')) {
    var c = this.content(el, flags);
    if (normSpace(c)) { if (isRoot) this.from = 'content'; return c; }
  }

  // 2I: tooltip (title), then placeholders for text fields.
  var title = el.getAttribute('title');
  if (title && title.trim()) { if (isRoot) this.from = 'title'; return title; }
  if (isRoot && (role === 'textbox' || role === 'searchbox' || role === 'combobox' || role === 'spinbutton')) {
    var ph = el.getAttribute('placeholder');
    if (ph === null) ph = el.getAttribute('aria-placeholder');
    if (ph && ph.trim() && (el.localName === 'input' || el.localName === 'textarea' || el.hasAttribute('aria-placeholder'))) {
      this.from = 'placeholder';
      return ph;
    }
  }
  return '';
};

// native implements the HTML-AAM name rules of step 2E.
Namer.prototype.native = function (el, role, flags, isRoot) {
  var tag = el.localName;
  switch (tag) {
    case 'input': {
      var t = inputType(el);
      if (t === 'button' || t === 'submit' || t === 'reset') {
        var lb = isRoot ? this.labels(el) : '';
        if (lb) { this.from = 'label'; return lb; }
        var v = el.getAttribute('value');
        if (v && v.trim()) return v;
        if (t === 'submit') return 'Submit';
        if (t === 'reset') return 'Reset';
        return '';
      }
      if (t === 'image') {
        var a = el.getAttribute('alt');
        if (a && a.trim()) return a;
        var iv = el.getAttribute('value');
        if (iv && iv.trim()) return iv;
        var it = el.getAttribute('title');
        if (it && it.trim()) return it;
        return 'Submit';
      }
      if (isRoot) { var l = this.labels(el); if (l) this.from = 'label'; return l; }
      return '';
    }
    case 'textarea': case 'select': case 'meter': case 'progress': case 'output': case 'button':
      if (isRoot) { var l2 = this.labels(el); if (l2) this.from = 'label'; return l2; }
      return '';
    case 'img': case 'area': {
      var alt = el.getAttribute('alt');
      return alt && alt.trim() ? alt : '';
    }
    case 'fieldset': {
      for (var c = el.firstElementChild; c; c = c.nextElementSibling) {
        if (c.localName === 'legend') return this.labelText(c, el);
      }
      return '';
    }
    case 'table': {
      var cap = el.querySelector(':scope > caption');
      return cap ? this.labelText(cap, el) : '';
    }
    case 'figure': {
      var fc = el.querySelector(':scope > figcaption');
      return fc ? this.labelText(fc, el) : '';
    }
    case 'svg': {
      var st = el.querySelector(':scope > title');
      return st ? normSpace(st.textContent) : '';
    }
    case 'optgroup':
      return el.getAttribute('label') || '';
    case 'option': {
      var ol = el.getAttribute('label');
      if (ol && ol.trim()) return ol;
      return normSpace(el.text);
    }
  }
  return '';
};

// labels joins the text of the <label> elements of a labelable control.
Namer.prototype.labels = function (el) {
  var ls = this.labelsOf(el);
  if (!ls || !ls.length) return '';
  var parts = [];
  for (var i = 0; i < ls.length; i++) parts.push(this.labelText(ls[i], el));
  return normSpace(parts.join(' '));
};

// labelsOf returns the <label> elements of a labelable control in tree
// order, as el.labels does, from one pass over the labels of its tree
// scope.
Namer.prototype.labelsOf = function (el) {
  var scope = el.getRootNode();
  if (!scope || !scope.querySelectorAll) return el.labels;
  var m = this.labelMaps.get(scope);
  if (!m) {
    m = new _WeakMap();
    var all = scope.querySelectorAll('label');
    for (var i = 0; i < all.length; i++) {
      var c = all[i].control;
      if (!c) continue;
      var arr = m.get(c);
      if (!arr) m.set(c, arr = []);
      arr.push(all[i]);
    }
    this.labelMaps.set(scope, m);
  }
  return m.get(el) || null;
};

// labelText is the content of a native text-alternative element (label,
// legend, caption, figcaption).
Namer.prototype.labelText = function (lab, forEl) {
  // A hidden label names nothing (as in Chromium; the accname draft would
  // still use it).
  if (hiddenDeep(lab, this.styles)) return '';
  this.visited.add(lab);
  return normSpace(this.content(lab, F_NATIVE_LABEL));
};

// content concatenates the text alternatives of el's rendered children
// (step 2F.iii); block-level children are set apart by spaces.
Namer.prototype.content = function (el, flags) {
  var acc = '';
  if (!(flags & F_HIDDEN_OK) && skipsChildren(el, this.styles.of(el))) return acc;
  var pz = this.mayPseudo(el);
  var before = pz ? pseudoText(el, '::before') : '', after = pz ? pseudoText(el, '::after') : '';
  var kids = rendered(el);
  var sub = flags | F_CONTENT;
  var details = el.localName === 'details' && !el.open && !(flags & F_HIDDEN_OK);
  for (var i = 0; i < kids.length; i++) {
    if (++this.nodes > NAME_NODES || acc.length > NAME_CHARS) break;
    var c = kids[i];
    if (details && closedDetailsHides(el, c)) continue;
    if (c.nodeType === TEXT_NODE) { acc += c.data; continue; }
    if (c.nodeType !== ELEMENT_NODE || c === this.root) continue;
    if (c.localName === 'br') { acc += ' '; continue; }
    if (SKIP_TAGS.has(c.localName)) continue;
    var r = this.alt(c, roleOf(c), sub, false);
    if (!r) continue;
    var d = this.styles.of(c).display;
    acc += isInlineDisplay(d) ? r : ' ' + r + ' ';
  }
  return before + acc + after;
};

// mayPseudo reports whether a ::before or ::after of el may carry text:
// whether a style sheet that can reach el has a rule for one (or cannot be
// read). Reading a pseudo-element's style costs a style resolution each
// time, the dearest step of a name from content, and most pages have no
// such rule in most tree scopes. Shadow hosts (:host::before), slotted
// elements (::slotted()::before) and custom elements (whose closed shadow
// root is out of sight) are always read.
Namer.prototype.mayPseudo = function (el) {
  if (el.shadowRoot || el.assignedSlot || el.localName.indexOf('-') >= 0) return true;
  var scope = el.getRootNode();
  var v = this.pseudoScopes.get(scope);
  if (v === undefined) {
    v = scopeMayPseudo(scope);
    this.pseudoScopes.set(scope, v);
  }
  return v;
};

// PSEUDO_RULES bounds the rules one look at a scope's style sheets reads;
// past it the scope is taken to have pseudo-element text.
var PSEUDO_RULES = 20000;
var PSEUDO_SELECTOR = /:(?:before|after)\b/i;

// scopeMayPseudo looks at the style sheets of a tree scope and of the
// scopes around it (::part()::before reaches into a shadow tree).
function scopeMayPseudo(scope) {
  var budget = { n: PSEUDO_RULES };
  for (var r = scope; r;) {
    if (r.nodeType !== 9 && r.nodeType !== 11) return true; // a detached subtree
    if (sheetsMayPseudo(r.styleSheets, budget) || sheetsMayPseudo(r.adoptedStyleSheets, budget)) return true;
    if (r.nodeType === 9) return false;
    r = r.host ? r.host.getRootNode() : null;
  }
  return true;
}

function sheetsMayPseudo(sheets, budget) {
  if (!sheets) return false;
  for (var i = 0; i < sheets.length; i++) {
    var rules;
    try { rules = sheets[i].cssRules; } catch (e) { return true; } // another origin's sheet
    if (!rules || rulesMayPseudo(rules, budget)) return true;
  }
  return false;
}

function rulesMayPseudo(rules, budget) {
  for (var i = 0; i < rules.length; i++) {
    if (--budget.n < 0) return true;
    var r = rules[i];
    var sel = r.selectorText;
    if (typeof sel === 'string' && PSEUDO_SELECTOR.test(sel)) return true;
    if (r.styleSheet) {
      var inner;
      try { inner = r.styleSheet.cssRules; } catch (e) { return true; }
      if (inner && rulesMayPseudo(inner, budget)) return true;
    }
    if (r.cssRules && r.cssRules.length && rulesMayPseudo(r.cssRules, budget)) return true;
  }
  return false;
}

// pseudoText is the text a ::before or ::after pseudo-element adds (step
// 2F.ii): its content strings, or the alternative text after "/". Icon-font
// glyphs (private-use characters) say nothing and are dropped.
function pseudoText(el, which) {
  var c = _getComputedStyle(el, which).content;
  if (!c || c === 'none' || c === 'normal' || c.charCodeAt(0) !== 34) return '';
  var alt = c.lastIndexOf('" / "');
  if (alt > 0) c = c.slice(alt + 4);
  var out = '', m, re = /"((?:[^"\\]|\\.)*)"/g;
  while ((m = re.exec(c)) !== null) out += m[1].replace(/\\(.)/g, '$1');
  out = out.replace(/[\ue000-\uf8ff]/g, '');
  // Alternative text stands apart from the element's own words.
  return alt > 0 && out ? ' ' + out + ' ' : out;
}

// isEmbeddedControl reports whether a node inside a label speaks with its
// value (textbox, combobox, listbox, range).
function isEmbeddedControl(el, role) {
  return role === 'textbox' || role === 'searchbox' || role === 'combobox' || role === 'listbox' || RANGE_ROLES.has(role);
}

// embeddedValue is the value an embedded control adds to a label (2C).
function embeddedValue(el, role) {
  if (role === 'combobox' || role === 'listbox') {
    if (el.localName === 'select') {
      var sel = el.selectedOptions, parts = [];
      for (var i = 0; i < sel.length; i++) parts.push(optionLabel(sel[i]));
      return parts.join(' ');
    }
    if (el.localName === 'input') return el.value;
    var chosen = el.querySelector('[role=option][aria-selected=true]');
    return chosen ? normSpace(chosen.textContent) : '';
  }
  if (RANGE_ROLES.has(role)) {
    var vt = aria(el, 'aria-valuetext');
    if (vt !== null) return vt;
    var vn = aria(el, 'aria-valuenow');
    if (vn !== null) return vn;
    return el.value !== undefined ? String(el.value) : '';
  }
  if (el.localName === 'input' || el.localName === 'textarea') return el.value;
  return el.textContent;
}

// optionLabel is the text of an option as a select shows it.
function optionLabel(o) {
  var l = o.getAttribute('label');
  return normSpace(l && l.trim() ? l : o.text);
}
