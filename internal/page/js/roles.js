// roles.js: the role of an element — the first valid token of its role
// attribute (WAI-ARIA 1.2), else its implicit role (HTML-AAM).

// The non-abstract roles of WAI-ARIA 1.2 ("image" is 1.3's synonym of img).
var ARIA_ROLES = new _Set(('alert alertdialog application article banner blockquote button caption cell ' +
  'checkbox code columnheader combobox complementary contentinfo definition deletion dialog directory ' +
  'document emphasis feed figure form generic grid gridcell group heading img image insertion link list ' +
  'listbox listitem log main marquee math menu menubar menuitem menuitemcheckbox menuitemradio meter ' +
  'navigation none note option paragraph presentation progressbar radio radiogroup region row rowgroup ' +
  'rowheader scrollbar search searchbox separator slider spinbutton status strong subscript superscript ' +
  'switch tab table tablist tabpanel term textbox time timer toolbar tooltip tree treegrid treeitem').split(' '));

// Global ARIA attributes: one of them on an element cancels role="none".
var GLOBAL_ARIA = ['aria-label', 'aria-labelledby', 'aria-describedby', 'aria-description', 'aria-live',
  'aria-controls', 'aria-owns', 'aria-details', 'aria-keyshortcuts', 'aria-roledescription',
  'aria-errormessage', 'aria-flowto', 'aria-relevant', 'aria-atomic', 'aria-busy', 'aria-dropeffect',
  'aria-grabbed', 'aria-haspopup', 'aria-invalid', 'aria-current', 'aria-disabled'];

// Roles whose name may come from their content (WAI-ARIA 1.2 nameFrom
// contents).
var NAME_FROM_CONTENT = new _Set(['button', 'cell', 'checkbox', 'columnheader', 'gridcell', 'heading', 'link',
  'menuitem', 'menuitemcheckbox', 'menuitemradio', 'option', 'radio', 'row', 'rowheader', 'switch', 'tab',
  'tooltip', 'treeitem']);

// Roles that cannot be named (WAI-ARIA 1.2 nameFrom prohibited).
var NAME_PROHIBITED = new _Set(['caption', 'code', 'definition', 'deletion', 'emphasis', 'generic', 'insertion',
  'none', 'paragraph', 'presentation', 'strong', 'subscript', 'superscript', 'term', 'time']);

// Roles whose children are presentational: their subtree adds no entries.
var CHILDREN_PRESENTATIONAL = new _Set(['button', 'checkbox', 'img', 'math', 'menuitemcheckbox',
  'menuitemradio', 'meter', 'progressbar', 'radio', 'scrollbar', 'separator', 'slider', 'switch', 'tab']);

// Widget roles: an element with one of them is interactive.
var WIDGET_ROLES = new _Set(['button', 'checkbox', 'combobox', 'gridcell', 'link', 'listbox', 'menuitem',
  'menuitemcheckbox', 'menuitemradio', 'option', 'radio', 'scrollbar', 'searchbox', 'slider', 'spinbutton',
  'switch', 'tab', 'textbox', 'treeitem']);

// Input types that are text fields (textbox, or combobox with a list).
var TEXT_INPUT_TYPES = new _Set(['', 'text', 'email', 'tel', 'url', 'password', 'date', 'datetime-local',
  'month', 'week', 'time']);

function inputType(el) {
  var t = (el.getAttribute('type') || '').trim().toLowerCase();
  switch (t) {
    case 'button': case 'submit': case 'reset': case 'image': case 'checkbox': case 'radio':
    case 'range': case 'number': case 'search': case 'hidden': case 'file': case 'color':
      return t;
  }
  return TEXT_INPUT_TYPES.has(t) ? t : 'text'; // an unknown type is a text field
}

