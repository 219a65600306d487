// seek.js: scrolling a virtualized list until an element that is not
// rendered yet renders. One call scans for at most a time slice and
// answers where it stopped; the Go side calls again until the element
// renders, the lists end, or its own time limit passes. Its own function
// scope: only OPS.seek leaves it.

(function () {
var _raf = window.requestAnimationFrame.bind(window);
var _setTimeout = window.setTimeout.bind(window);
var _MessageChannel = window.MessageChannel, _Event = window.Event, _Promise = window.Promise;

// seekLater answers as op does ({r} or {e}, with the refs issued
// meanwhile) once work's promise settles.
function seekLater(s, work) {
  var finish = function (o) {
    o.n = s.next;
    if (s.memo.length) { o.m = s.memo.join('\u001e'); s.memo = []; }
    return o;
  };
  return work().then(function (r) { return finish({ r: r }); }, function (err) { return finish({ e: errorOut(err) }); });
}

// seekMatcher returns a function that finds the wanted element among the
// rendered ones (under root, or anywhere for a selector), or null.
function seekMatcher(q) {
  if (q.sel) {
    return function () {
      var el;
      try { el = queryOne(q.sel); } catch (e) { fail('BAD_ARGUMENT', 'selector: ' + e.message, { field: 'selector' }); }
      return el && isVisible(el) ? el : null;
    };
  }
  var role = (q.role || '').trim().toLowerCase();
  var exact = q.name ? normSpace(q.name) : '';
  var contains = (q.nameContains || '').toLowerCase();
  return function (root) {
    var styles = new Styles(), namer = new Namer(styles);
    var all = (root || document.body || document.documentElement).querySelectorAll('*');
    for (var i = 0; i < all.length; i++) {
      var el = all[i];
      var r = roleOf(el);
      if (role ? r !== role : (r === '' || r === 'generic' || r === 'none')) continue;
      var n = normSpace(namer.name(el, r));
      if (exact && n !== exact) continue;
      if (contains && n.toLowerCase().indexOf(contains) < 0) continue;
      if (!exact && !contains && !role) continue;
      if (isVisible(el)) return el;
    }
    return null;
  };
}

// scrollable reports whether el scrolls vertically.
function scrollable(el) {
  var st = _getComputedStyle(el);
  return st.overflowY !== 'visible' && el.scrollHeight > el.clientHeight + 8 && el.clientHeight > 0;
}

// seekScrollers lists the scrollers to search: the one of the list the
// caller named (itself, else its first scrolling descendant, else its
// scrolling ancestor), or every virtualized list of the document.
function seekScrollers(s, a) {
  if (a.list) {
    var el = locate(s, a.list);
    if (scrollable(el)) return [el];
    var d = el.querySelectorAll('*');
    for (var i = 0; i < d.length; i++) if (scrollable(d[i])) return [d[i]];
    for (var p = flatParent(el); p; p = flatParent(p)) if (scrollable(p)) return [p];
    fail('BAD_ARGUMENT', 'the list names nothing that scrolls', { field: 'listRef' });
  }
  var w = new Walker();
  w.run();
  return w.scrollers.map(function (x) { return x.scroller; });
}

// nextFrame resolves at the next animation frame, or after 50 ms when
// the page is not rendering.
function nextFrame() {
  return new _Promise(function (res) { _raf(function () { res(); }); _setTimeout(res, 50); });
}
function nextTask() {
  return new _Promise(function (res) {
    var ch = new _MessageChannel();
    ch.port1.onmessage = function () { ch.port1.close(); res(); };
    ch.port2.postMessage(0);
  });
}

// renderedBelow is how far below the scroller's top its rendered rows
// reach (at most three pages): scrolling that far leaves no row unseen
// when the list renders every row that is in view.
function renderedBelow(sc) {
  var rows = rowsOf(sc), top = sc.getBoundingClientRect().top, b = 0;
  for (var i = 0; i < rows.length; i++) b = Math.max(b, rows[i].el.getBoundingClientRect().bottom - top);
  return Math.min(b, sc.clientHeight * 3);
}

// rowSig is a cheap signature of what a scroller renders now.
function rowSig(el) {
  var f = el.firstElementChild, l = el.lastElementChild;
  return el.childElementCount + '|' + (f ? f.textContent.slice(0, 40) : '') + '|' + (l ? l.textContent.slice(0, 40) : '') + '|' + el.textContent.length;
}

// hiddenColumns finds a grid among the scrollers that draws only some of
// its columns (aria-colcount above the aria-colindex values it draws):
// {count, drawn}, or null. Only rows were scrolled, so cells in the other
// columns were never drawn, let alone searched.
function hiddenColumns(scrollers) {
  for (var i = 0; i < scrollers.length; i++) {
    var g = scrollers[i].closest('[aria-colcount]');
    if (!g) continue;
    var count = parseInt(g.getAttribute('aria-colcount'), 10);
    var seen = new _Set(), cells = g.querySelectorAll('[aria-colindex]');
    for (var k = 0; k < cells.length; k++) seen.add(cells[k].getAttribute('aria-colindex'));
    if (count > seen.size && seen.size > 0) return { count: count, drawn: seen.size };
  }
  return null;
}

// ---- grids: seeking in both axes ----
// A grid that says where its rows and cells sit (aria-rowindex on rows,
// aria-colindex on cells) is not paged through: the row and column the
// wanted element should be in are read from the query, the scroll
// positions that bring them into view estimated from the drawn rows and
// cells, and the grid scrolled there in one move per axis, then corrected
// from what it draws there.

function intAttr(el, a) {
  var v = parseInt(el.getAttribute(a), 10);
  return v > 0 ? v : 0;
}

// gridOf is the grid a scroller scrolls (around it or inside it), or null.
function gridOf(sc) {
  var q = '[role=grid],[role=treegrid],[role=table]';
  return sc.closest(q) || sc.querySelector(q);
}

// gridRows are the drawn body rows of g that say their index: {el, idx,
// a, b} with a and b their top and bottom in the viewport. Header rows
// (sticky in many grids) do not move with the rows and are left out.
function gridRows(g) {
  var out = [], rs = g.querySelectorAll('[role=row][aria-rowindex]');
  for (var i = 0; i < rs.length; i++) {
    var el = rs[i], idx = intAttr(el, 'aria-rowindex');
    if (!idx || el.querySelector('[role=columnheader]')) continue;
    var r = el.getBoundingClientRect();
    if (r.height > 0) out.push({ el: el, idx: idx, a: r.top, b: r.bottom });
  }
  return out;
}

// gridCells are the drawn cells of the drawn body rows that say their
// column: {el, idx, a, b, row} with a and b their left and right.
function gridCells(rows) {
  var out = [];
  for (var i = 0; i < rows.length; i++) {
    var cs = rows[i].el.querySelectorAll('[aria-colindex]');
    for (var k = 0; k < cs.length; k++) {
      var idx = intAttr(cs[k], 'aria-colindex'), r = cs[k].getBoundingClientRect();
      if (idx && r.width > 0) out.push({ el: cs[k], idx: idx, a: r.left, b: r.right, row: rows[i].idx });
    }
  }
  return out;
}

function hScrollable(el) {
  var st = _getComputedStyle(el);
  return (st.overflowX === 'auto' || st.overflowX === 'scroll') && el.scrollWidth > el.clientWidth + 8 && el.clientWidth > 0;
}

// hScroller is what scrolls g's columns sideways: the row scroller itself,
// else the nearest ancestor of a drawn cell that scrolls sideways, else
// any sideways scroller in the grid (a separate horizontal scroll bar the
// grid follows). null when the columns do not scroll.
function hScroller(g, sc, cells) {
  if (hScrollable(sc)) return sc;
  var stop = g.parentElement;
  if (cells.length) {
    for (var p = cells[0].el.parentElement; p && p !== stop; p = p.parentElement) if (hScrollable(p)) return p;
  }
  var all = g.querySelectorAll('*');
  for (var i = 0; i < all.length; i++) if (hScrollable(all[i])) return all[i];
  return null;
}

// colsUndrawn tells whether g has columns it does not draw now: fewer
// drawn column indexes than aria-colcount, or columns that scroll.
function colsUndrawn(g, cells, hsc) {
  var count = intAttr(g, 'aria-colcount');
  if (!count) { var cc = g.closest('[aria-colcount]'); if (cc) count = intAttr(cc, 'aria-colcount'); }
  var seen = new _Set();
  for (var i = 0; i < cells.length; i++) seen.add(cells[i].idx);
  if (count) return count > seen.size;
  return !!hsc;
}

// numShape splits s into its runs of digits and the rest ("r300c2" →
// "r#c#", [300, 2]).
function numShape(s) {
  var nums = [];
  var skel = String(s).replace(/\d+/g, function (d) { nums.push(+d); return '#'; });
  return { skel: skel, nums: nums };
}

// fitIndex: among samples [{v, idx}] (what drawn rows or cells show, and
// their aria index), a run of digits of want's shape that follows the
// index at a constant offset in every sample of that shape (two indexes
// at least) maps want to an index; 0 when none does. Nothing is assumed
// of the names: a grid whose names or ids do not follow its order (a
// sorted grid) maps nothing and is paged through.
function fitIndex(samples, want) {
  var w = numShape(want);
  if (!w.nums.length) return 0;
  var offs = [], ok = [], idxs = new _Set(), n = 0;
  for (var i = 0; i < samples.length; i++) {
    var sh = numShape(samples[i].v);
    if (sh.skel !== w.skel) continue;
    n++;
    idxs.add(samples[i].idx);
    for (var k = 0; k < sh.nums.length; k++) {
      var o = sh.nums[k] - samples[i].idx;
      if (offs[k] === undefined) { offs[k] = o; ok[k] = true; } else if (offs[k] !== o) ok[k] = false;
    }
  }
  if (n < 2 || idxs.size < 2) return 0;
  for (var j = 0; j < w.nums.length; j++) {
    if (ok[j]) {
      var t = w.nums[j] - offs[j];
      if (t > 0) return t;
    }
  }
  return 0;
}

// selectorPairs are the [attr=value] parts of a selector.
function selectorPairs(sel) {
  var out = [], re = /\[\s*([\w:-]+)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\]\s]+))\s*(?:[is]\s*)?\]/g, m;
  while ((m = re.exec(sel))) out.push({ attr: m[1], v: m[2] !== undefined ? m[2] : m[3] !== undefined ? m[3] : m[4] });
  return out;
}

