// walk.js: one pass over the flat tree of the document that yields the
// entries of a snapshot, in document order.

// Entry kinds, which decide how the text form lays an entry out.
var K_LEAF = 0;      // one line, or one item inside a group line
var K_GROUP = 1;     // row, listitem: one line grouping its text and controls
var K_CONTAINER = 2; // landmarks, lists, tables, dialogs…: a line, then its children
var K_TEXT = 3;      // text: its words label the group it sits in

// Walk flags passed down the tree.
var A_ABSORB = 1;   // inside an element named from its content: text and plain entries fold into it
var A_ARIA_DIS = 2; // an ancestor has aria-disabled="true"
var A_POINTER = 4;  // the parent shows a pointer cursor
var A_HIDDEN = 8;   // inside a hidden subtree (only when hidden elements are asked for)
var A_LABEL = 16;   // inside an element that labels another: its text is that element's name

var GROUP_ROLES = new _Set(['row', 'listitem']);
var CONTAINER_ROLES = new _Set(['alert', 'alertdialog', 'application', 'article', 'banner', 'complementary',
  'contentinfo', 'dialog', 'feed', 'figure', 'form', 'grid', 'group', 'list', 'listbox', 'log', 'main',
  'marquee', 'menu', 'menubar', 'navigation', 'note', 'radiogroup', 'region', 'search', 'status', 'table',
  'tablist', 'tabpanel', 'timer', 'toolbar', 'tooltip', 'tree', 'treegrid', 'blockquote', 'document']);
// Roles that become an entry only when they carry text of their own.
var TEXT_ROLES = new _Set(['paragraph', 'rowgroup', 'cell', 'columnheader', 'rowheader', 'term', 'definition', 'caption',
  'generic', 'none', '', 'code', 'emphasis', 'strong', 'deletion', 'insertion', 'mark', 'subscript',
  'superscript', 'time']);
// Roles that are entries however empty.
var LEAF_ROLES = new _Set(['heading', 'img', 'separator', 'progressbar', 'meter', 'math', 'iframe', 'option',
  'scrollbar']);
// Roles whose text is their name: their own words never show as text.
var ABSORBING = new _Set(['button', 'link', 'heading', 'checkbox', 'radio', 'switch', 'tab', 'menuitem',
  'menuitemcheckbox', 'menuitemradio', 'option', 'treeitem', 'tooltip', 'img']);

// FIELD_ROLES take their name from a web component's host when they have
// none of their own.
var FIELD_ROLES = new _Set(['textbox', 'searchbox', 'combobox', 'spinbutton', 'slider', 'checkbox', 'radio', 'switch', 'listbox']);

// shadowHostOf is the host of the shadow root el lives in, or null.
function shadowHostOf(el) {
  var r = el.getRootNode ? el.getRootNode() : null;
  return r && r.host ? r.host : null;
}

// HOLDING are roles whose content is content, not a name, even when the
// element takes the focus (a tabpanel or dialog with tabindex): their text
// shows as theirs instead of folding into them.
var HOLDING = new _Set(['tabpanel', 'dialog', 'alertdialog', 'region', 'group', 'document', 'article', 'main', 'navigation',
  'complementary', 'form', 'search', 'feed', 'log', 'status', 'note', 'application']);

function Entry(el, role, kind) {
  this.el = el;
  this.role = role;
  this.kind = kind;
  this.name = '';
  this.desc = '';
  this.text = '';
  this.tparts = null; // raw text pieces collected while walking
  this.value = null;
  this.ph = '';
  this.flags = '';
  this.level = 0;
  this.interactive = false;
  this.parent = null;
  this.pending = false; // kept only if it ends up with text
  this.dropped = false;
  this.hidden = false;
  this.ref = 0;
  this.frame = null;
  this.label = '';    // group line label (groups), computed in finish
  this.ctx = '';      // label of the group the entry sits in
  this.kids = null;
  this.prevRef = 0;
  this.fromName = '';
  this.clickable = false;
  this.labelParts = null;
  this.order = 0;
  this.bbox = null;
  this.hasControls = false;
  this.textNode = false; // a run of bare text: keyed by its first Text node, shown without a ref
  this.textLen = 0;      // length of the whole text before clipping
  this.extent = null;    // {rows, exact, rendered} of a virtualized list
  this.nkids = 0;        // kept children (set in finish)
  this.valueLen = 0;     // length of the whole value before clipping
  this.editor = false;   // a code editor or terminal (multiline content)
}

