// render.js: refs for a walk's entries, the compact text form, JSON
// entries, and trimming to maxEntries / budgetTokens.

var LABEL_MAX = 100;       // characters of a name or text on a line
var GROUP_LABEL_MAX = 120; // characters of a group line's label
var VALUE_MAX = 80;
var EDITOR_MAX = 300;      // characters of an editor's or terminal's content on a line

// lenNote says how long a text cut on a line was: " len=N" when s (or the
// whole text it was cut from, full characters) is longer than max.
function lenNote(s, max, full) {
  var n = Math.max(s.length, full || 0);
  return n > max ? ' len=' + n : '';
}
var TEXTLIKE_VALUE = new _Set(['textbox', 'searchbox', 'combobox', 'spinbutton', 'slider']);

// settle gives every entry its ref (issuing new ones in document order),
// tells the Go side about new or renamed refs, and records each entry's
// previous sibling (so a move shows as a change without a cascade).
function settle(s, entries) {
  var last = new _Map();
  for (var i = 0; i < entries.length; i++) {
    var e = entries[i];
    e.ref = refFor(s, e.el);
    e.order = i;
    // A run of bare text has no element to act on: the Go side never hears
    // of its ref (it is only the key of its baseline record).
    if (!e.textNode) remember(s, e.ref, e.role, labelOf(e));
    var key = e.parent || last;
    e.prevRef = last.get(key) || 0;
    last.set(key, e.ref);
  }
}

function quote(s) { return _JSON.stringify(s); }

// itemText is one entry as "[ref] role "label" …" with its non-default
// states; mark is '', '~' (changed) or '+' (added).
function itemText(e, mark, labelOverride) {
  var s = mark + (e.textNode ? '' : '[' + e.ref + '] ') + e.role;
  var label = labelOverride === undefined ? labelOf(e) : labelOverride;
  if (label) s += ' ' + quote(clip(label, LABEL_MAX)) + lenNote(label, LABEL_MAX, !e.name && e.kind !== K_GROUP ? e.textLen : 0);
  if (e.name && e.text && e.text !== e.name && e.kind !== K_GROUP) {
    var tmax = e.editor ? EDITOR_MAX : LABEL_MAX;
    s += ' text=' + quote(clip(e.text, tmax)) + lenNote(e.text, tmax, e.textLen);
  }
  if (e.level) s += ' level=' + e.level;
  if (e.extent) s += ' rows' + (e.extent.exact ? '=' : '\u2248') + e.extent.rows + ' rendered=' + e.extent.rendered;
  if (e.value !== null && (e.value !== '' || TEXTLIKE_VALUE.has(e.role))) {
    var vmax = e.editor ? EDITOR_MAX : VALUE_MAX;
    s += ' value=' + quote(clip(e.value, vmax)) + lenNote(e.value, vmax, e.valueLen);
  }
  if (e.ph && !e.value) s += ' placeholder=' + quote(clip(e.ph, 60));
  if (e.flags) s += ' ' + e.flags;
  if (e.hidden) s += ' hidden';
  if (e.frame) s += '\u0001' + e.ref + '\u0001';
  return s;
}

// Text renders kept entries as lines. keep(e) says whether an entry is
// shown; marks maps refs to '~' or '+'.
function Text(entries, keep, marks, interactiveOnly) {
  this.lines = [];
  this.marks = marks;
  this.interactiveOnly = interactiveOnly;
  this.count = 0;
  // Children lists over the kept entries.
  var roots = [];
  var shown = new _Set();
  for (var i = 0; i < entries.length; i++) {
    entries[i].kids = null;
    if (keep(entries[i])) shown.add(entries[i]);
  }
  for (var j = 0; j < entries.length; j++) {
    var e = entries[j];
    if (!shown.has(e)) continue;
    this.count++;
    var p = e.parent;
    while (p && !shown.has(p)) p = p.parent;
    if (p) (p.kids || (p.kids = [])).push(e);
    else roots.push(e);
  }
  for (var k = 0; k < roots.length; k++) this.node(roots[k], 0);
}

Text.prototype.mark = function (e) {
  return (this.marks && this.marks.get(e.ref)) || '';
};

var SPACES = '                                        ';

Text.prototype.indent = function (depth) {
  return '';
};

