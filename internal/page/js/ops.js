// ops.js: the operations the Go side calls. Each call is one
// Runtime.evaluate of U.op({ns, next, op, …}); the answer is
// {d: document token, n: next ref, m: refs to remember, r: result} or
// {…, e: {code, message, …}} on failure.

var registry = null;

// currentRegistry returns the registry of the current document, making a
// new one after a navigation that reused this window.
function currentRegistry() {
  if (!registry || registry.doc !== document || registry.timeOrigin !== performance.timeOrigin) registry = new Registry();
  return registry;
}

function fail(code, message, extra) {
  var e = new Error(message);
  e.ucode = code;
  e.extra = extra || null;
  throw e;
}

function errorOut(err) {
  if (err && err.ucode) {
    var o = { code: err.ucode, message: err.message };
    if (err.extra) for (var k in err.extra) o[k] = err.extra[k];
    return o;
  }
  return { code: 'INTERNAL_ERROR', message: String(err && err.stack || err) };
}

function meta() {
  return {
    title: document.title,
    url: location.href,
    viewport: { width: window.innerWidth, height: window.innerHeight, scroll_x: Math.round(window.scrollX), scroll_y: Math.round(window.scrollY) }
  };
}

function headerLine(m, count) {
  return '# page ' + quote(clip(m.title, 100)) + ' ' + clip(m.url, 200) + ' viewport=' + m.viewport.width + 'x' + m.viewport.height +
    ' scroll=' + m.viewport.scroll_x + ',' + m.viewport.scroll_y + ' entries=' + count;
}

// ---- locating elements ----

// locate resolves a ref or a selector, or fails with REF_NOT_FOUND (with
// similar refs when the Go side told what the ref was), SELECTOR_NO_MATCH
// or BAD_ARGUMENT.
function locate(s, a) {
  if (a.ref) {
    var el = lookup(s, a.ref);
    if (!el) {
      var extra = { ref: a.ref };
      if (a.want) extra.similar = similar(s, a.want, a.ref);
      fail('REF_NOT_FOUND', 'ref ' + a.ref + ' is not live in this surface: its element was removed or the document was replaced', extra);
    }
    return el;
  }
  var found;
  try { found = queryOne(a.sel); } catch (e) { fail('BAD_ARGUMENT', 'selector: ' + e.message, { field: 'selector' }); }
  if (!found) fail('SELECTOR_NO_MATCH', 'no element matches ' + a.sel);
  return found;
}

// similar walks the document and returns up to five entries that show
// what ref was ({role, name}): the same role and the same name (case and
// spacing aside), nearest the ref first. A control of another role or
// name is never offered (issue 30): acting on it would do something else.
function similar(s, want, ref) {
  var w = new Walker();
  var entries = w.run();
  var was = s.namer;
  s.namer = w.namer;
  try { return similarOf(s, entries, want, ref); } finally { s.namer = was; }
}

function similarOf(s, entries, want, ref) {
  settleQuiet(s, entries);
  var scored = [];
  var key = function (n) { return normSpace(n || '').toLowerCase(); };
  for (var i = 0; i < entries.length; i++) {
    var e = entries[i];
    if (e.textNode || e.role !== want.role || e.ref === ref) continue;
    var label = labelOf(e);
    if (key(label) === key(want.name)) scored.push({ e: e, label: label });
  }
  scored.sort(function (a, b) { return Math.abs(a.e.ref - ref) - Math.abs(b.e.ref - ref); });
  var out = [];
  for (var k = 0; k < scored.length && k < 5; k++) {
    out.push({ ref: scored[k].e.ref, role: scored[k].e.role, name: clip(scored[k].label, 120) });
    sawEntry(s, scored[k].e);
  }
  return out;
}

// settleQuiet settles a walk whose entries the agent is not shown (all of
// them): refs are issued, but what the agent saw of each is left alone.
function settleQuiet(s, entries) {
  s.quiet = true;
  try { settle(s, entries); } finally { s.quiet = false; }
}

// sawEntry records that the agent was shown one entry of a quiet walk.
function sawEntry(s, e) {
  var label = labelOf(e);
  saw(s, e.ref, e.role + '\u001f' + label, e.role, label);
}

