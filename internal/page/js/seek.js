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
  var match = seekMatcher(a.q || {});
  var first = match(null);
  if (first) return seekFound(s, first, { steps: 0 }, null);
  var scrollers = seekScrollers(s, a);
  if (!scrollers.length) return { found: false, lists: 0 };
  var st = a.st || { k: 0, start: -1, wrapped: false, steps: 0 };
  var sliceEnd = performance.now() + (a.sliceMs || 1000);
  return seekLater(s, function () {
    var step = function () {
      if (st.k >= scrollers.length) return _Promise.resolve({ found: false, done: true, lists: scrollers.length, st: st, columns: hiddenColumns(scrollers) });
      var sc = scrollers[st.k];
      var max = sc.scrollHeight - sc.clientHeight;
      if (st.start < 0) st.start = sc.scrollTop;
      var el = match(sc);
      if (el) return _Promise.resolve(seekFound(s, el, st, sc));
      if (performance.now() > sliceEnd) {
        return _Promise.resolve({ found: false, done: false, lists: scrollers.length, st: st, scroll_top: Math.round(sc.scrollTop), scroll_height: sc.scrollHeight });
      }
      var next;
      if (sc.scrollTop >= max - 1) {
        if (st.start > 0 && !st.wrapped) { st.wrapped = true; next = 0; }
        else { st.k++; st.start = -1; st.wrapped = false; return step(); }
      } else {
        // A page, or up to the bottom of the last row rendered below the
        // view (rows a list renders ahead were checked already).
        next = Math.min(max, sc.scrollTop + Math.max(sc.clientHeight * 0.9, renderedBelow(sc), 20));
        if (st.wrapped && next >= st.start + sc.clientHeight) { st.k++; st.start = -1; st.wrapped = false; return step(); }
      }
      var sig = rowSig(sc);
      sc.scrollTop = next;
      // The list hears of the scroll now rather than at the next frame.
      sc.dispatchEvent(new _Event('scroll'));
      st.steps++;
      // Libraries render the new rows in a task they schedule from the
      // scroll handler (React's scheduler) or at the next frame: look
      // after a few tasks first, then after frames.
      var tries = 0;
      var settle = function () {
        if (rowSig(sc) !== sig) return null;
        if (++tries <= 4) return nextTask().then(settle);
        if (tries <= 6) return nextFrame().then(settle);
        return null;
      };
      return nextTask().then(settle).then(step);
    };
    return step();
  });
};
})();