// LIVE_ROLES are live regions: an empty, unnamed one is only a place where
// messages may appear, and says nothing until one does.
var LIVE_ROLES = new _Set(['alert', 'status', 'log', 'marquee', 'timer']);
// LIST_ROLES are the roles that can carry a list extent.
var LIST_ROLES = new _Set(['list', 'listbox', 'grid', 'table', 'tree', 'treegrid', 'feed', 'menu', 'tablist']);

// The clock of the walk's deadline, captured at install (a page that
// replaces performance later does not change it).
var _perf = window.performance;
function nowMs() { return _perf && _perf.now ? _perf.now() : Date.now(); }

// CHECK_EVERY is how many elements the walker visits between two looks at
// its deadline (a look costs well under a microsecond).
var CHECK_EVERY = 64;

// Walker walks the document once. opts.includeHidden also yields hidden
// elements (marked hidden), for finds that ask for them. opts.cap stops the
// walk once that many entries were made (only interactive ones counted
// when opts.capInteractive), opts.deadline (a nowMs() time) once it is
// past; this.stop then says why ('cap' or 'time') and the entries are
// those of the document up to there.
function Walker(opts) {
  this.styles = new Styles();
  this.namer = new Namer(this.styles);
  this.active = deepActive();
  this.entries = [];
  this.labelSources = new _Set();
  this.scanned = new _Set();
  this.includeHidden = !!(opts && opts.includeHidden);
  this.scrollers = []; // the extents of the virtualized lists met, in document order
  this.cap = (opts && opts.cap) || 0;
  this.capInteractive = !!(opts && opts.capInteractive);
  this.deadline = (opts && opts.deadline) || 0;
  this.stop = '';
  this.visits = 0;
  this.counted = 0; // entries counted against the cap
}

// run walks the body (or the root element) and returns the kept entries.
Walker.prototype.run = function () {
  var root = document.body || document.documentElement;
  if (!root) return [];
  this.scanLabels(document);
  var st = this.styles.of(root);
  var fl = st.cursor === 'pointer' ? A_POINTER : 0;
  this.children(root, null, null, fl, st.visibility === 'visible');
  return this.finish();
};

// scanLabels records the elements that aria-labelledby points at in one
// tree scope: their words already name another entry.
Walker.prototype.scanLabels = function (scope) {
  if (this.scanned.has(scope)) return;
  this.scanned.add(scope);
  var list = scope.querySelectorAll('[aria-labelledby]');
  for (var i = 0; i < list.length; i++) {
    var refs = idRefs(list[i], list[i].getAttribute('aria-labelledby'));
    for (var j = 0; j < refs.length; j++) if (refs[j] !== list[i]) this.labelSources.add(refs[j]);
  }
};

// children visits the rendered children of el. textVisible is false when
// el's own text is visibility:hidden.
Walker.prototype.children = function (el, parent, owner, fl, textVisible) {
  if (el.shadowRoot) this.scanLabels(el.shadowRoot);
  var kids = rendered(el);
  var details = el.localName === 'details' && !el.open;
  // Where no block owns the text (directly under body, or under an
  // inline element there), consecutive text nodes and inline text holders
  // make one run: a text entry of their own, in document order.
  var run = null;
  var loose = !owner && textVisible && !(fl & (A_ABSORB | A_LABEL));
  for (var i = 0; i < kids.length; i++) {
    if (this.stop) break;
    var c = kids[i];
    if (details && closedDetailsHides(el, c)) {
      if (this.includeHidden && c.nodeType === ELEMENT_NODE) this.visit(c, parent, owner, fl | A_HIDDEN);
      continue;
    }
    if (c.nodeType === ELEMENT_NODE) {
      if (loose && this.inlineText(c, fl)) {
        if (!run) run = this.newRun(c, parent, fl);
        this.visit(c, parent, run, fl);
        continue;
      }
      var before = this.entries.length;
      this.visit(c, parent, owner, fl);
      if (SKIP_TAGS.has(c.localName)) continue; // a script between words does not split them
      if (this.entries.length !== before || !isInlineDisplay(this.styles.of(c).display)) run = null;
    } else if (c.nodeType === TEXT_NODE && textVisible && !(fl & (A_ABSORB | A_LABEL))) {
      if (owner) owner.tparts.push(c.data);
      else if (loose && (run || /\S/.test(c.data))) {
        if (!run) run = this.newRun(c, parent, fl);
        run.tparts.push(c.data);
      }
    }
  }
};