// describe is what a list, a focus read or a hit test says of an element.
function describe(s, el) {
  var styles = new Styles();
  var role = roleOf(el);
  var n = new Namer(styles);
  var name = n.name(el, role);
  if (!name && (role === 'generic' || role === '' || role === 'none')) name = clip(normSpace(el.innerText || el.textContent || ''), 80);
  var ref = refFor(s, el);
  remember(s, ref, role || 'generic', name);
  return { ref: ref, role: role || 'generic', name: clip(name, 200), tag: el.localName };
}

// ---- operations ----

var OPS = {};

OPS.snapshot = function (s, a) {
  var o = a.opt || {};
  var started = nowMs();
  var base = s.base;
  var since = !!(o.since && base);
  // The walk stops early: at a cap of entries (a diff needs the whole
  // page, so only when this is not one), and at its deadline.
  var lim = since ? null : walkCap(o);
  var walker = new Walker({ cap: lim ? lim.cap : 0, capInteractive: !!o.interactiveOnly, deadline: o.timeMs > 0 ? started + o.timeMs : 0 });
  var entries = walker.run();
  // The identities of the entries (registry.js) reuse the walk's names.
  s.namer = walker.namer;
  var partial = walker.stop !== '';
  if (walker.stop === 'time' && !entries.length) {
    fail('OPERATION_TIMEOUT', 'the snapshot found no entry within its time limit of ' + o.timeMs + ' ms; the page is free again (a smaller page region, or more time, may help)', { walked_ms: Math.round(nowMs() - started) });
  }
  // What the agent is shown of each ref (REF_STALE) is recorded for the
  // entries the result holds (below): a full snapshot trimmed to a few
  // entries of a large walk shows the agent only those. A diff records
  // every entry walked, as its lines speak for the rows around them.
  if (since) settle(s, entries);
  else settleQuiet(s, entries);
  if (++s.walks % 16 === 0) prune(s);
  var d = base ? diff(base, entries, partial ? s : null) : null;
  s.base = partial && base ? mergeBaseline(s, base, entries) : baselineOf(entries);
  var m = meta();
  var res = { title: m.title, url: m.url, viewport: m.viewport, total: entries.length, truncated: false, frames: [] };
  // Why the result is cut (set below when it is): 'entries' (maxEntries),
  // 'budget' (budgetTokens) or 'time'; partial when the walk did not reach
  // the end of the document (what lies past it is unknown).
  var reason = walker.stop === 'time' ? 'time' : (walker.stop === 'cap' ? lim.reason : '');
  if (partial) {
    res.partial = true;
    res.truncated = true;
    res.reason = reason;
  }
  res.walked = entries.length;
  for (var fi = 0; fi < entries.length; fi++) {
    var fe = entries[fi];
    if (fe.frame) res.frames.push({ ref: fe.ref, src: fe.frame.src, name: fe.frame.name, id: fe.frame.id });
  }
  var text = o.format === 'text';

  if (o.since && d) {
    res.since = true;
    res.count = d.changed.length + d.added.length + d.removed.length;
    if (text) {
      var head = '# since last snapshot: ' + d.changed.length + ' changed, ' + d.added.length + ' added, ' +
        d.removed.length + ' removed \u2014 page ' + quote(clip(m.title, 100)) + ' ' + clip(m.url, 200) +
        ' scroll=' + m.viewport.scroll_x + ',' + m.viewport.scroll_y;
      var lines = sinceText(d, o.interactiveOnly);
      var out = head;
      if (partial) out += '\n' + stopNote(reason, entries.length, o);
      for (var i = 0; i < lines.length; i++) {
        if (o.budget && out.length + 1 + lines[i].length > o.budget - 60) {
          out += '\n# truncated: ' + (lines.length - i) + ' more changes; raise budgetTokens';
          res.truncated = true;
          if (!res.reason) res.reason = 'budget';
          res.omitted = lines.length - i;
          break;
        }
        out += '\n' + lines[i];
      }
      res.text = out;
    } else {
      var keepI = function (e) { return !o.interactiveOnly || e.interactive; };
      res.diff = {
        added: d.added.filter(keepI).map(function (e) { return jsonEntry(e, true); }),
        removed: d.removed.filter(function (r) { return !o.interactiveOnly || r.b.i; }).map(function (r) {
          var x = { role: r.b.r };
          if (!r.b.x) x.ref = r.ref;
          if (r.b.n || r.b.t) x.name = r.b.n || r.b.t;
          if (r.b.c) x.context = r.b.c;
          return x;
        }),
        changed: d.changed.filter(function (c) { return keepI(c.e); }).map(function (c) {
          var x = jsonEntry(c.e, true);
          x.fields = c.f;
          var was = {};
          for (var j = 0; j < c.f.length; j++) {
            var f = c.f[j];
            if (f === 'name') was.name = c.b.n;
            else if (f === 'text') was.text = c.b.t;
            else if (f === 'value') was.value = c.b.v === null ? '' : c.b.v;
            else if (f === 'state') was.flags = c.b.s;
            else if (f === 'role') was.role = c.b.r;
          }
          x.was = was;
          return x;
        })
      };
    }
    return res;
  }

  // A full snapshot.
  var pool = entries;
  if (o.interactiveOnly) {
    pool = [];
    for (var p = 0; p < entries.length; p++) {
      var e = entries[p];
      if (e.interactive || (text && e.kind === K_GROUP)) pool.push(e);
    }
  }
  var marks = d ? d.marks : null;
  if (d) {
    var recent = [];
    marks.forEach(function (v, ref) { recent.push(ref); });
    res.recent = recent;
  }
  var budget = o.budget || 0;
  var maxEntries = o.maxEntries || 2000;
  if (text) {
    var render = function (dropped) {
      var t = new Text(pool, function (x) { return !dropped.has(x); }, marks, !!o.interactiveOnly);
      var n = o.interactiveOnly ? countInteractive(pool, dropped) : t.count;
      var body = headerLine(m, n) + (t.lines.length ? '\n' + t.lines.join('\n') : '');
      return { body: body, count: n };
    };
    var dropped = fit(pool, maxEntries, budget ? budget - 90 : 0, function (dr) { return render(dr).body.length; });
    var r = render(dropped);
    res.count = r.count;
    res.text = r.body;
    if (dropped.size) {
      res.truncated = true;
      res.text += '\n# truncated: ' + dropped.size + ' of ' + pool.length + ' entries ' + (partial ? 'walked ' : '') + 'left out (text before controls, far from the viewport first)';
    }
    if (partial) res.text += '\n' + stopNote(reason, pool.length, o);
  } else {
    var sizes = null;
    var measure = function (dr) {
      if (!sizes) { sizes = new _Map(); for (var q = 0; q < pool.length; q++) sizes.set(pool[q], _JSON.stringify(jsonEntry(pool[q], true)).length + 1); }
      var total = 200;
      for (var w = 0; w < pool.length; w++) if (!dr.has(pool[w])) total += sizes.get(pool[w]);
      return total;
    };
    var dj = fit(pool, maxEntries, budget, measure, function (x) { return sizes.get(x); });
    var list = [];
    for (var z = 0; z < pool.length; z++) if (!dj.has(pool[z])) list.push(jsonEntry(pool[z], true));
    res.entries = list;
    res.count = list.length;
    if (dj.size) res.truncated = true;
    dropped = dj;
  }
  for (var sh = 0; sh < pool.length; sh++) if (!pool[sh].textNode && !dropped.has(pool[sh])) sawEntry(s, pool[sh]);
  if (dropped.size) {
    res.omitted = dropped.size;
    if (!res.reason) res.reason = maxEntries && pool.length > maxEntries ? 'entries' : 'budget';
  }
  res.walk_ms = Math.round(nowMs() - started);
  return res;
};