// ---- ElementInternals (issue 28, point 5) ----
// A form-associated custom element may set its role and ARIA state only
// through its ElementInternals (Fluent UI web components 3: role slider,
// ariaValueNow, ariaChecked), with nothing on the host: the browser's
// accessibility tree has them, the DOM does not. The page cannot ask an
// element for its internals; the element often keeps them itself, as an
// own property (FAST's elementInternals, Lit components' _internals) or
// under a symbol (Material Web's). Those are read, as defaults that the
// host's attributes override.
var _ElementInternals = window.ElementInternals;

// internalsOf is the ElementInternals a custom element keeps on itself,
// or null.
function internalsOf(el) {
  if (!_ElementInternals || el.localName.indexOf('-') < 0) return null;
  try {
    var keys = Object.keys(el);
    for (var i = 0; i < keys.length; i++) {
      var v = el[keys[i]];
      if (v instanceof _ElementInternals) return v;
    }
    var syms = Object.getOwnPropertySymbols(el);
    for (var j = 0; j < syms.length; j++) {
      var w = el[syms[j]];
      if (w instanceof _ElementInternals) return w;
    }
  } catch (e) {
    // A property that throws when read keeps no internals we can use.
  }
  return null;
}

// ARIA_PROPS are the ARIA reflection names that do not follow the rule
// (aria-value-now → ariaValueNow is the rule: each word capitalised).
var ARIA_PROPS = { 'aria-readonly': 'ariaReadOnly', 'aria-haspopup': 'ariaHasPopup', 'aria-multiline': 'ariaMultiLine',
  'aria-multiselectable': 'ariaMultiSelectable', 'aria-posinset': 'ariaPosInSet', 'aria-setsize': 'ariaSetSize',
  'aria-rowcount': 'ariaRowCount', 'aria-colcount': 'ariaColCount', 'aria-rowindex': 'ariaRowIndex',
  'aria-colindex': 'ariaColIndex', 'aria-rowspan': 'ariaRowSpan', 'aria-colspan': 'ariaColSpan',
  'aria-valuenow': 'ariaValueNow', 'aria-valuemin': 'ariaValueMin', 'aria-valuemax': 'ariaValueMax',
  'aria-valuetext': 'ariaValueText', 'aria-roledescription': 'ariaRoleDescription', 'aria-autocomplete': 'ariaAutoComplete' };

// aria reads an ARIA attribute of el: the host's attribute, else what its
// ElementInternals set; null when neither has it.
function aria(el, name) {
  var v = el.getAttribute(name);
  if (v !== null) return v;
  var int = internalsOf(el);
  if (!int) return null;
  var prop = ARIA_PROPS[name] || name.replace(/-([a-z])/g, function (m, c) { return c.toUpperCase(); });
  var x = int[prop];
  // An empty value is no value (Fluent's slider sets ariaValueText to ''
  // when it has no text; Chromium then reads its ariaValueNow).
  return typeof x === 'string' && x !== '' ? x : null;
}

// explicitRole returns the first valid token of el's role attribute (or,
// without one, of the role its ElementInternals set), or ''. "image" is
// reported as img.
function explicitRole(el) {
  var v = el.getAttribute('role');
  if (!v) {
    var int = internalsOf(el);
    v = int && typeof int.role === 'string' ? int.role : '';
  }
  if (!v) return '';
  var toks = v.trim().toLowerCase().split(/\s+/);
  for (var i = 0; i < toks.length; i++) {
    var t = toks[i];
    if (ARIA_ROLES.has(t)) return t === 'image' ? 'img' : t;
    if (t.indexOf('doc-') === 0 || t.indexOf('graphics-') === 0) return t;
  }
  return '';
}

// focusable reports whether el takes focus (natively or by tabindex).
function focusable(el) {
  if (el.hasAttribute('tabindex')) return true;
  if (el.isContentEditable && (!el.parentElement || !el.parentElement.isContentEditable)) return true;
  switch (el.localName) {
    case 'a': case 'area': return el.hasAttribute('href');
    case 'button': case 'select': case 'textarea': return !el.disabled;
    case 'input': return el.type !== 'hidden' && !el.disabled;
    case 'summary': return true;
    case 'iframe': return true;
  }
  return false;
}