// gridTarget reads from the query the row and column index the wanted
// element should be at in g ({row, col}, 0 where it says nothing): from a
// name of the shape the drawn cells' names have, or from [attr=value]
// parts of a selector whose attributes the drawn rows or cells carry.
function gridTarget(q, rows, cells) {
  var t = { row: 0, col: 0 };
  if (q.sel) {
    var pairs = selectorPairs(q.sel);
    for (var i = 0; i < pairs.length; i++) {
      var pr = pairs[i], rs = [], cs = [];
      for (var a = 0; a < rows.length; a++) if (rows[a].el.hasAttribute(pr.attr)) rs.push({ v: rows[a].el.getAttribute(pr.attr), idx: rows[a].idx });
      for (var b = 0; b < cells.length; b++) if (cells[b].el.hasAttribute(pr.attr)) cs.push({ v: cells[b].el.getAttribute(pr.attr), idx: cells[b].idx });
      if (!t.row && rs.length) t.row = fitIndex(rs, pr.v);
      if (!t.col && cs.length) t.col = fitIndex(cs, pr.v);
    }
    return t;
  }
  // A part of a name is taken for the name when it has the whole shape
  // of the drawn names (only a guess: where it is wrong, the grid is
  // paged through).
  var want = q.name ? normSpace(q.name) : normSpace(q.nameContains || '').toLowerCase();
  if (!want) return t;
  var role = (q.role || '').trim().toLowerCase();
  var namer = new Namer(new Styles()), rsam = [], csam = [];
  for (var c = 0; c < cells.length && c < 600; c++) {
    var el = cells[c].el, r = roleOf(el);
    if (role && r !== role) continue;
    var n = normSpace(namer.name(el, r));
    if (!n) continue;
    if (!q.name) n = n.toLowerCase();
    rsam.push({ v: n, idx: cells[c].row });
    csam.push({ v: n, idx: cells[c].idx });
  }
  // A name can map to a row only (a one-column grid, "Row 300").
  if (!csam.length) {
    for (var d = 0; d < rows.length; d++) {
      var rr = roleOf(rows[d].el);
      if (role && rr !== role) continue;
      var rn = normSpace(namer.name(rows[d].el, rr));
      if (!q.name) rn = rn.toLowerCase();
      if (rn) rsam.push({ v: rn, idx: rows[d].idx });
    }
  }
  t.row = fitIndex(rsam, want);
  t.col = fitIndex(csam, want);
  return t;
}