// inlineText reports whether el is an inline element that only holds text
// (span, em, small… with no name, role or interaction of its own).
Walker.prototype.inlineText = function (el, fl) {
  if (SKIP_TAGS.has(el.localName) || el.shadowRoot) return false;
  var st = this.styles.of(el);
  if (!isInlineDisplay(st.display) || st.display === 'contents') return false;
  var role = roleOf(el);
  if (!TEXT_ROLES.has(role) || role === 'cell' || role === 'columnheader' || role === 'rowheader' || hasAuthorName(el)) return false;
  return !isInteractive(el, role, st, fl & A_POINTER);
};

// newRun starts a text entry at node (a Text node or an inline element).
Walker.prototype.newRun = function (node, parent, fl) {
  var e = new Entry(node, 'text', K_TEXT);
  e.pending = true;
  e.tparts = [];
  e.textNode = node.nodeType === TEXT_NODE;
  return this.push(e, parent, fl);
};

Walker.prototype.push = function (e, parent, fl) {
  e.parent = parent;
  if (fl & A_HIDDEN) e.hidden = true;
  this.entries.push(e);
  if (this.cap && (!this.capInteractive || e.interactive) && ++this.counted >= this.cap) this.stop = 'cap';
  return e;
};

Walker.prototype.visit = function (el, parent, owner, fl) {
  if (this.stop) return;
  if (this.deadline && ++this.visits % CHECK_EVERY === 0 && nowMs() > this.deadline) {
    this.stop = 'time';
    return;
  }
  var tag = el.localName;
  if (SKIP_TAGS.has(tag)) return;
  var attrs = el.hasAttributes();
  if (attrs && ariaHidden(el)) {
    if (!this.includeHidden) return;
    fl |= A_HIDDEN;
  }
  var st = this.styles.of(el);
  if (st.display === 'none') {
    if (!this.includeHidden) return;
    fl |= A_HIDDEN;
  }
  var visHidden = st.visibility !== 'visible';
  // Asked for hidden elements, a visibility:hidden one is an entry too
  // (marked hidden; its children keep their own visibility).
  var boxVisible = !visHidden || (fl & A_HIDDEN) || this.includeHidden;
  var pointer = st.cursor === 'pointer';
  var role = roleOf(el);
  var sub = fl & ~A_POINTER;
  if (pointer) sub |= A_POINTER;
  if (attrs && attrTrue(el, 'aria-disabled')) sub |= A_ARIA_DIS;
  var interactive = isInteractive(el, role, st, fl & A_POINTER);
  // A column or row header of a grid that takes focus (tabindex, even -1:
  // the grid's keyboard model moves focus to it, as to its cells) is an
  // entry of its own, named from its content, like the grid's cells; what
  // only shows a pointer cursor inside it (AG Grid's sort label) is part
  // of it, not an unnamed entry beside it.
  var headerCell = !interactive && (role === 'columnheader' || role === 'rowheader') && attrs &&
    el.hasAttribute('tabindex') && !!el.closest('[role=grid],[role=treegrid]');
  if (headerCell) interactive = true;

  // Frames: one entry, never entered (a child frame is its own surface).
  if (tag === 'iframe' || tag === 'frame') {
    if (!boxVisible) return;
    var fe = this.push(new Entry(el, 'iframe', K_LEAF), parent, fl);
    fe.name = this.namer.name(el, 'iframe') || normSpace(el.getAttribute('name') || '');
    fe.interactive = false;
    fe.frame = { src: el.src || el.getAttribute('src') || '', name: el.getAttribute('name') || '', id: el.id || '' };
    fe.flags = flagString(el, 'iframe', this.active, fl & A_ARIA_DIS);
    return;
  }

  // Label-like elements: their words are another element's name.
  if (tag === 'label' && el.control) sub |= A_LABEL;
  else if ((tag === 'legend' || tag === 'caption' || tag === 'figcaption') && el.parentElement) sub |= A_LABEL;
  else if (attrs && this.labelSources.has(el) && TEXT_ROLES.has(role)) sub |= A_LABEL;

  // Cells of a row fold into it: their words become the row's label
  // (cells apart by " | "), their controls sit on the row's line.
  if ((role === 'cell' || role === 'columnheader' || role === 'rowheader') && parent && parent.kind === K_GROUP &&
      owner === parent && !interactive && !(attrs && hasAuthorName(el))) {
    if (owner.tparts && !(fl & (A_ABSORB | A_LABEL))) owner.tparts.push('\u0000');
    this.children(el, parent, owner, sub, !visHidden || !!(fl & A_HIDDEN));
    if (owner.tparts && !(fl & (A_ABSORB | A_LABEL))) owner.tparts.push('\u0000');
    return;
  }

  // A shadow host with no role of its own whose inner control is what
  // takes input (a web-component button: the pointer cursor is on the
  // host, the <button> inside) is transparent: its content shows in its
  // place, once.
  var transparent = false;
  if (interactive && el.shadowRoot && (role === '' || role === 'generic') && !hasAuthorName(el) &&
      !(attrs && (el.hasAttribute('tabindex') || el.hasAttribute('onclick'))) && hasInnerControl(el.shadowRoot)) {
    transparent = true;
    interactive = false;
  }
  var e = null;
  if (boxVisible && !transparent && (interactive || !(fl & A_ABSORB))) {
    e = this.entryFor(el, role, st, fl, interactive);
  }
  if (e) {
    this.push(e, parent, fl);
    if (visHidden) e.hidden = true;
    if (e.clickable || (!ABSORBING.has(role) && (!e.interactive || HOLDING.has(role)))) e.tparts = [];
    else if (e.interactive || ABSORBING.has(role)) sub |= A_ABSORB;
  }

  // Natively rendered controls: nothing inside them is an entry of ours.
  if (tag === 'select') {
    if (e && role === 'listbox') this.options(el, e, fl);
    return;
  }
  if (tag === 'input' || tag === 'textarea' || tag === 'img' || tag === 'progress' || tag === 'meter' || tag === 'video' || tag === 'audio' || tag === 'canvas') return;
  if (e && CHILDREN_PRESENTATIONAL.has(role)) {
    // ARIA makes a tab's (button's, checkbox's…) children presentational,
    // but a control inside one (a tab's close button) still takes clicks
    // and the focus: it is an entry of its own under it (ADR-040).
    this.innerControls(el, e, sub);
    return;
  }
  if (tag === 'svg' || tag === 'math') return;
  if (skipsChildren(el, st)) {
    if (!this.includeHidden) return;
    sub |= A_HIDDEN;
  }

  var newOwner = e && e.tparts ? e : owner;
  var start = this.entries.length;
  this.children(el, e || parent, newOwner, sub, !visHidden || !!(fl & A_HIDDEN));
  if (headerCell && e) {
    for (var hi = start; hi < this.entries.length; hi++) {
      var he = this.entries[hi];
      if (he.interactive && !WIDGET_ROLES.has(he.role) && !focusable(he.el) && !he.el.hasAttribute('onclick')) he.dropped = true;
    }
  }

  // A scroller that renders only some of its rows: its list says how many
  // there are.
  if (st.overflowY !== 'visible' && el.scrollHeight > el.clientHeight + 8 && el.clientHeight > 0) {
    var ext = listExtent(el);
    if (ext) {
      var holder = e && LIST_ROLES.has(e.role) ? e : (parent && LIST_ROLES.has(parent.role) ? parent : null);
      if (!holder) {
        for (var li = start; li < this.entries.length; li++) if (LIST_ROLES.has(this.entries[li].role)) { holder = this.entries[li]; break; }
      }
      if (!holder && e) {
        // The scroller's own entry; a plain block that holds text becomes
        // a container, so it stays to carry the extent.
        if (e.kind === K_TEXT) {
          e.role = 'generic';
          e.kind = K_CONTAINER;
          e.pending = false;
        }
        holder = e;
      }
      if (!holder && boxVisible) {
        // A plain scroller (TanStack Virtual's, with no ARIA at all) gets
        // an entry of its own to carry what is known: how many rows it
        // renders, and about how many its scroll height holds.
        holder = this.entryFor(el, 'generic', st, fl, true);
        holder.interactive = false;
        holder.clickable = false;
        holder.kind = K_CONTAINER;
        holder.parent = parent;
        if (fl & A_HIDDEN) holder.hidden = true;
        this.entries.splice(start, 0, holder);
        for (var ri = start + 1; ri < this.entries.length; ri++) if (this.entries[ri].parent === parent) this.entries[ri].parent = holder;
      }
      ext.scroller = el;
      if (holder && !holder.extent) holder.extent = ext;
      this.scrollers.push(ext);
    }
  }

  // A pointer-cursor element with no control inside is a clickable of its
  // own: it takes the words of its subtree as its name.
  if (e && e.clickable) {
    var inner = false;
    for (var i = start; i < this.entries.length; i++) if (this.entries[i].interactive) { inner = true; break; }
    if (inner) {
      // A card around controls: keep it as a text holder.
      e.interactive = false;
      e.clickable = false;
      e.kind = K_TEXT;
      e.pending = true;
      e.role = 'text';
      e.name = '';
    } else {
      for (var j = start; j < this.entries.length; j++) this.entries[j].dropped = true;
      this.namer.root = el;
      this.namer.visited = new _Set();
      this.namer.nodes = 0;
      e.name = clip(normSpace(this.namer.content(el, 0)), 200);
      e.pending = false;
      e.tparts = null;
      e.kind = K_LEAF;
    }
  }
};

