// wait.js: waits and expectations polled inside the renderer in one bounded
// call. OPS.wait returns a promise that settles with a whole answer
// ({d, n, m, r} or {d, n, e}); the Go side evaluates it with awaitPromise
// and a call timeout a little above the budget, so a wait of seconds costs
// one round trip, not one per poll.
//
// a.c is the condition (element conditions name the element with ref or
// sel, plus want, as every operation does):
//   {k:'selector', state:'attached'|'visible'|'hidden'|'detached'}
//   {k:'state', flags:{visible:true, enabled:true, …}}
//   {k:'visible', vis:true|false}
//   {k:'text'|'value', m:{op, v, flags, field}}   no element: the document's text
//   {k:'count', sel | role (+ name | nameContains), eq, min, max}
//   {k:'url', m:{op, v, flags, field}}
//   {k:'event', name}                             no element: the window
// a.t is this call's budget in ms (0: check once); a.id names the wait
// across calls (an event listener stays armed between them); a.last says
// no call follows this one.
//
// r is {met, actual, found, element?, event?}: actual is the last value
// seen (a state object, a text, a count, a URL…).

var _setTimeout = window.setTimeout.bind(window), _clearTimeout = window.clearTimeout.bind(window);
var _MutationObserver = window.MutationObserver, _MessageChannel = window.MessageChannel, _Promise = Promise, _RegExp = RegExp;
var _now = performance.now.bind(performance);

// WAIT_MIN_GAP and WAIT_TICK pace the checks: right after a mutation but
// at most one per 16 ms, and a periodic check for what no mutation shows
// (a value set by script, layout). A check that costs more slows its own
// pace (four times its cost), so a wait never hogs the renderer.
var WAIT_MIN_GAP = 16, WAIT_TICK = 50, ACTUAL_MAX = 2000;

// textMatcher compiles a match {op, v, flags, field} into a predicate.
function textMatcher(m) {
  var v = m.v === undefined || m.v === null ? '' : String(m.v);
  switch (m.op) {
    case 'equals': return function (t) { return t === v; };
    case 'not_equals': return function (t) { return t !== v; };
    case 'contains': return function (t) { return t.indexOf(v) >= 0; };
    case 'not_contains': return function (t) { return t.indexOf(v) < 0; };
    case 'regex': {
      var re;
      try { re = new _RegExp(v, m.flags || ''); } catch (e) { fail('BAD_ARGUMENT', (m.field || 'regex') + ': ' + e.message, { field: m.field || 'regex' }); }
      return function (t) { re.lastIndex = 0; return re.test(t); };
    }
  }
  fail('BAD_ARGUMENT', 'unknown match ' + m.op, { field: 'match' });
}

// elementText is what electron_get_text reads: a field's value, a select's
// chosen labels, else innerText.
function elementText(el) {
  var tag = el.localName, t;
  if (tag === 'input' || tag === 'textarea') t = el.value;
  else if (tag === 'select') t = Array.prototype.map.call(el.selectedOptions, optionLabel).join(', ');
  else t = el.innerText;
  if (t === undefined || t === null) t = el.textContent || '';
  return t;
}

function documentText() {
  var root = document.body || document.documentElement;
  return root ? (root.innerText || '') : '';
}

// waitTarget returns the condition's element, or null when a selector
// matches nothing or a ref is not live. A bad selector is BAD_ARGUMENT.
function waitTarget(s, c) {
  if (c.ref) return lookup(s, c.ref);
  try { return queryOne(c.sel); } catch (e) { fail('BAD_ARGUMENT', 'selector: ' + e.message, { field: 'selector' }); }
}

function hasElement(c) { return !!(c.ref || c.sel); }

// clipActual keeps long texts out of answers; the whole length is kept.
function clipActual(t) {
  return t.length > ACTUAL_MAX ? t.slice(0, ACTUAL_MAX) + '\u2026' : t;
}