Text.prototype.node = function (e, depth) {
  if (e.kind === K_GROUP || (e.kind === K_TEXT && e.kids)) { this.group(e, depth); return; }
  if (this.interactiveOnly && !e.interactive) {
    this.kidsOf(e, depth);
    return;
  }
  this.lines.push(this.indent(depth) + itemText(e, this.mark(e)));
  this.kidsOf(e, depth + 1);
};

Text.prototype.kidsOf = function (e, depth) {
  var ks = e.kids;
  if (!ks) return;
  for (var i = 0; i < ks.length; i++) this.node(ks[i], depth);
};

// group lays out a row or list item (or text with controls inside) as one
// line: role "its words": [ref] control … ; nested groups and containers
// follow on their own lines.
Text.prototype.group = function (g, depth) {
  var parts = [], inline = [], deferred = [];
  if (g.name) parts.push(g.name);
  else if (g.text) parts.push(g.text);
  var changed = this.mark(g);
  changed = this.collect(g, parts, inline, deferred, !!g.name) || changed;
  // A row's label was settled by the walk (its words and its cells'); a
  // text holder with controls inside speaks with its own words.
  var label = clip(g.kind === K_GROUP ? g.label : parts.join(' | '), GROUP_LABEL_MAX);
  var ind = this.indent(depth);
  var role = g.role;
  if (!inline.length) {
    if (!this.interactiveOnly) this.lines.push(ind + itemText(g, changed ? (this.mark(g) || '~') : '', label));
  } else {
    var items = [], names = [];
    for (var i = 0; i < inline.length; i++) {
      items.push(itemText(inline[i], this.mark(inline[i])));
      if (inline[i].name) names.push(inline[i].name);
    }
    if (!g.name) {
      var rest = elide(label, names);
      // With interactiveOnly, a row whose controls already name it (the
      // elision took words away) shows only its controls: the words left
      // are text, which interactiveOnly leaves out. A row whose controls
      // do not name it keeps its words, which tell its controls apart.
      label = this.interactiveOnly && rest !== label ? '' : rest;
    }
    var head = '';
    if (label || g.flags) {
      head = changed ? (this.mark(g) || '~') : '';
      head += label ? quote(label) : role;
      if (g.flags) head += ' ' + g.flags;
      head += ': ';
    }
    this.lines.push(ind + head + items.join(' '));
  }
  for (var d = 0; d < deferred.length; d++) this.node(deferred[d], depth + 1);
};

var SEPARATOR_TOKEN = /^[\u2014\u2013\-|:,;\u00b7\/]+$/;

// elide drops from a group line's label the words at its start or end that
// a control on the same line already says ("Item 17" when the checkbox is
// "Select Item 17"), with the punctuation that joined them, so a row of
// controls named after it does not say everything twice. The words stay
// on the line, inside the control's name.
function elide(label, names) {
  if (!label || !names.length) return label;
  var toks = label.split(' ');
  var bestStart = -1, bestLen = 0;
  for (var n = 0; n < names.length; n++) {
    var hay = ' ' + names[n].toLowerCase() + ' ';
    // Longest prefix of the label found in the name.
    for (var len = toks.length; len > bestLen; len--) {
      if (hay.indexOf(' ' + toks.slice(0, len).join(' ').toLowerCase() + ' ') >= 0) { bestStart = 0; bestLen = len; break; }
    }
    // Longest suffix.
    for (var len2 = toks.length; len2 > bestLen; len2--) {
      if (hay.indexOf(' ' + toks.slice(toks.length - len2).join(' ').toLowerCase() + ' ') >= 0) { bestStart = toks.length - len2; bestLen = len2; break; }
    }
  }
  if (bestLen === 0) return label;
  var cut = toks.slice(bestStart, bestStart + bestLen).join(' ');
  if (cut.length < 4 && bestLen < toks.length) return label;
  var rest = bestStart === 0 ? toks.slice(bestLen) : toks.slice(0, bestStart);
  if (bestStart === 0) { while (rest.length && SEPARATOR_TOKEN.test(rest[0])) rest.shift(); }
  else { while (rest.length && SEPARATOR_TOKEN.test(rest[rest.length - 1])) rest.pop(); }
  return rest.join(' ');
}