// walkCap is where a full snapshot's walk stops: well past what maxEntries
// (or budgetTokens, at about 8 characters an entry at the least) can keep,
// so that trimming still keeps the most useful entries of what was walked,
// and never below WALK_MIN entries. reason names the limit that set it.
var WALK_MIN = 1000;
function walkCap(o) {
  var maxEntries = o.maxEntries || 2000;
  var cap = Math.max(WALK_MIN, 4 * maxEntries), reason = 'entries';
  if (o.budget > 0) {
    var b = Math.max(WALK_MIN, Math.ceil(o.budget / 8) * 2);
    if (b < cap) { cap = b; reason = 'budget'; }
  }
  return { cap: cap, reason: reason };
}

// stopNote is the text form's last line when the walk stopped early.
function stopNote(reason, walked, o) {
  if (reason === 'time') {
    return '# truncated: the walk ran out of time (' + o.timeMs + ' ms) after ' + walked + ' entries; the rest of the page was not read';
  }
  return '# truncated: the walk stopped after ' + walked + ' entries (' + (reason === 'budget' ? 'budgetTokens' : 'maxEntries') +
    '); the rest of the page was not read';
}

function countInteractive(pool, dropped) {
  var n = 0;
  for (var i = 0; i < pool.length; i++) if (pool[i].interactive && !dropped.has(pool[i])) n++;
  return n;
}

