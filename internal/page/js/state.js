// state.js: value, placeholder and states (disabled, checked, selected,
// expanded, pressed, focused, readonly, required, invalid, busy).

var CHECKABLE = new _Set(['checkbox', 'radio', 'switch', 'menuitemcheckbox', 'menuitemradio', 'treeitem']);
var SELECTABLE = new _Set(['option', 'tab', 'row', 'gridcell', 'treeitem', 'columnheader', 'rowheader']);
var VALUE_ROLES = new _Set(['textbox', 'searchbox', 'combobox', 'spinbutton', 'slider', 'listbox',
  'progressbar', 'meter', 'scrollbar']);
var FORM_CONTROL_TAGS = new _Set(['button', 'input', 'select', 'textarea', 'optgroup', 'option', 'fieldset']);

function attrTrue(el, name) {
  var v = name.indexOf('aria-') === 0 ? aria(el, name) : el.getAttribute(name);
  return v !== null && v.trim().toLowerCase() === 'true';
}

// tri reads a true/false/mixed ARIA attribute: 'true', 'false', 'mixed' or
// '' when absent or invalid.
function tri(el, name) {
  var v = aria(el, name);
  if (v === null) return '';
  v = v.trim().toLowerCase();
  return v === 'true' || v === 'false' || v === 'mixed' ? v : '';
}

// ariaDisabledUp reports aria-disabled="true" on el or a flat-tree
// ancestor (it applies to the element and its descendants).
function ariaDisabledUp(el) {
  for (var n = el; n; n = flatParent(n)) if (attrTrue(n, 'aria-disabled')) return true;
  return false;
}

// nativeDisabled covers form controls, including those inside a disabled
// <fieldset> outside its first <legend> (the browser's :disabled knows the
// rules).
function nativeDisabled(el) {
  if (!FORM_CONTROL_TAGS.has(el.localName)) return false;
  try { return el.matches(':disabled'); } catch (e) { return !!el.disabled; }
}

// checkedState returns 'true', 'false', 'mixed' or '' (not checkable).
function checkedState(el, role) {
  if (el.localName === 'input' && (el.type === 'checkbox' || el.type === 'radio')) {
    if (el.indeterminate && el.type === 'checkbox') return 'mixed';
    return el.checked ? 'true' : 'false';
  }
  if (!CHECKABLE.has(role)) return '';
  var v = tri(el, 'aria-checked');
  if (v === 'mixed' && (role === 'radio' || role === 'menuitemradio' || role === 'switch')) v = 'false';
  return v || (role === 'treeitem' ? '' : 'false');
}

function selectedState(el, role) {
  if (el.localName === 'option') return !!el.selected;
  return SELECTABLE.has(role) && attrTrue(el, 'aria-selected');
}

// expandedState returns 'true', 'false' or '' (not expandable).
function expandedState(el, role) {
  if (el.localName === 'summary') {
    var d = el.parentElement;
    if (d && d.localName === 'details' && d.querySelector(':scope > summary') === el) return d.open ? 'true' : 'false';
  }
  var v = aria(el, 'aria-expanded');
  if (v === null) return '';
  v = v.trim().toLowerCase();
  return v === 'true' ? 'true' : v === 'false' ? 'false' : '';
}

// pressedState returns 'true', 'false', 'mixed' or '' (not a toggle).
function pressedState(el, role) {
  if (role !== 'button') return '';
  return tri(el, 'aria-pressed');
}

function readonlyState(el, role) {
  if (attrTrue(el, 'aria-readonly')) return true;
  if (el.localName === 'textarea') return el.readOnly;
  if (el.localName === 'input') {
    var t = inputType(el);
    if (TEXT_INPUT_TYPES.has(t) || t === 'search' || t === 'number') return el.readOnly;
  }
  return false;
}

function requiredState(el) {
  if (el.required === true && (el.localName === 'input' || el.localName === 'select' || el.localName === 'textarea')) return true;
  return attrTrue(el, 'aria-required');
}

// invalidState: aria-invalid other than "false", or a native constraint
// failure the user has already interacted with (:user-invalid).
function invalidState(el) {
  var v = el.getAttribute('aria-invalid');
  if (v !== null) {
    v = v.trim().toLowerCase();
    if (v && v !== 'false') return true;
  }
  if (el.willValidate) {
    try { return el.matches(':user-invalid'); } catch (e) { return false; }
  }
  return false;
}