// sampler returns the check of a condition: a function that looks once
// and returns {ok, actual, found, el}. A ref that dies makes an element
// condition fail with REF_NOT_FOUND at once (refs never come back), unless
// its absence is what the condition waits for.
function sampler(s, c) {
  switch (c.k) {
    case 'selector':
      return function () {
        var el = waitTarget(s, c);
        var att = !!el, vis = att && isVisible(el);
        if (!att && c.ref && (c.state === 'attached' || c.state === 'visible')) locate(s, c);
        var ok = c.state === 'attached' ? att : c.state === 'detached' ? !att : c.state === 'visible' ? vis : !vis;
        return { ok: ok, actual: { attached: att, visible: vis }, found: att, el: el };
      };
    case 'state':
      return function () {
        var el = waitTarget(s, c);
        if (!el) {
          if (c.ref) locate(s, c);
          return { ok: false, actual: null, found: false };
        }
        var st = fullState(el, deepActive());
        var ok = true;
        for (var k in c.flags) if (Object.prototype.hasOwnProperty.call(c.flags, k) && st[k] !== c.flags[k]) { ok = false; break; }
        return { ok: ok, actual: st, found: true, el: el };
      };
    case 'visible':
      return function () {
        var el = waitTarget(s, c);
        if (!el && c.ref && c.vis) locate(s, c);
        var vis = !!el && isVisible(el);
        return { ok: vis === c.vis, actual: vis, found: !!el, el: el };
      };
    case 'text':
    case 'value': {
      var test = textMatcher(c.m);
      return function () {
        var t;
        if (!hasElement(c)) t = normSpace(documentText());
        else {
          var el = waitTarget(s, c);
          if (!el) {
            if (c.ref) locate(s, c);
            return { ok: false, actual: null, found: false };
          }
          t = c.k === 'value' ? readValue(el).value : normSpace(elementText(el));
          if (t === undefined || t === null) t = '';
        }
        // A password field's value never leaves the page in a wait's answer.
        return { ok: test(t), actual: el && isSecretField(el) ? '[redacted]' : t, found: true, el: el };
      };
    }
    case 'count':
      return function () {
        var n;
        if (c.sel) {
          try { n = queryAll(c.sel).length; } catch (e) { fail('BAD_ARGUMENT', 'selector: ' + e.message, { field: 'selector' }); }
        } else n = countRole(c);
        var ok = (c.eq === undefined || c.eq === null || n === c.eq) && (c.min === undefined || c.min === null || n >= c.min) &&
          (c.max === undefined || c.max === null || n <= c.max);
        return { ok: ok, actual: n, found: true };
      };
    case 'url': {
      var tu = textMatcher(c.m);
      return function () {
        var u = location.href;
        return { ok: tu(u), actual: u, found: true };
      };
    }
  }
  fail('BAD_ARGUMENT', 'unknown condition ' + c.k, { field: 'condition' });
}

// countRole counts the snapshot's entries (what is not hidden) with the
// role and the name (exact after whitespace is collapsed) or a part of it
// (case-insensitive).
function countRole(c) {
  var role = (c.role || '').trim().toLowerCase();
  var exact = c.name ? normSpace(c.name) : '';
  var part = (c.nameContains || '').toLowerCase();
  var entries = new Walker().run(), n = 0;
  for (var i = 0; i < entries.length; i++) {
    var e = entries[i];
    if (role && e.role !== role) continue;
    var label = labelOf(e) || '';
    if (exact && normSpace(label) !== exact) continue;
    if (part && label.toLowerCase().indexOf(part) < 0) continue;
    n++;
  }
  return n;
}