// innerControls adds, under e, the controls inside el, a role whose
// children are presentational: elements with a widget role or in the tab
// order (tabindex >= 0), rendered and not aria-hidden. A control's own
// content is its content, not searched further.
Walker.prototype.innerControls = function (el, e, fl) {
  var kids = rendered(el);
  for (var i = 0; i < kids.length; i++) {
    if (this.stop) return;
    var c = kids[i];
    if (c.nodeType !== ELEMENT_NODE || SKIP_TAGS.has(c.localName)) continue;
    if (c.hasAttributes() && ariaHidden(c) && !this.includeHidden) continue;
    var st = this.styles.of(c);
    if (st.display === 'none' && !this.includeHidden) continue;
    var role = roleOf(c);
    if (WIDGET_ROLES.has(role) || (c.hasAttribute('tabindex') && c.tabIndex >= 0)) {
      if (st.visibility !== 'visible' && !this.includeHidden) continue;
      var cfl = fl & ~A_ABSORB;
      if (c.hasAttributes() && attrTrue(c, 'aria-disabled')) cfl |= A_ARIA_DIS;
      var ce = this.entryFor(c, role, st, cfl, true);
      if (!ce) continue;
      ce.kind = K_LEAF;
      ce.clickable = false;
      ce.tparts = null;
      this.push(ce, e, cfl);
      if (st.display === 'none' || st.visibility !== 'visible' || ariaHidden(c)) ce.hidden = true;
      continue;
    }
    this.innerControls(c, e, fl);
  }
};