// ---- custom elements (web components) ----
//
// A web component's host (sl-checkbox, md-switch, vscode-button…) is
// usually a plain element to the accessibility rules: its role, states
// and control live in its shadow root, or in the element's own
// properties (the host's .checked is what the page reads). Reads of a host
// take its state from those; actions forward to its inner control.

// isCustomHost reports whether el is a custom element with an open shadow
// root.
function isCustomHost(el) {
  return !!el.shadowRoot && el.localName.indexOf('-') > 0;
}

// hostBool reads a boolean property of a custom element (checked,
// disabled…); undefined when it has none.
function hostBool(el, prop) {
  if (el.localName.indexOf('-') <= 0) return undefined;
  var v;
  try { v = el[prop]; } catch (e) { return undefined; }
  return typeof v === 'boolean' ? v : undefined;
}

// isControl accepts what a host forwards to: a form control, an editing
// host, or an element with a widget role.
function isControl(c) {
  var tag = c.localName;
  if (tag === 'input') return c.type !== 'hidden';
  if (tag === 'button' || tag === 'select' || tag === 'textarea') return true;
  if (c.isContentEditable && (!c.parentElement || !c.parentElement.isContentEditable)) return true;
  return WIDGET_ROLES.has(roleOf(c));
}

// isCheckable accepts a checkbox, radio or switch.
function isCheckable(c) {
  if (c.localName === 'input') return c.type === 'checkbox' || c.type === 'radio';
  return CHECKABLE.has(roleOf(c));
}

// innerControl returns the first element in el's open shadow tree (nested
// open shadow roots included, outer ones first) that accept takes, or
// null.
function innerControl(el, accept) {
  if (!el.shadowRoot) return null;
  var queue = [el.shadowRoot];
  while (queue.length) {
    var root = queue.shift();
    var all = root.querySelectorAll('*');
    for (var i = 0; i < all.length; i++) {
      if (accept(all[i])) return all[i];
      if (all[i].shadowRoot) queue.push(all[i].shadowRoot);
    }
  }
  return null;
}

// hostInner is the inner control whose role and states speak for a host
// that has no role of its own, or null.
function hostInner(el, role) {
  if (!el.shadowRoot || (role !== 'generic' && role !== '' && role !== 'none')) return null;
  return innerControl(el, isControl);
}

// fullState is the state a read reports. A web component's host reports
// its own properties (checked, disabled, …) where it has them, else the
// states of its inner control.
function fullState(el, active) {
  var role = roleOf(el);
  var inner = hostInner(el, role);
  var src = inner || el, srole = inner ? roleOf(inner) : role;
  var disabled = nativeDisabled(el) || ariaDisabledUp(el) || hostBool(el, 'disabled') === true ||
    (!!inner && (nativeDisabled(inner) || attrTrue(inner, 'aria-disabled')));
  var checked = checkedState(el, role);
  var hc = hostBool(el, 'checked');
  if (hc !== undefined) checked = hostBool(el, 'indeterminate') === true ? 'mixed' : hc ? 'true' : 'false';
  else if (inner && !checked) checked = checkedState(inner, srole);
  var exp = expandedState(el, role);
  if (!exp && inner) exp = expandedState(inner, srole);
  if (!exp && src.localName === 'select' && srole === 'combobox') exp = 'false';
  var pr = pressedState(el, role);
  if (!pr && inner) pr = pressedState(inner, srole);
  return {
    visible: isVisible(el),
    enabled: !disabled,
    disabled: disabled,
    checked: checked === 'true' ? true : checked === 'mixed' ? 'mixed' : false,
    selected: selectedState(el, role) || hostBool(el, 'selected') === true || (!!inner && selectedState(inner, srole)),
    expanded: exp === '' ? null : exp === 'true',
    pressed: pr === 'true' ? true : pr === 'mixed' ? 'mixed' : pr === 'false' ? false : null,
    focused: active === el || (!!active && !!el.shadowRoot && composedContains(el, active)),
    readonly: readonlyState(el, role) || hostBool(el, 'readonly') === true || (!!inner && readonlyState(inner, srole)),
    required: requiredState(el) || hostBool(el, 'required') === true || (!!inner && requiredState(inner)),
    invalid: invalidState(el) || (!!inner && invalidState(inner)),
    busy: attrTrue(el, 'aria-busy')
  };
}