OPS.find = function (s, a) {
  var q = a.q || {};
  // within: only what lies inside that element (not the element itself).
  var box = null;
  if (q.within) {
    box = lookup(s, q.within);
    if (!box) {
      fail('REF_NOT_FOUND', 'within: ref ' + q.within + ' is not live in this surface: its element was removed or the document was replaced',
        { ref: q.within, field: 'within' });
    }
  }
  var walker = new Walker();
  var entries = walker.run();
  s.namer = walker.namer;
  settleQuiet(s, entries);
  s.base = baselineOf(entries);
  var pool = entries;
  if (q.visible === false) {
    var all = new Walker({ includeHidden: true }).run();
    settleQuiet(s, all);
    pool = all.filter(function (e) { return e.hidden; });
  }
  var role = (q.role || '').trim().toLowerCase();
  var contains = (q.nameContains || '').toLowerCase();
  var text = normSpace(q.text || '').toLowerCase();
  var limit = q.limit || 50;
  var matches = [], count = 0, taken = new _Set(), index = null;
  for (var i = 0; i < pool.length; i++) {
    var e = pool[i];
    if (text) {
      // By visible text: the entry whose own words hold it; words of a row
      // or list item (its cells, its text blocks) find the row or item.
      if (ownWords(e).toLowerCase().indexOf(text) < 0) continue;
      e = textHolder(e);
      if (!e || taken.has(e)) continue;
      taken.add(e);
    } else if (e.textNode) continue; // bare text has no element to act on
    if (box && (e.el === box || !composedContains(box, e.el))) continue;
    var label = labelOf(e);
    if (role && e.role !== role) continue;
    if (q.nameExact && normSpace(label) !== normSpace(q.nameExact)) continue;
    if (contains && label.toLowerCase().indexOf(contains) < 0) continue;
    if (q.enabled !== undefined && q.enabled !== null && (e.flags.indexOf('disabled') < 0) !== q.enabled) continue;
    if (q.interactive !== undefined && q.interactive !== null && e.interactive !== q.interactive) continue;
    count++;
    if (matches.length < limit) {
      sawEntry(s, e);
      var mt = { ref: e.ref, role: e.role, name: clip(label, 200), bbox: entryBox(e) };
      if (e.ctx && e.ctx !== label) mt.context = e.ctx;
      if (e.flags) mt.flags = e.flags;
      if (text && !e.interactive) {
        if (!index) index = entryIndex(pool);
        var cs = controlsIn(pool, index, e);
        if (cs.length) {
          mt.controls = [];
          for (var c = 0; c < cs.length; c++) {
            sawEntry(s, cs[c]);
            mt.controls.push({ ref: cs[c].ref, role: cs[c].role, name: clip(labelOf(cs[c]), 120) });
          }
        }
      }
      matches.push(mt);
    }
  }
  return { matches: matches, count: count, truncated: count > matches.length };
};

// ownWords are the words an entry shows on its line: its name or label,
// its text and its value.
function ownWords(e) {
  var label = labelOf(e), w = label;
  if (e.text && e.text !== label) w += ' ' + e.text;
  if (e.value) w += ' ' + e.value;
  return normSpace(w);
}

// textHolder is the element a text match stands for: a text block or a
// run of bare text inside a row or list item is that row or item; a run of
// bare text elsewhere is the entry around it (null when none: there is no
// element to act on).
function textHolder(e) {
  if (!e.interactive && (e.kind === K_TEXT || e.textNode)) {
    var g = groupOf(e);
    if (g) return g;
  }
  if (e.textNode) {
    var p = e.parent;
    while (p && p.textNode) p = p.parent;
    return p || null;
  }
  return e;
}

function entryIndex(pool) {
  var m = new _Map();
  for (var i = 0; i < pool.length; i++) m.set(pool[i], i);
  return m;
}

// CONTROLS_MAX is how many controls a text match lists.
var CONTROLS_MAX = 12;

// controlsIn returns the controls (interactive entries) inside e, in
// document order: entries follow their parent, so they are the ones after
// it that descend from it.
function controlsIn(pool, index, e) {
  var out = [], at = index.get(e);
  if (at === undefined) return out;
  for (var j = at + 1; j < pool.length && out.length < CONTROLS_MAX; j++) {
    var x = pool[j], inside = false;
    for (var p = x.parent; p; p = p.parent) if (p === e) { inside = true; break; }
    if (!inside) break;
    if (x.interactive && !x.textNode) out.push(x);
  }
  return out;
}