// aim is the scroll position that centres index idx along one axis, from
// the drawn items {idx, a, b} (viewport coordinates): the pitch between
// drawn indexes, from the drawn item nearest to idx. edge is the
// scroller's start in the viewport, pos its scroll position, client its
// size. NaN when the items do not say.
function aim(items, idx, edge, pos, client) {
  var by = new _Map();
  for (var i = 0; i < items.length; i++) if (!by.has(items[i].idx)) by.set(items[i].idx, items[i]);
  var xs = [];
  by.forEach(function (v) { xs.push(v); });
  xs.sort(function (p, q) { return p.idx - q.idx; });
  if (!xs.length) return NaN;
  var ps = [];
  for (var k = 1; k < xs.length; k++) {
    var d = xs[k].idx - xs[k - 1].idx;
    if (d > 0) ps.push((xs[k].a - xs[k - 1].a) / d);
  }
  ps.sort(function (p, q) { return p - q; });
  var pitch = ps.length ? ps[ps.length >> 1] : xs[0].b - xs[0].a;
  if (!(pitch > 0)) return NaN;
  var anc = xs[0];
  for (var j = 1; j < xs.length; j++) if (Math.abs(xs[j].idx - idx) < Math.abs(anc.idx - idx)) anc = xs[j];
  return anc.a - edge + pos + (idx - anc.idx) * pitch - (client - pitch) / 2;
}