// flagString lists el's non-default states in a fixed order, the way the
// text snapshot prints them: disabled, checked|mixed, selected,
// expanded|expanded=false, pressed|pressed=false|pressed=mixed, focused,
// readonly, required, invalid, busy. ariaDisabled is the inherited
// aria-disabled of the walk.
function flagString(el, role, active, ariaDisabled) {
  var f = '';
  if (ariaDisabled || nativeDisabled(el) || attrTrue(el, 'aria-disabled')) f += ' disabled';
  var c = checkedState(el, role);
  if (c === 'true') f += ' checked';
  else if (c === 'mixed') f += ' mixed';
  if (selectedState(el, role)) f += ' selected';
  var e = expandedState(el, role);
  if (e === 'true') f += ' expanded';
  else if (e === 'false') f += ' expanded=false';
  var p = pressedState(el, role);
  if (p === 'true') f += ' pressed';
  else if (p === 'false') f += ' pressed=false';
  else if (p === 'mixed') f += ' pressed=mixed';
  if (active === el) f += ' focused';
  if (readonlyState(el, role)) f += ' readonly';
  if (requiredState(el)) f += ' required';
  if (invalidState(el)) f += ' invalid';
  if (attrTrue(el, 'aria-busy')) f += ' busy';
  return f.slice(1);
}

// valueOf returns the value an entry shows, or null when its role has none.
// Passwords are masked.
function valueOf(el, role) {
  if (!VALUE_ROLES.has(role)) return null;
  var tag = el.localName;
  if (tag === 'input') {
    var t = inputType(el);
    if (t === 'password') return el.value.replace(/./g, '\u2022');
    return el.value;
  }
  if (tag === 'textarea') return el.value;
  if (tag === 'select') {
    var sel = el.selectedOptions, parts = [];
    for (var i = 0; i < sel.length; i++) parts.push(optionLabel(sel[i]));
    return parts.join(', ');
  }
  if (tag === 'progress' || tag === 'meter') return el.hasAttribute('value') || tag === 'meter' ? String(el.value) : null;
  if (RANGE_ROLES.has(role)) {
    var vt = aria(el, 'aria-valuetext');
    if (vt !== null) return vt;
    var vn = aria(el, 'aria-valuenow');
    return vn !== null ? vn : null;
  }
  if (el.isContentEditable) return clip(normSpace(el.innerText || ''), 200);
  if (role === 'combobox') {
    var inp = el.querySelector('input');
    if (inp) return inp.value;
    // A select-only combobox (a custom select) shows its choice as its
    // text, as Chromium's accessibility tree takes it; a popup of options
    // inside it is not the value.
    var shown = chosenText(el);
    return shown ? clip(shown, 200) : null;
  }
  return null;
}

// chosenText is the text an element shows, its open shadow tree and
// slotted content included, leaving out popups of options inside it.
function chosenText(el) {
  var out = '';
  var walk = function (n) {
    for (var c = n.firstChild; c; c = c.nextSibling) {
      if (c.nodeType === TEXT_NODE) { out += ' ' + c.data; continue; }
      if (c.nodeType !== ELEMENT_NODE) continue;
      if (/^(listbox|option|menu|tree|grid|dialog)$/.test(c.getAttribute('role') || '') || c.localName === 'style' || c.localName === 'script') continue;
      if (c.localName === 'slot') { var as = c.assignedNodes({ flatten: true }); for (var i = 0; i < as.length; i++) { if (as[i].nodeType === TEXT_NODE) out += ' ' + as[i].data; else if (as[i].nodeType === ELEMENT_NODE) walk(as[i]); } continue; }
      var cs = getComputedStyle(c);
      if (cs.display === 'none' || cs.visibility === 'hidden') continue;
      walk(c.shadowRoot || c);
    }
  };
  walk(el.shadowRoot || el);
  return normSpace(out);
}

// placeholderOf returns the placeholder hint of a text field, or ''.
function placeholderOf(el) {
  var p = el.getAttribute('placeholder');
  if (p === null) p = el.getAttribute('aria-placeholder');
  return p ? normSpace(p) : '';
}

// isInteractive reports whether el is something an agent acts on: a widget
// role, a focusable element, an editing host, or a clickable element
// (onclick, or a pointer cursor its parent does not have).
function isInteractive(el, role, style, parentPointer) {
  if (WIDGET_ROLES.has(role)) return true;
  if (el.localName === 'summary') return true;
  if (el.hasAttributes()) {
    if (el.hasAttribute('tabindex') && el.tabIndex >= 0) return true;
    if (el.hasAttribute('onclick')) return true;
  }
  if (style && style.cursor === 'pointer' && !parentPointer && el.localName !== 'label') return true;
  return false;
}