// entryFor decides whether el is an entry and fills what is known before
// its children are walked; null when it is not one.
Walker.prototype.entryFor = function (el, role, st, fl, interactive) {
  var tag = el.localName;
  var kind;
  if (GROUP_ROLES.has(role)) kind = K_GROUP;
  else if (CONTAINER_ROLES.has(role)) kind = K_CONTAINER;
  else if (interactive || LEAF_ROLES.has(role)) kind = K_LEAF;
  else if (TEXT_ROLES.has(role)) kind = K_TEXT;
  else kind = K_LEAF;

  if (role === 'group' && !interactive && tag !== 'fieldset' && tag !== 'details' && tag !== 'optgroup' && !hasAuthorName(el)) kind = K_TEXT;
  if (role === 'document' && tag === 'html') return null;

  var e = new Entry(el, role || (interactive ? 'generic' : ''), kind);
  e.interactive = interactive;
  if (kind === K_TEXT && !interactive) {
    // Plain text holders: only block-level ones hold text of their own;
    // inline ones pass their words to the block around them.
    var d = st.display;
    if (isInlineDisplay(d) && role !== 'cell' && role !== 'columnheader' && role !== 'rowheader') return null;
    e.pending = true;
    if (role === 'generic' || role === 'none' || role === '') e.role = 'text';
    return e;
  }
  if (kind === K_TEXT && interactive) {
    // A focusable or clickable generic element.
    e.kind = K_LEAF;
    if (role === 'generic' || role === 'none' || role === '') {
      e.role = 'generic';
      if (!el.hasAttribute('tabindex') && !el.isContentEditable && !el.hasAttribute('onclick')) e.clickable = true;
      else { e.kind = K_LEAF; }
    }
  }
  if (role === 'img' && !interactive) {
    e.name = this.namer.name(el, role);
    if (!e.name) return null; // an unnamed image says nothing
    e.fromName = this.namer.from;
  } else if (role === 'row' && !el.hasAttribute('aria-label') && !el.hasAttribute('aria-labelledby')) {
    // Rows show their cells' words (see finish) rather than a name from
    // content that repeats every control of the row.
  } else if (e.role === 'generic') {
    if (!e.clickable) {
      this.namer.root = el;
      this.namer.visited = new _Set();
      this.namer.nodes = 0;
      var al = el.getAttribute('aria-label');
      e.name = al && al.trim() ? normSpace(al) : clip(normSpace(this.namer.content(el, 0)), 200);
    }
  } else {
    e.name = this.namer.name(el, role);
    e.fromName = this.namer.from;
    if (!e.name && FIELD_ROLES.has(role)) {
      // A web component's inner field (a <textarea> in the shadow root of
      // <vscode-textarea aria-label="…">): the label its author put on the
      // host names it. Chromium leaves the field unnamed and names the
      // host instead; an agent needs the name on the field it acts on.
      var host = shadowHostOf(el);
      if (host && (roleOf(host) === '' || roleOf(host) === 'generic') && (host.hasAttribute('aria-label') || host.hasAttribute('aria-labelledby'))) {
        e.name = this.namer.name(host, 'generic') || normSpace(host.getAttribute('aria-label') || '');
        if (e.name) e.fromName = 'host';
      }
    }
  }
  if (e.name.length > 400) e.name = clip(e.name, 400);
  if (el.hasAttribute('aria-describedby') || el.hasAttribute('aria-description') || (el.hasAttribute('title') && e.fromName !== 'title')) {
    e.desc = clip(this.namer.description(el, e.fromName), 400);
  }
  if (role === 'heading') e.level = headingLevel(el);
  e.value = valueOf(el, role);
  if (e.value !== null && e.value.length > 400) { e.valueLen = e.value.length; e.value = clip(e.value, 400); }
  if ((role === 'textbox' || role === 'searchbox' || role === 'combobox') && e.fromName !== 'placeholder') e.ph = placeholderOf(el);
  e.flags = flagString(el, role, this.active, fl & A_ARIA_DIS);
  if (role === 'textbox') {
    editorContent(el, e);
    if (e.editor && e.value !== null && e.value.length > 400) { e.valueLen = e.value.length; e.value = clip(e.value, 400); }
  }
  return e;
};

