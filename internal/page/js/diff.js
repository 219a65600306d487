// diff.js: baselines and what changed since them. A baseline holds, per
// ref, what an agent can see of the entry: role, name, own text, value,
// states and its place (parent and previous sibling). Boxes are not part of
// it: a scroll, or content inserted above, moves boxes without changing
// anything an agent acts on; a reorder still shows, as "moved".

function baseRecord(e) {
  return {
    r: e.role, n: e.kind === K_GROUP ? e.label : e.name, t: e.text, v: e.value, s: e.flags,
    p: e.parent ? e.parent.ref : 0, b: e.prevRef, c: e.ctx, i: e.interactive, k: e.kind, x: e.textNode
  };
}

function baselineOf(entries) {
  var m = new _Map();
  for (var i = 0; i < entries.length; i++) m.set(entries[i].ref, baseRecord(entries[i]));
  return m;
}

// changedFields compares an entry with its baseline record.
function changedFields(e, b) {
  var f = [];
  if (e.role !== b.r) f.push('role');
  if ((e.kind === K_GROUP ? e.label : e.name) !== b.n) f.push('name');
  if (e.text !== b.t) f.push('text');
  if (e.value !== b.v) f.push('value');
  if (e.flags !== b.s) f.push('state');
  if ((e.parent ? e.parent.ref : 0) !== b.p || e.prevRef !== b.b) f.push('moved');
  return f;
}

// mergeBaseline is the baseline after a walk that stopped early: the
// records of what it walked, and the old records of the refs it did not
// reach whose elements still live (they lie past where it stopped).
function mergeBaseline(s, base, entries) {
  var m = baselineOf(entries);
  base.forEach(function (b, ref) { if (!m.has(ref) && (b.x || lookup(s, ref))) m.set(ref, b); });
  return m;
}

// diff compares the entries of a walk with a baseline: changed (with the
// fields), added, and removed (baseline records of refs no longer seen).
// After a walk that stopped early (partial, the registry given), a ref not
// seen is removed only when its element is gone: the walk may not have
// reached it.
function diff(base, entries, partial) {
  var out = { changed: [], added: [], removed: [], marks: new _Map() };
  var seen = new _Set();
  for (var i = 0; i < entries.length; i++) {
    var e = entries[i];
    seen.add(e.ref);
    var b = base.get(e.ref);
    if (!b) { out.added.push(e); out.marks.set(e.ref, '+'); continue; }
    var f = changedFields(e, b);
    if (f.length) { out.changed.push({ e: e, f: f, b: b }); out.marks.set(e.ref, '~'); }
  }
  base.forEach(function (b, ref) {
    if (seen.has(ref)) return;
    if (partial && (b.x || lookup(partial, ref))) return;
    out.removed.push({ ref: ref, b: b });
  });
  return out;
}

// flagDelta describes a state change as +flag / -flag tokens.
function flagDelta(before, after) {
  var a = before ? before.split(' ') : [], b = after ? after.split(' ') : [];
  var out = [];
  for (var i = 0; i < b.length; i++) if (a.indexOf(b[i]) < 0) out.push('+' + b[i]);
  for (var j = 0; j < a.length; j++) if (b.indexOf(a[j]) < 0) out.push('-' + a[j]);
  return out.join(' ');
}

// changeNote says what changed, for the text form.
function changeNote(c) {
  var notes = [];
  for (var i = 0; i < c.f.length; i++) {
    var f = c.f[i];
    if (f === 'state') notes.push(flagDelta(c.b.s, c.e.flags));
    else if (f === 'name') notes.push('name was ' + quote(clip(c.b.n || '', 40)));
    else if (f === 'text') notes.push('text was ' + quote(clip(c.b.t || '', 40)));
    else if (f === 'value') notes.push('value was ' + quote(clip(c.b.v === null ? '' : c.b.v, 40)));
    else if (f === 'role') notes.push('role was ' + c.b.r);
    else notes.push(f);
  }
  return ' (' + notes.join('; ') + ')';
}

function ctxNote(ctx, e) {
  return ctx && (!e || labelOf(e) !== ctx) ? ' \u2014 in ' + quote(clip(ctx, 60)) : '';
}

// sinceText renders a diff as lines: ~ changed, + added, - removed, each
// with the row or list item it sits in.
function sinceText(d, interactiveOnly) {
  var lines = [];
  var items = [];
  for (var i = 0; i < d.changed.length; i++) items.push({ e: d.changed[i].e, c: d.changed[i] });
  for (var j = 0; j < d.added.length; j++) items.push({ e: d.added[j], c: null });
  items.sort(function (a, b) { return a.e.order - b.e.order; });
  for (var k = 0; k < items.length; k++) {
    var it = items[k];
    if (interactiveOnly && !it.e.interactive) continue;
    if (it.c) lines.push(itemText(it.e, '~') + changeNote(it.c) + ctxNote(it.e.ctx, it.e));
    else lines.push(itemText(it.e, '+') + ctxNote(it.e.ctx, it.e));
  }
  for (var r = 0; r < d.removed.length; r++) {
    var b = d.removed[r].b;
    if (interactiveOnly && !b.i) continue;
    var s = '-' + (b.x ? '' : '[' + d.removed[r].ref + '] ') + b.r;
    var n = b.n || b.t;
    if (n) s += ' ' + quote(clip(n, LABEL_MAX));
    lines.push(s + ctxNote(b.c, null));
  }
  return lines;
}