// poll checks now and then again on every DOM mutation (at most once a
// frame), focus and input event, and on a timer, until the check holds or
// budget ms pass. It settles with {met, last} or {err}.
function poll(check, budget) {
  return new _Promise(function (resolve) {
    var done = false, last = null, cost = 0, lastAt = -1e9;
    var mo = null, tick = null, kickT = null, deadline = null;
    var evs = ['focusin', 'focusout', 'input', 'change', 'transitionend', 'animationend'];
    // After an event, check in a task of its own, once the page's own
    // listeners have run (a controlled input resets what was typed). A
    // message is such a task, and unlike a timer it is not throttled.
    var ch = typeof _MessageChannel === 'function' ? new _MessageChannel() : null;
    if (ch) ch.port1.onmessage = function () { kick(); };
    function later() { if (done) return; if (ch) ch.port2.postMessage(0); else _setTimeout(kick, 0); }
    function finish(res) {
      if (done) return;
      done = true;
      if (ch) ch.port1.close();
      if (mo) mo.disconnect();
      if (tick !== null) _clearTimeout(tick);
      if (kickT !== null) _clearTimeout(kickT);
      if (deadline !== null) _clearTimeout(deadline);
      for (var i = 0; i < evs.length; i++) document.removeEventListener(evs[i], later, true);
      resolve(res);
    }
    function run() {
      if (done) return;
      var t0 = _now();
      try { last = check(); } catch (err) { finish({ err: err }); return; }
      lastAt = _now();
      cost = lastAt - t0;
      if (last.ok) finish({ met: true, last: last });
    }
    function gap() { return Math.max(WAIT_MIN_GAP, cost * 4); }
    // kick checks at once after a mutation (a mutation
    // observer's callback is a microtask: it runs even in a window behind
    // another, whose timers fire about once a second), unless the last
    // check was too recent; then a timer checks when the gap has passed.
    function kick() {
      if (done) return;
      var wait = lastAt + gap() - _now();
      if (wait <= 0) { run(); return; }
      if (kickT === null) kickT = _setTimeout(function () { kickT = null; run(); }, wait);
    }
    function periodic() {
      tick = null;
      if (done) return;
      if (_now() - lastAt >= WAIT_TICK) run();
      if (!done) tick = _setTimeout(periodic, Math.max(WAIT_TICK, cost * 4));
    }
    run();
    if (done) return;
    if (!(budget > 0)) { finish({ met: false, last: last }); return; }
    if (_MutationObserver) {
      mo = new _MutationObserver(kick);
      mo.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
    }
    for (var j = 0; j < evs.length; j++) document.addEventListener(evs[j], later, true);
    tick = _setTimeout(periodic, WAIT_TICK);
    deadline = _setTimeout(function () { run(); finish({ met: false, last: last }); }, budget);
  });
}

// withReserved runs f with the namespace's next ref at rsv, the number
// the Go side kept for this wait: the renderer answers a wait while the Go
// side lets other operations run, so a ref issued then must not be the
// counter's next (another surface may have issued it meanwhile). The
// counter never goes back.
function withReserved(s, rsv, f) {
  if (!(rsv > 0) || s.byRef.has(rsv)) return f(); // (an answer the Go side never took may have used it)
  var keep = s.next;
  s.next = rsv;
  try {
    return f();
  } finally {
    s.next = Math.max(keep, s.next);
  }
}

// eventSummary describes an event in a few fields.
function eventSummary(s, ev) {
  var o = { type: ev.type, is_trusted: ev.isTrusted, time_stamp: Math.round(ev.timeStamp) };
  var t = ev.composedPath ? ev.composedPath()[0] : ev.target;
  if (t && t.nodeType === ELEMENT_NODE) {
    var d = describe(s, t);
    d.selector = cssPath(t);
    o.target = d;
  } else if (t === document) o.target = { tag: '#document' };
  else if (t === window) o.target = { tag: '#window' };
  if (typeof ev.key === 'string') { o.key = ev.key; o.code = ev.code; }
  if (typeof ev.button === 'number' && typeof ev.clientX === 'number') {
    o.button = ev.button; o.client_x = Math.round(ev.clientX); o.client_y = Math.round(ev.clientY);
  }
  if (typeof ev.data === 'string') o.data = clip(ev.data, 200);
  if ((ev.type === 'input' || ev.type === 'change') && t && 'value' in t && typeof t.value === 'string') {
    o.value = t.localName === 'input' && inputType(t) === 'password' ? t.value.replace(/./g, '\u2022') : clip(t.value, 200);
  }
  if (ev.detail !== undefined && ev.detail !== null && typeof ev.detail !== 'number') {
    try { o.detail = clip(_JSON.stringify(ev.detail) || '', 500); } catch (e) { o.detail = clip(String(ev.detail), 500); }
  } else if (typeof ev.detail === 'number' && ev.detail) o.detail = ev.detail;
  return o;
}