// options adds the options of a listbox <select> (the browser draws them;
// they are not walked as elements).
Walker.prototype.options = function (sel, lb, fl) {
  var opts = sel.options;
  for (var i = 0; i < opts.length; i++) {
    var o = opts[i];
    if (o.hidden) continue;
    var e = this.push(new Entry(o, 'option', K_LEAF), lb, fl);
    e.name = optionLabel(o);
    e.interactive = true;
    e.flags = flagString(o, 'option', this.active, (fl & A_ARIA_DIS) || sel.disabled);
  }
};

// finish drops empty text holders, settles text, parents, group labels and
// the previous sibling of every entry, and returns the kept entries.
Walker.prototype.finish = function () {
  var all = this.entries, out = [];
  for (var i = 0; i < all.length; i++) {
    var e = all[i];
    if (e.dropped) continue;
    if (e.tparts) {
      var full = e.tparts.length ? joinText(e.tparts) : '';
      e.textLen = full.length;
      e.text = clip(full, 400);
      e.tparts = null;
    }
    if (e.pending && !e.text) { e.dropped = true; continue; }
    var p = e.parent;
    while (p && p.dropped) p = p.parent;
    e.parent = p;
    out.push(e);
  }
  // Kept children per entry: an unnamed live region with nothing in it is
  // dropped, and an unnamed list that is the only child of a named one
  // (the scroller inside a labelled list) gives it its extent and goes.
  for (var c0 = 0; c0 < out.length; c0++) if (out[c0].parent) out[c0].parent.nkids++;
  for (var c1 = 0; c1 < out.length; c1++) {
    var x0 = out[c1], p0 = x0.parent;
    if (x0.extent && !x0.name && p0 && p0.nkids === 1 && LIST_ROLES.has(p0.role) && p0.name && !p0.extent && !x0.interactive) {
      p0.extent = x0.extent;
      x0.dropped = true;
    }
  }
  var kept = [];
  for (var k = 0; k < out.length; k++) {
    var t = out[k];
    if (t.dropped) continue;
    if (t.kind === K_CONTAINER && LIVE_ROLES.has(t.role) && !t.name && !t.text && !t.nkids) { t.dropped = true; continue; }
    // A text holder that only repeats the name of its neighbour (a visual
    // label next to a field named by aria-label) adds nothing.
    if (t.kind === K_TEXT && !t.name && t.text) {
      var next = out[k + 1], prev = kept[kept.length - 1];
      var hasKids = next && next.parent === t;
      if (!hasKids && ((next && next.name === t.text && next.kind !== K_TEXT) || (prev && prev.name === t.text && prev.kind !== K_TEXT && prev !== t.parent))) {
        t.dropped = true;
        continue;
      }
    }
    var q = t.parent;
    while (q && q.dropped) q = q.parent;
    t.parent = q;
    kept.push(t);
  }
  // Group labels: a row's or list item's own words, then the words of the
  // text entries inside it (cells), joined by " | ".
  for (var g = 0; g < kept.length; g++) {
    var en = kept[g];
    if (en.kind === K_GROUP) en.labelParts = en.text ? [en.text] : [];
    var grp = groupOf(en);
    if (grp && en.kind === K_TEXT && en.text) grp.labelParts.push(en.text);
  }
  for (var h = 0; h < kept.length; h++) {
    var x = kept[h];
    if (x.kind === K_GROUP) {
      x.label = x.name || clip(x.labelParts.join(' | '), 200);
      x.labelParts = null;
    }
  }
  for (var m = 0; m < kept.length; m++) {
    var y = kept[m], gr = groupOf(y);
    y.ctx = gr ? gr.label : '';
    if (gr && y.interactive) gr.hasControls = true;
  }
  return kept;
};