// gridSig is a cheap signature of what a grid draws now.
function gridSig(g) {
  var rs = g.querySelectorAll('[role=row][aria-rowindex]'), cs = g.querySelectorAll('[aria-colindex]');
  return rs.length + ':' + (rs.length ? rs[0].getAttribute('aria-rowindex') + '-' + rs[rs.length - 1].getAttribute('aria-rowindex') : '') +
    ':' + cs.length + ':' + (cs.length ? cs[0].getAttribute('aria-colindex') + '-' + cs[cs.length - 1].getAttribute('aria-colindex') : '') +
    ':' + g.textContent.length;
}

// gridCovers tells whether what g draws now covers the view of its
// scrollers: drawn rows reach the view's bottom (or the last row is drawn)
// and start in its upper quarter (a sticky header may hide the rows under
// it), and every row in view draws cells across the horizontal scroller's
// view (or up to the last column). Rows and cells a grid has not redrawn
// since a scroll moved with it fail this; a settled grid passes.
function gridCovers(g, sc, hsc) {
  var rows = gridRows(g);
  if (!rows.length) return false;
  var r = sc.getBoundingClientRect(), top = r.top + sc.clientTop, bottom = top + sc.clientHeight;
  var minA = Infinity, maxB = -Infinity, maxIdx = 0;
  for (var i = 0; i < rows.length; i++) {
    minA = Math.min(minA, rows[i].a);
    maxB = Math.max(maxB, rows[i].b);
    maxIdx = Math.max(maxIdx, rows[i].idx);
  }
  var rc = g.closest('[aria-rowcount]') || g.querySelector('[aria-rowcount]');
  var lastRow = rc && maxIdx >= intAttr(rc, 'aria-rowcount');
  if (minA > top + sc.clientHeight / 4 && sc.scrollTop > 1) return false;
  if (maxB < bottom - 1 && !lastRow) return false;
  if (!hsc) return true;
  var h = hsc.getBoundingClientRect(), left = h.left + hsc.clientLeft, right = left + hsc.clientWidth;
  var cc = g.closest('[aria-colcount]') || g.querySelector('[aria-colcount]');
  var colCount = cc ? intAttr(cc, 'aria-colcount') : 0;
  // Every row in view (its sections together: a grid with pinned columns
  // draws a row once per section) draws cells across the horizontal
  // view, or up to its last column: a row drawn without the cells of
  // the view (mid-redraw) does not cover it.
  var spans = new _Map();
  var cells = gridCells(rows);
  for (var k = 0; k < cells.length; k++) {
    var c = cells[k], sp = spans.get(c.row);
    if (!sp) { sp = { a: Infinity, b: -Infinity, max: 0 }; spans.set(c.row, sp); }
    sp.a = Math.min(sp.a, c.a); sp.b = Math.max(sp.b, c.b); sp.max = Math.max(sp.max, c.idx);
  }
  for (var j = 0; j < rows.length; j++) {
    if (rows[j].b <= top || rows[j].a >= bottom) continue; // out of view
    var span = spans.get(rows[j].idx);
    if (!span || span.a > left + 1 || span.b < right - 1 && !(colCount && span.max >= colCount)) return false;
  }
  return true;
}