// armEvent keeps one listener per wait (per namespace and document) across
// the calls of a long wait, so an event between two calls is not lost.
function armEvent(s, c, id) {
  var w = s.evWait;
  if (w && w.id === id && w.doc === document) return w;
  if (w) w.off();
  var target = hasElement(c) ? locate(s, c) : window;
  w = { id: id, doc: document, got: null, waiters: [] };
  var h = function (ev) {
    if (w.got) return;
    w.got = withReserved(s, w.rsv, function () { return eventSummary(s, ev); });
    target.removeEventListener(c.name, h, true);
    var ws = w.waiters;
    w.waiters = [];
    for (var i = 0; i < ws.length; i++) ws[i]();
  };
  // Capture: the listener sees the event before the page can stop it,
  // and events aimed at descendants (bubbling or not). What it caught
  // stays in s.evWait (until another wait replaces it), so every call of
  // this wait sees it, even one that comes after the Go side gave up on
  // an earlier call.
  target.addEventListener(c.name, h, true);
  w.off = function () { target.removeEventListener(c.name, h, true); };
  s.evWait = w;
  return w;
}

function waitEvent(s, c, a) {
  var w = armEvent(s, c, a.id);
  w.rsv = a.rsv; // the number kept for this call
  return new _Promise(function (resolve) {
    if (w.got) { resolve({ met: true, event: w.got }); return; }
    if (!(a.t > 0)) {
      if (a.last) w.off();
      resolve({ met: false });
      return;
    }
    var timer = _setTimeout(function () {
      var i = w.waiters.indexOf(got);
      if (i >= 0) w.waiters.splice(i, 1);
      if (a.last) w.off();
      resolve({ met: false });
    }, a.t);
    var got = function () { _clearTimeout(timer); resolve({ met: true, event: w.got }); };
    w.waiters.push(got);
  });
}

// waitAnswer wraps a settled wait as op's answer.
function waitAnswer(s, R, res, c, rsv) {
  var out = { d: R.token };
  if (res.err) out.e = errorOut(res.err);
  else {
    var r = { met: !!res.met };
    if (res.event) r.event = res.event;
    var last = res.last;
    if (last) {
      r.found = !!last.found;
      r.actual = typeof last.actual === 'string' ? clipActual(last.actual) : last.actual;
      if (typeof last.actual === 'string') r.length = last.actual.length;
      var acts = c.k === 'state' || (c.k === 'selector' && (c.state === 'attached' || c.state === 'visible'));
      if (res.met && acts && last.el && last.el.isConnected) r.element = withReserved(s, rsv, function () { return describe(s, last.el); });
    }
    out.r = r;
  }
  out.n = s.next;
  if (s.memo.length) { out.m = s.memo.join('\u001e'); s.memo = []; }
  return out;
}

// wait is the operation: it returns a promise of the whole answer.
OPS.wait = function (s, a) {
  var R = currentRegistry();
  var c = a.c || {};
  if (c.k === 'event') {
    return waitEvent(s, c, a).then(function (res) { return waitAnswer(s, R, res, c, a.rsv); },
      function (err) { return waitAnswer(s, R, { err: err }, c, a.rsv); });
  }
  var check = sampler(s, c);
  return poll(check, a.t).then(function (res) { return waitAnswer(s, R, res, c, a.rsv); });
};