// joinText turns collected text pieces into a flat string; folded cells
// are kept apart by " | ".
function joinText(parts) {
  var s = parts.join('');
  if (s.indexOf('\u0000') < 0) return normSpace(s);
  var cells = s.split('\u0000'), out = [];
  for (var i = 0; i < cells.length; i++) {
    var c = normSpace(cells[i]);
    if (c) out.push(c);
  }
  return out.join(' | ');
}

// groupOf returns the group (row, list item) an entry sits in, when no
// container lies between them.
function groupOf(e) {
  for (var p = e.parent; p; p = p.parent) {
    if (p.kind === K_GROUP) return p;
    if (p.kind === K_CONTAINER) return null;
  }
  return null;
}

// labelOf is what an entry is called on its line: its name, else its text.
function labelOf(e) {
  if (e.kind === K_GROUP) return e.label;
  return e.name || e.text;
}

// hasInnerControl reports whether a shadow root holds a control of its own
// (what a web component forwards its clicks and keys to).
function hasInnerControl(root) {
  return !!root.querySelector('button, input, select, textarea, a[href], [role], [tabindex], [contenteditable]');
}

// entryBox is an entry's box in document coordinates; a run of bare text
// measures its Text node.
function entryBox(e) {
  if (e.bbox) return e.bbox;
  if (e.el.nodeType === TEXT_NODE) {
    var rg = document.createRange();
    rg.selectNodeContents(e.el);
    var r = rg.getBoundingClientRect();
    e.bbox = { x: Math.round(r.left + window.scrollX), y: Math.round(r.top + window.scrollY), width: Math.round(r.width), height: Math.round(r.height) };
    return e.bbox;
  }
  return (e.bbox = docRect(e.el));
}

// ---- virtualized lists ----

var ITEM_ROLES = new _Set(['listitem', 'row', 'option', 'treeitem', 'article', 'menuitem', 'tab', 'gridcell']);