// settleGrid waits until g covers its view again after a scroll: a few
// tasks, then frames for up to SETTLE_MS (a loaded machine draws late).
// A view that never covered is counted in st.undrawn: the answer then
// cannot say every cell was searched.
var SETTLE_MS = 1500;
function settleGrid(g, sc, hsc, st) {
  var tries = 0, t0 = _now();
  var again = function () {
    if (gridCovers(g, sc, hsc)) return null;
    if (++tries <= 4) return nextTask().then(again);
    if (_now() - t0 < SETTLE_MS) return nextFrame().then(again);
    st.undrawn = (st.undrawn || 0) + 1;
    return null;
  };
  return nextTask().then(again);
}

// gridPage is how far to scroll g's rows down so that the first row below
// the drawn ones comes in at the top of the view: to the bottom of the
// last drawn row, measured from the top of the view under a header that
// stays on top inside the scroller (AG Grid's). At most three pages.
function gridPage(g, sc) {
  var r = sc.getBoundingClientRect(), top = r.top + sc.clientTop, bottom = top + sc.clientHeight, vis = top;
  var hs = g.querySelectorAll('[role=row]');
  for (var i = 0; i < hs.length; i++) {
    if (!hs[i].querySelector('[role=columnheader]')) continue;
    var hr = hs[i].getBoundingClientRect();
    if (hr.height > 0 && hr.top >= top - 1 && hr.bottom <= bottom && hr.bottom > vis) vis = hr.bottom;
  }
  var rows = gridRows(g), b = 0;
  for (var k = 0; k < rows.length; k++) b = Math.max(b, rows[k].b - vis);
  return Math.min(b, sc.clientHeight * 3);
}

// settleOn waits until sig() differs from before: a few tasks, then up to
// frames frames.
function settleOn(sig, before, frames) {
  var tries = 0;
  var again = function () {
    if (sig() !== before) return null;
    if (++tries <= 4) return nextTask().then(again);
    if (tries <= 4 + frames) return nextFrame().then(again);
    return null;
  };
  return nextTask().then(again);
}

// moveTo scrolls el to pos on one axis (clamped) and tells the page now;
// false when it is there already.
function moveTo(el, axis, pos) {
  var max = axis === 'y' ? el.scrollHeight - el.clientHeight : el.scrollWidth - el.clientWidth;
  pos = Math.max(0, Math.min(max, Math.round(pos)));
  var cur = axis === 'y' ? el.scrollTop : el.scrollLeft;
  if (Math.abs(pos - cur) < 1) return false;
  if (axis === 'y') el.scrollTop = pos; else el.scrollLeft = pos;
  el.dispatchEvent(new _Event('scroll'));
  return true;
}