// collect gathers a group's words (text entries), its inline items (every
// other entry) and what must go on lines of its own (nested groups and
// containers). It reports whether any of the words changed.
Text.prototype.collect = function (e, parts, inline, deferred, named) {
  var changed = false;
  var ks = e.kids;
  if (!ks) return false;
  for (var i = 0; i < ks.length; i++) {
    var c = ks[i];
    if (c.kind === K_GROUP || c.kind === K_CONTAINER) { deferred.push(c); continue; }
    if (c.kind === K_TEXT && !c.interactive) {
      if (!named && c.text) parts.push(c.text);
      if (this.mark(c)) changed = true;
    } else if (!this.interactiveOnly || c.interactive) {
      inline.push(c);
    }
    if (this.collect(c, parts, inline, deferred, named)) changed = true;
  }
  return changed;
};

// usefulness ranks what a budget keeps longest: controls (and the rows
// and list items that hold them, which tell them apart), then structure,
// then other leaves and groups, then text.
function usefulness(e) {
  if (e.interactive || e.hasControls) return 3;
  if (e.kind === K_CONTAINER || e.role === 'heading') return 2;
  if (e.kind === K_GROUP || e.kind === K_LEAF) return 1;
  return 0;
}

// dropOrder returns the entries from least to most useful: less useful
// first, and among equals the farthest from the viewport first.
function dropOrder(entries) {
  var top = window.scrollY, bottom = top + window.innerHeight;
  var arr = [];
  for (var i = 0; i < entries.length; i++) {
    var e = entries[i];
    var b = entryBox(e);
    var dist = b.y > bottom ? b.y - bottom : (b.y + b.height < top ? top - b.y - b.height : 0);
    arr.push({ e: e, u: usefulness(e), d: dist, i: i });
  }
  arr.sort(function (a, b) { return a.u - b.u || b.d - a.d || b.i - a.i; });
  return arr.map(function (x) { return x.e; });
}

function lineCost(e) {
  return 12 + e.role.length + Math.min(labelOf(e).length, LABEL_MAX) + e.flags.length + (e.value ? Math.min(e.value.length, VALUE_MAX) + 8 : 0);
}

// fit drops entries (least useful first) until there are at most
// maxEntries and measure() of what is left fits budget (0 = none); cost(e)
// estimates what dropping e frees (lineCost when not given). It returns
// the set of dropped entries.
function fit(entries, maxEntries, budget, measure, cost) {
  cost = cost || lineCost;
  var dropped = new _Set();
  var order = null, at = 0;
  if (maxEntries && entries.length > maxEntries) {
    order = dropOrder(entries);
    while (entries.length - dropped.size > maxEntries) dropped.add(order[at++]);
  }
  if (!budget) return dropped;
  for (var iter = 0; iter < 12; iter++) {
    var size = measure(dropped);
    if (size <= budget) break;
    if (!order) order = dropOrder(entries);
    if (at >= order.length) break;
    var over = size - budget, freed = 0;
    while (at < order.length && freed < over) {
      var e = order[at++];
      dropped.add(e);
      freed += cost(e);
    }
  }
  return dropped;
}

// jsonEntry is the wire form of an entry for the Go side.
function jsonEntry(e, withBox) {
  var o = { role: e.role };
  if (!e.textNode) o.ref = e.ref;
  var label = e.kind === K_GROUP ? e.label : e.name;
  if (label) o.name = label;
  if (e.text && e.text !== label) {
    o.text = e.text;
    if (e.textLen > e.text.length) o.text_length = e.textLen;
  }
  if (e.valueLen) o.value_length = e.valueLen;
  if (e.extent) {
    o.rows = e.extent.rows;
    if (!e.extent.exact) o.rows_estimated = true;
    o.rendered = e.extent.rendered;
  }
  if (e.desc) o.description = e.desc;
  if (e.value !== null) o.value = e.value;
  if (e.ph) o.placeholder = e.ph;
  if (e.level) o.level = e.level;
  if (e.flags) o.flags = e.flags;
  if (e.interactive) o.interactive = true;
  if (e.hidden) o.hidden = true;
  if (e.parent && !e.parent.textNode) o.parent = e.parent.ref;
  if (e.ctx) o.context = e.ctx;
  if (e.frame) o.frame = e.frame;
  if (withBox) o.bbox = entryBox(e);
  return o;
}