function hasGlobalAria(el) {
  for (var i = 0; i < GLOBAL_ARIA.length; i++) if (el.hasAttribute(GLOBAL_ARIA[i])) return true;
  return false;
}

// isPresentationalRole reports whether el's explicit role is none or
// presentation and that role is not overridden (WAI-ARIA conflict
// resolution: focusable elements and elements with global ARIA attributes
// keep their implicit role).
function presentationalByRole(el) {
  var r = explicitRole(el);
  return (r === 'none' || r === 'presentation') && !focusable(el) && !hasGlobalAria(el);
}

// hasAuthorName reports whether el is named by its author (aria-label,
// aria-labelledby or title), which turns section into region, form into
// form and a scoped aside into complementary.
function hasAuthorName(el) {
  var l = el.getAttribute('aria-label');
  if (l && l.trim()) return true;
  if (idRefs(el, el.getAttribute('aria-labelledby')).length) return true;
  var t = el.getAttribute('title');
  return !!(t && t.trim());
}

// inSectioningScope reports whether el is inside article, aside, main, nav
// or section (or their ARIA roles), which makes header, footer and aside
// generic.
var SECTIONING = 'article,aside,main,nav,section,[role=article],[role=complementary],[role=main],[role=navigation],[role=region]';
// An aside inside main is still complementary (HTML-AAM): only sectioning
// content scopes it.
var ASIDE_SCOPE = 'article,aside,nav,section,[role=article],[role=complementary],[role=navigation],[role=region]';
function inSectioningScope(el, scope) {
  var p = el.parentElement;
  return !!(p && p.closest(scope || SECTIONING));
}

// tableOf returns the table element that owns a row or cell, or null.
function tableOf(el) { return el.closest('table'); }

function tableIsPresentational(el) {
  var t = tableOf(el);
  return !!(t && presentationalByRole(t));
}