// gridJump brings the target row and column of g into view (up to six
// moves, each from what the grid drew after the last) and resolves the
// wanted element, or null when the grid draws the target row and column
// and the element is not there (the query's indexes were wrong: the
// caller pages instead) or the moves stop getting closer. With only a
// row known, the columns are swept at that row.
function gridJump(match, root, sc, g, t, st) {
  var moves = 0, idle = 0, waited = false, sweeping = false;
  var step = function () {
    var el = match(root);
    if (el) return _Promise.resolve(el);
    var rows = gridRows(g), cells = gridCells(rows), hsc = hScroller(g, sc, cells);
    var rowDrawn = !t.row || rows.some(function (r) { return r.idx === t.row; });
    var colDrawn = !t.col || cells.some(function (c) { return c.idx === t.col; });
    if (rowDrawn && colDrawn) {
      // Cells may be drawn a frame after their rows.
      if (!waited) { waited = true; return nextFrame().then(step); }
      if (t.col || !hsc || !colsUndrawn(g, cells, hsc)) return _Promise.resolve(null);
      // Only the row is known: sweep its columns from the left.
      var sig0 = gridSig(g);
      var next;
      if (!sweeping) { sweeping = true; next = 0; } else next = hsc.scrollLeft + hsc.clientWidth * 0.9;
      if (!moveTo(hsc, 'x', next)) return sweeping && next > 0 ? _Promise.resolve(null) : step();
      st.steps++;
      waited = false;
      return settleOn(function () { return gridSig(g); }, sig0, 6).then(step);
    }
    if (moves >= 6) return _Promise.resolve(null);
    var sig = gridSig(g), moved = false;
    if (!rowDrawn) {
      var y = aim(rows, t.row, sc.getBoundingClientRect().top + sc.clientTop, sc.scrollTop, sc.clientHeight);
      if (y === y) moved = moveTo(sc, 'y', y) || moved;
    }
    if (!colDrawn && hsc) {
      var x = aim(cells, t.col, hsc.getBoundingClientRect().left + hsc.clientLeft, hsc.scrollLeft, hsc.clientWidth);
      if (x === x) moved = moveTo(hsc, 'x', x) || moved;
    }
    if (!moved) {
      // Scrolled where the target should be, and it is not drawn yet:
      // the grid may still be drawing (a frame or more after the scroll).
      if (++idle > 3) return _Promise.resolve(null);
      return settleOn(function () { return gridSig(g); }, sig, 8).then(step);
    }
    idle = 0;
    moves++;
    st.steps++;
    st.jumps = (st.jumps || 0) + 1;
    waited = false;
    return settleOn(function () { return gridSig(g); }, sig, 8).then(step);
  };
  return step();
}

// gridInfo describes a scroller's grid for the answer: its extents, and
// what was searched.
function gridInfo(sc, st) {
  var g = gridOf(sc);
  if (!g) return null;
  var rc = g.closest('[aria-rowcount]') || g.querySelector('[aria-rowcount]');
  var cc = g.closest('[aria-colcount]') || g.querySelector('[aria-colcount]');
  return { rows: rc ? intAttr(rc, 'aria-rowcount') : 0, cols: cc ? intAttr(cc, 'aria-colcount') : 0,
    row_target: st.tr || 0, col_target: st.tc || 0, jumps: st.jumps || 0, both_axes: !!st.h2, undrawn: st.undrawn || 0 };
}

// found answers with the element's ref, after bringing it into view.
function seekFound(s, el, st, scroller) {
  if (el.scrollIntoViewIfNeeded) el.scrollIntoViewIfNeeded(true);
  else el.scrollIntoView({ block: 'center' });
  var role = roleOf(el) || 'generic';
  var name = new Namer(new Styles()).name(el, role);
  var ref = refFor(s, el);
  remember(s, ref, role, name);
  return { found: true, ref: ref, role: role, name: clip(name, 200), steps: st.steps, scroll_top: scroller ? Math.round(scroller.scrollTop) : 0 };
}