// read runs one element read.
OPS.read = function (s, a) {
  if (a.kind === 'exists') {
    if (a.ref) return !!lookup(s, a.ref);
    try { return !!queryOne(a.sel); } catch (e) { fail('BAD_ARGUMENT', 'selector: ' + e.message, { field: 'selector' }); }
  }
  var el = locate(s, a);
  switch (a.kind) {
    case 'text': {
      var tag = el.localName, t, secretText = isSecretField(el);
      if (tag === 'input' || tag === 'textarea') t = el.value;
      else if (tag === 'select') t = Array.prototype.map.call(el.selectedOptions, optionLabel).join(', ');
      else t = el.innerText;
      if (t === undefined || t === null) t = el.textContent || '';
      var max = a.max || 20000;
      return { text: t.length > max ? t.slice(0, max) : t, truncated: t.length > max, length: t.length, secret: secretText };
    }
    case 'value': {
      var rv = readValue(el);
      if (isSecretField(el)) rv.secret = true;
      return rv;
    }
    case 'attr': {
      var v = el.getAttribute(a.name);
      return { present: v !== null, value: v === null ? '' : v, secret: isSecretField(el) && String(a.name).toLowerCase() === 'value' };
    }
    case 'state':
      return fullState(el, deepActive());
    case 'bbox': {
      var r = el.getBoundingClientRect();
      return {
        viewport: { x: r.left, y: r.top, width: r.width, height: r.height },
        document: { x: r.left + window.scrollX, y: r.top + window.scrollY, width: r.width, height: r.height }
      };
    }
    case 'style': {
      var cs = _getComputedStyle(el), out = {};
      var props = a.props && a.props.length ? a.props : ['display', 'visibility', 'opacity', 'position', 'z-index',
        'color', 'background-color', 'font-size', 'font-weight', 'cursor', 'pointer-events', 'overflow'];
      for (var i = 0; i < props.length; i++) out[props[i]] = cs.getPropertyValue(props[i]);
      return out;
    }
  }
  fail('BAD_ARGUMENT', 'unknown read ' + a.kind, { field: 'kind' });
};

// isSecretField says whether an element's value is a secret (a password
// field): its value is read as a secret (docs/adr/037).
function isSecretField(el) {
  return !!el && el.localName === 'input' && inputType(el) === 'password';
}

function readValue(el) {
  var tag = el.localName;
  if (tag === 'input') {
    var t = inputType(el);
    if (t === 'checkbox' || t === 'radio') return { value: el.value, checked: el.checked };
    return { value: el.value };
  }
  if (tag === 'textarea') return { value: el.value };
  if (tag === 'select') {
    var vals = [], labels = [];
    for (var i = 0; i < el.selectedOptions.length; i++) {
      vals.push(el.selectedOptions[i].value);
      labels.push(optionLabel(el.selectedOptions[i]));
    }
    var o = { value: el.value, label: labels.join(', ') };
    if (el.multiple) o.values = vals;
    return o;
  }
  if (el.isContentEditable) return { value: el.innerText };
  var vn = aria(el, 'aria-valuetext') || aria(el, 'aria-valuenow');
  if (vn !== null) return { value: vn };
  if ('value' in el && el.value !== undefined && el.value !== null) return { value: String(el.value) };
  return { value: '' };
}

OPS.list = function (s, a) {
  var found;
  try { found = queryAll(a.sel); } catch (e) { fail('BAD_ARGUMENT', 'selector: ' + e.message, { field: 'selector' }); }
  var limit = a.limit || 50, items = [];
  for (var i = 0; i < found.length && items.length < limit; i++) {
    var el = found[i];
    var d = describe(s, el);
    d.visible = isVisible(el);
    var t = el.localName === 'input' || el.localName === 'textarea' ? '' : normSpace(el.innerText || '');
    if (t && t !== d.name) d.text = clip(t, 80);
    if (el.id) d.id = el.id;
    d.bbox = docRect(el);
    items.push(d);
  }
  return { items: items, count: found.length, truncated: found.length > items.length };
};