// implicitRole returns the HTML-AAM role of el, '' for none.
function implicitRole(el) {
  var tag = el.localName;
  // An editing host (contenteditable, outside any other editable region)
  // is a text box, whatever its tag.
  if (el.hasAttribute('contenteditable') && el.isContentEditable && !(el.parentElement && el.parentElement.isContentEditable)) return 'textbox';
  switch (tag) {
    case 'a': return el.hasAttribute('href') ? 'link' : 'generic';
    case 'area': return el.hasAttribute('href') ? 'link' : '';
    case 'address': return 'group';
    case 'article': return 'article';
    case 'aside': return inSectioningScope(el, ASIDE_SCOPE) && !hasAuthorName(el) ? 'generic' : 'complementary';
    case 'b': case 'bdi': case 'bdo': case 'body': case 'data': case 'div': case 'i': case 'pre': case 'q':
    case 'samp': case 'small': case 'span': case 'u':
      return 'generic';
    case 'blockquote': return 'blockquote';
    case 'button': return 'button';
    case 'caption': return 'caption';
    case 'code': return 'code';
    case 'dd': return 'definition';
    case 'del': case 's': return 'deletion';
    case 'details': return 'group';
    case 'dfn': case 'dt': return 'term';
    case 'dialog': return 'dialog';
    case 'em': return 'emphasis';
    case 'fieldset': return 'group';
    case 'figure': return 'figure';
    case 'footer': return inSectioningScope(el) ? 'generic' : 'contentinfo';
    case 'form': return hasAuthorName(el) ? 'form' : 'generic';
    case 'h1': case 'h2': case 'h3': case 'h4': case 'h5': case 'h6': return 'heading';
    case 'header': return inSectioningScope(el) ? 'generic' : 'banner';
    case 'hgroup': return 'group';
    case 'hr': return 'separator';
    case 'html': return 'document';
    case 'iframe': case 'frame': return 'iframe';
    case 'img':
      if (el.getAttribute('alt') === '' && !hasAuthorName(el)) return 'presentation';
      return 'img';
    case 'input': {
      var t = inputType(el);
      switch (t) {
        case 'button': case 'submit': case 'reset': case 'image': case 'file': return 'button';
        case 'checkbox': return el.hasAttribute('switch') ? 'switch' : 'checkbox';
        case 'radio': return 'radio';
        case 'range': return 'slider';
        case 'number': return 'spinbutton';
        case 'search': return el.hasAttribute('list') ? 'combobox' : 'searchbox';
        case 'hidden': return '';
        case 'color': return 'button';
      }
      return el.hasAttribute('list') ? 'combobox' : 'textbox';
    }
    case 'ins': return 'insertion';
    case 'li': {
      var p = el.parentElement;
      if (p && (p.localName === 'ul' || p.localName === 'ol' || p.localName === 'menu')) {
        return presentationalByRole(p) ? 'none' : 'listitem';
      }
      return 'listitem';
    }
    case 'main': return 'main';
    case 'mark': return 'mark';
    case 'math': return 'math';
    case 'menu': case 'ol': case 'ul': return 'list';
    case 'meter': return 'meter';
    case 'nav': return 'navigation';
    case 'optgroup': return 'group';
    case 'option': return 'option';
    case 'output': return 'status';
    case 'p': return 'paragraph';
    case 'progress': return 'progressbar';
    case 'search': return 'search';
    case 'section': return hasAuthorName(el) ? 'region' : 'generic';
    case 'select': return el.multiple || el.size > 1 ? 'listbox' : 'combobox';
    case 'strong': return 'strong';
    case 'sub': return 'subscript';
    case 'summary': {
      // The summary of a <details> toggles it: a button (Chromium's own
      // role, "DisclosureTriangle", has no ARIA name).
      var d = el.parentElement;
      return d && d.localName === 'details' && d.querySelector(':scope > summary') === el ? 'button' : 'generic';
    }
    case 'sup': return 'superscript';
    case 'svg': return 'img';
    case 'table': return 'table';
    case 'tbody': case 'tfoot': case 'thead': return tableIsPresentational(el) ? 'none' : 'rowgroup';
    case 'td': {
      if (tableIsPresentational(el)) return 'none';
      var tb = tableOf(el);
      var tr = tb && explicitRole(tb);
      return tr === 'grid' || tr === 'treegrid' ? 'gridcell' : 'cell';
    }
    case 'th': return tableIsPresentational(el) ? 'none' : headerCellRole(el);
    case 'textarea': return 'textbox';
    case 'time': return 'time';
    case 'tr': return tableIsPresentational(el) ? 'none' : 'row';
  }
  return '';
}

// headerCellRole tells columnheader from rowheader: scope first, then a th
// inside thead is a column header, and a th sharing its row with td cells
// is a row header.
function headerCellRole(el) {
  var scope = (el.getAttribute('scope') || '').toLowerCase();
  if (scope === 'row' || scope === 'rowgroup') return 'rowheader';
  if (scope === 'col' || scope === 'colgroup') return 'columnheader';
  if (el.closest('thead')) return 'columnheader';
  var row = el.parentElement;
  if (row) {
    for (var c = row.firstElementChild; c; c = c.nextElementSibling) if (c.localName === 'td') return 'rowheader';
  }
  return 'columnheader';
}

// roleOf returns el's role: the explicit role unless conflict resolution
// cancels none/presentation, else the implicit role; "none" for
// presentational elements and '' when the element has no role.
function roleOf(el) {
  var r = explicitRole(el);
  if (r) {
    if (r === 'presentation') r = 'none';
    // A region needs a name to be one (as Chromium exposes it).
    if (r === 'region' && !hasAuthorName(el)) return 'generic';
    if (r !== 'none' || !(focusable(el) || hasGlobalAria(el))) return r;
  }
  r = implicitRole(el);
  return r === 'presentation' ? 'none' : r;
}

// headingLevel returns the level of a heading: aria-level, else hN.
function headingLevel(el) {
  var l = parseInt(el.getAttribute('aria-level'), 10);
  if (l > 0) return l;
  var m = /^h([1-6])$/.exec(el.localName);
  return m ? +m[1] : 2;
}