// OPS.seek: a.q {sel | role, name, nameContains}, a.list (a locator of
// the list to scroll, optional), a.sliceMs, a.st (the state the previous
// call answered: which scroller, where it started, whether it wrapped).
OPS.seek = function (s, a) {
  var q = a.q || {};
  var match = seekMatcher(q);
  var first = match(null);
  if (first) return seekFound(s, first, { steps: 0 }, null);
  var scrollers = seekScrollers(s, a);
  if (!scrollers.length) return { found: false, lists: 0 };
  var st = a.st || { k: 0, start: -1, wrapped: false, steps: 0 };
  var sliceEnd = performance.now() + (a.sliceMs || 1000);
  return seekLater(s, function () {
    var step = function () {
      if (st.k >= scrollers.length) {
        var last = scrollers[scrollers.length - 1];
        return _Promise.resolve({ found: false, done: true, lists: scrollers.length, st: st, columns: hiddenColumns(scrollers), grid: gridInfo(last, st) });
      }
      var sc = scrollers[st.k], g = gridOf(sc);
      var root = g && g.contains(sc) ? g : sc;
      var max = sc.scrollHeight - sc.clientHeight;
      if (st.start < 0) st.start = sc.scrollTop;
      var el = match(root);
      if (el) return _Promise.resolve(seekFound(s, el, st, sc));
      if (performance.now() > sliceEnd) {
        return _Promise.resolve({ found: false, done: false, lists: scrollers.length, st: st, scroll_top: Math.round(sc.scrollTop), scroll_height: sc.scrollHeight, grid: g ? gridInfo(sc, st) : null });
      }
      // A grid whose rows and cells say their indexes, and a query that
      // names them: jump there (once per list) before paging.
      if (g && st.jk !== st.k) {
        st.jk = st.k;
        var rows0 = gridRows(g), t = gridTarget(q, rows0, gridCells(rows0)), ext = gridInfo(sc, st);
        // An index past the grid's own extent is no place to jump to.
        if (ext.rows && t.row > ext.rows) t.row = 0;
        if (ext.cols && t.col > ext.cols) t.col = 0;
        st.tr = t.row;
        st.tc = t.col;
        if (t.row || t.col) {
          return gridJump(match, root, sc, g, t, st).then(function (found) {
            if (found) return seekFound(s, found, st, sc);
            // Not where the query said (or only its column is known):
            // page through from here, in both axes unless the column is
            // known and reached.
            st.hfix = !!(t.col && !t.row);
            st.start = sc.scrollTop;
            st.wrapped = false;
            return step();
          });
        }
      }
      // A grid that does not draw all its columns: at each row position,
      // sweep its columns (alternately rightwards and leftwards) before
      // the rows move on.
      if (g && !st.hfix) {
        var cells0 = gridCells(gridRows(g)), hsc = hScroller(g, sc, cells0);
        if (hsc && colsUndrawn(g, cells0, hsc)) {
          st.h2 = true;
          var settled = function () {
            st.steps++;
            return settleGrid(g, sc, hsc, st).then(step);
          };
          if (!st.hdir) {
            // The first sweep starts at the left edge.
            st.hdir = 1;
            if (moveTo(hsc, 'x', 0)) return settled();
          }
          if (moveTo(hsc, 'x', hsc.scrollLeft + st.hdir * Math.max(hsc.clientWidth * 0.9, 20))) return settled();
          st.hdir = -st.hdir;
        }
      }
      var next;
      if (sc.scrollTop >= max - 1) {
        if (st.start > 0 && !st.wrapped) { st.wrapped = true; next = 0; }
        else if (st.hfix) {
          // The rows were searched in the column the query named only:
          // search them again in every column before saying "not found".
          st.hfix = false; st.start = -1; st.wrapped = false; st.hdir = 0;
          return step();
        } else { st.k++; st.start = -1; st.wrapped = false; st.hdir = 0; return step(); }
      } else {
        // A page, or up to the bottom of the last row rendered below the
        // view (rows a list renders ahead were checked already).
        // In a grid, the rows its header hides do not count as seen.
        next = Math.min(max, sc.scrollTop + (g ? Math.max(gridPage(g, sc), 20) : Math.max(sc.clientHeight * 0.9, renderedBelow(sc), 20)));
        if (st.wrapped && next >= st.start + sc.clientHeight) {
          if (st.hfix) { st.hfix = false; st.start = -1; st.wrapped = false; st.hdir = 0; return step(); }
          st.k++; st.start = -1; st.wrapped = false; st.hdir = 0; return step();
        }
      }
      var sig = rowSig(sc);
      sc.scrollTop = next;
      // The list hears of the scroll now rather than at the next frame.
      sc.dispatchEvent(new _Event('scroll'));
      st.steps++;
      // Libraries render the new rows in a task they schedule from the
      // scroll handler (React's scheduler) or at the next frame: look
      // after a few tasks first, then after frames.
      // A grid is looked at once it draws what is in view again (some
      // draw a frame or more after the scroll, and not every row at once).
      if (g) return settleGrid(g, sc, st.hfix ? null : hScroller(g, sc, gridCells(gridRows(g))), st).then(step);
      return settleOn(function () { return rowSig(sc); }, sig, 2).then(step);
    };
    return step();
  });
};
})();