// rowsOf returns the rendered rows of a scroller: its element children, or
// those of the one content element that holds them (a list's inner
// sizer), at most three levels down.
function rowsOf(el) {
  var kids = el.children;
  for (var depth = 0; depth < 3; depth++) {
    var best = null, n = 0;
    for (var i = 0; i < kids.length; i++) {
      var k = kids[i];
      if (ITEM_ROLES.has(roleOf(k))) n++;
      if (!best || k.children.length > best.children.length) best = k;
    }
    if (n >= 2 || kids.length >= 3 || !best || best.children.length < 2) break;
    kids = best.children;
  }
  var out = [], roled = [];
  for (var j = 0; j < kids.length; j++) {
    var r = kids[j].getBoundingClientRect();
    if (!(r.height > 0 && r.width > 0)) continue;
    var it = { el: kids[j], h: r.height };
    out.push(it);
    if (ITEM_ROLES.has(roleOf(kids[j]))) roled.push(it);
  }
  return roled.length >= 2 ? roled : out;
}

// listExtent tells whether a scroller renders only part of its rows and,
// if so, how many rows it has: exactly from aria-setsize / aria-rowcount,
// else inferred from its scroll height and the height of its uniform
// rendered rows (exact:false). null when it is not a virtualized list.
function listExtent(el) {
  var rows = rowsOf(el);
  if (rows.length < 2) return null;
  var total = -1;
  var rc = el.closest('[aria-rowcount]');
  if (rc) total = parseInt(rc.getAttribute('aria-rowcount'), 10);
  if (!(total >= 0)) {
    var ss = el.querySelector('[aria-setsize]');
    if (ss) total = parseInt(ss.getAttribute('aria-setsize'), 10);
  }
  if (total >= 0) {
    // A grid draws a row in each of its column sections (pinned left,
    // centre, pinned right): rows count once, by aria-rowindex.
    var drawn = rows.length, seen = new _Set(), rs = el.querySelectorAll('[role=row][aria-rowindex]');
    for (var ri = 0; ri < rs.length; ri++) if (rs[ri].getClientRects().length) seen.add(rs[ri].getAttribute('aria-rowindex'));
    if (seen.size) drawn = seen.size;
    return total > drawn ? { rows: total, exact: true, rendered: drawn } : null;
  }
  // The most common row height, and how many rows have it.
  var counts = new _Map(), h = 0, best = 0;
  for (var i = 0; i < rows.length; i++) {
    var k = Math.round(rows[i].h);
    var c = (counts.get(k) || 0) + 1;
    counts.set(k, c);
    if (c > best) { best = c; h = k; }
  }
  if (h < 4 || best < rows.length * 0.8) return null;
  var est = Math.round(el.scrollHeight / h);
  if (est < rows.length * 1.5 || est - rows.length < 10) return null;
  return { rows: est, exact: false, rendered: best };
}

// ---- editors and terminals ----

// editorContent fills what a code editor or terminal shows into the
// entry of its text box: Monaco's drawn lines as its value (partial when
// more lines may lie outside what is drawn), xterm.js's rows as its text.
function editorContent(el, e) {
  var mon = el.closest('.monaco-editor');
  if (mon) {
    var lines = mon.querySelectorAll('.view-lines > .view-line');
    if (!lines.length) return;
    var arr = [];
    for (var i = 0; i < lines.length; i++) arr.push({ top: parseFloat(lines[i].style.top) || 0, t: lines[i].textContent.replace(/\u00a0/g, ' ') });
    arr.sort(function (a, b) { return a.top - b.top; });
    var txt = arr.map(function (x) { return x.t; });
    var lh = lines[0].getBoundingClientRect().height || 1;
    var view = mon.getBoundingClientRect().height;
    var first = mon.querySelector('.line-numbers');
    var partial = arr.length * lh >= view - lh || (first && parseInt(first.textContent, 10) > 1);
    while (txt.length > 1 && txt[txt.length - 1] === '') txt.pop();
    e.value = txt.join('\n');
    e.editor = true;
    e.flags = (e.flags ? e.flags + ' ' : '') + 'multiline' + (partial ? ' partial' : '');
    return;
  }
  var term = el.closest('.xterm');
  if (term) {
    var tree = term.querySelector('.xterm-accessibility-tree');
    var rows = tree && tree.children.length ? tree.children : term.querySelectorAll('.xterm-rows > div');
    var out = [];
    for (var j = 0; j < rows.length; j++) out.push(rows[j].textContent.replace(/\u00a0/g, ' ').replace(/\s+$/, ''));
    while (out.length && out[out.length - 1] === '') out.pop();
    var full = out.join('\n');
    e.textLen = full.length;
    e.text = clip(full, 2000);
    e.editor = true;
    e.flags = (e.flags ? e.flags + ' ' : '') + 'multiline';
  }
}