// refsOf issues refs for elements named by paths: each path is a list of
// selectors, the first in the document and each next one in the open
// shadow root of the element before it (how axe-core names a node). A
// path that names nothing is null.
OPS.refsOf = function (s, a) {
  var out = [];
  for (var i = 0; i < a.paths.length; i++) {
    var path = a.paths[i], root = document, el = null;
    for (var j = 0; j < path.length && root; j++) {
      try { el = root.querySelector(path[j]); } catch (e) { el = null; }
      if (!el) break;
      root = j + 1 < path.length ? el.shadowRoot : null;
    }
    out.push(el ? describe(s, el) : null);
  }
  return out;
};

OPS.focused = function (s) {
  var a = deepActive();
  if (!a) return null;
  var d = describe(s, a);
  if (a.id) d.id = a.id;
  var v = valueOf(a, d.role);
  if (v !== null) d.value = v;
  return d;
};

// point scrolls the element into view if needed and returns the center of
// its first visible box in the frame's viewport.
OPS.point = function (s, a) {
  var el = locate(s, a);
  if (!isVisible(el)) fail('ELEMENT_NOT_VISIBLE', 'the element is not visible (no box, display:none or visibility:hidden)');
  if (el.scrollIntoViewIfNeeded) el.scrollIntoViewIfNeeded(true);
  else el.scrollIntoView({ block: 'center', inline: 'center' });
  var rects = el.getClientRects(), box = null;
  for (var i = 0; i < rects.length; i++) if (rects[i].width > 0 && rects[i].height > 0) { box = rects[i]; break; }
  if (!box) box = el.getBoundingClientRect();
  var vw = window.innerWidth, vh = window.innerHeight;
  var l = Math.max(box.left, 0), t = Math.max(box.top, 0), r = Math.min(box.right, vw), b = Math.min(box.bottom, vh);
  if (r <= l || b <= t) fail('ELEMENT_NOT_VISIBLE', 'the element lies outside the viewport after scrolling');
  return { x: (l + r) / 2, y: (t + b) / 2 };
};

// hit tells whether the point (viewport coordinates of the frame) reaches
// the element or one of its descendants, and otherwise what covers it.
OPS.hit = function (s, a) {
  var el = locate(s, a);
  var h = document.elementFromPoint(a.x, a.y);
  while (h && h.shadowRoot) {
    var inner = h.shadowRoot.elementFromPoint(a.x, a.y);
    if (!inner || inner === h) break;
    h = inner;
  }
  if (!h) return { ok: false, reason: 'nothing at that point (outside the viewport)' };
  // A click on a control's own label reaches the control.
  if (composedContains(el, h) || (h.localName === 'label' && h.control === el)) return { ok: true };
  var d = describe(s, h);
  d.selector = cssPath(h);
  return { ok: false, covering: d };
};

// probe reports what the walker computes for one element, entry or not.
OPS.probe = function (s, a) {
  var el = locate(s, a);
  var styles = new Styles();
  var role = roleOf(el);
  var n = new Namer(styles);
  var name = n.name(el, role);
  var from = n.from;
  return {
    role: role, name: name, from: from, description: n.description(el, from), value: valueOf(el, role),
    flags: flagString(el, role, deepActive(), ariaDisabledUp(el)), interactive: isInteractive(el, role, styles.of(el), false),
    excluded: hiddenDeep(el, styles)
  };
};

// op runs one operation and wraps its answer for the Go side.
function op(a) {
  var R = currentRegistry();
  var s = R.space(a.ns, a.next || 1);
  var out = { d: R.token };
  s.namer = null;
  try {
    var f = OPS[a.op];
    if (!f) fail('BAD_ARGUMENT', 'unknown operation ' + a.op, { field: 'op' });
    out.r = f(s, a);
  } catch (err) {
    out.e = errorOut(err);
  } finally {
    // A walk's namer holds only while the document has not changed: the
    // next operation computes identities afresh.
    s.namer = null;
  }
  out.n = s.next;
  if (s.memo.length) { out.m = s.memo.join('\u001e'); s.memo = []; }
  return out;
}

// resolve returns the element itself (so the caller gets a remote object
// id), or, when it cannot, the JSON text of op's failure answer.
function resolve(a) {
  var R = currentRegistry();
  var s = R.space(a.ns, a.next || 1);
  try {
    return locate(s, a);
  } catch (err) {
    var out = { d: R.token, e: errorOut(err), n: s.next };
    if (s.memo.length) { out.m = s.memo.join('\u001e'); s.memo = []; }
    return _JSON.stringify(out);
  }
}
