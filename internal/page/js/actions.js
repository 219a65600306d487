// actions.js: actionability and the renderer half of the interaction tools
// (click, hover, type, select, check, drag, drop, scroll).
//
// OPS.act runs the actionability checks on one element and, when they
// pass, one action, in a single Runtime.evaluate. When the checks need more
// than one look (stability compares two animation frames; a late or covered
// element is waited for) it returns a promise that retries once per frame
// until the checks pass or the call's budget ends; the Go side awaits it
// and calls again until the tool's timeout. Failures that waiting can cure
// come back as {ok:false, why, message, …}; the others throw (fail) and
// come back as errors.
//
// Everything here lives in its own function scope (only OPS entries leave
// it), so no helper name can clash with another file of the bundle.

(function () {
// Natives captured at install time, so a page that replaces them cannot
// change how we wait or set values.
var _raf = window.requestAnimationFrame.bind(window);
var _setTimeout = window.setTimeout.bind(window);
var _now = Date.now;
var _inputValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set;
var _textareaValue = Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value').set;
var _DataTransfer = window.DataTransfer, _DragEvent = window.DragEvent, _File = window.File;
var _InputEvent = window.InputEvent, _Event = window.Event;
var _MO = window.MutationObserver;

// frameFallbackMs bounds the wait for an animation frame: a page that is
// not rendering (a background window) still gets looked at again.
var frameFallbackMs = 50;

// nextFrame calls f at the next animation frame (or after
// frameFallbackMs, whichever comes first).
function nextFrame(f) {
  var done = false;
  var go = function () { if (!done) { done = true; f(); } };
  _raf(go);
  _setTimeout(go, frameFallbackMs);
}

// later runs a promise-returning piece of an operation and answers as op
// does ({r} or {e}, with the refs issued meanwhile), so the Go side can
// merge it into the synchronous answer.
function later(s, work) {
  var finish = function (o) {
    o.n = s.next;
    if (s.memo.length) { o.m = s.memo.join('\u001e'); s.memo = []; }
    return o;
  };
  return work().then(function (r) { return finish({ r: r }); }, function (err) { return finish({ e: errorOut(err) }); });
}

// ---- geometry ----

// firstBox is the element's first non-empty client rect (the first line
// of a wrapped inline element), else its bounding box.
function firstBox(el) {
  var rects = el.getClientRects();
  for (var i = 0; i < rects.length; i++) if (rects[i].width > 0 && rects[i].height > 0) return rects[i];
  return el.getBoundingClientRect();
}

function plainBox(r) { return { x: r.left, y: r.top, width: r.width, height: r.height }; }

function sameBox(a, b) {
  return Math.abs(a.x - b.x) < 0.5 && Math.abs(a.y - b.y) < 0.5 && Math.abs(a.width - b.width) < 0.5 && Math.abs(a.height - b.height) < 0.5;
}

// clippedCenter is the centre of the part of box inside the viewport, or
// null when no part is.
function clippedCenter(box) {
  var l = Math.max(box.x, 0), t = Math.max(box.y, 0);
  var r = Math.min(box.x + box.width, window.innerWidth), b = Math.min(box.y + box.height, window.innerHeight);
  if (r <= l || b <= t) return null;
  return { x: (l + r) / 2, y: (t + b) / 2 };
}

// posPoint is the point pos (CSS pixels from the top-left corner of el's
// border box) in the viewport, or null when it lies outside the viewport.
// A pos outside the box is a BAD_ARGUMENT naming position.
function posPoint(el, pos) {
  var bb = el.getBoundingClientRect();
  if (!(pos.x >= 0 && pos.y >= 0 && pos.x < bb.width && pos.y < bb.height)) {
    fail('BAD_ARGUMENT', 'position (' + pos.x + ', ' + pos.y + ') lies outside the element\'s border box, which is ' +
      Math.round(bb.width * 10) / 10 + ' × ' + Math.round(bb.height * 10) / 10 + ' CSS pixels (position counts from its top-left corner)', { field: 'position' });
  }
  var x = bb.left + pos.x, y = bb.top + pos.y;
  if (x < 0 || y < 0 || x >= window.innerWidth || y >= window.innerHeight) return null;
  return { x: x, y: y };
}

// scrollToView scrolls every scroll container above el (and the frames
// above its document) just enough to show it, centring it when it was out
// of view. It says whether el moved in this document's viewport.
function scrollToView(el) {
  var before = el.getBoundingClientRect();
  if (typeof el.scrollIntoViewIfNeeded === 'function') el.scrollIntoViewIfNeeded(true);
  else if (before.bottom <= 0 || before.top >= window.innerHeight || before.right <= 0 || before.left >= window.innerWidth) {
    el.scrollIntoView({ block: 'center', inline: 'center' });
  }
  var after = el.getBoundingClientRect();
  return after.left !== before.left || after.top !== before.top;
}

// Chromium's browser process sends pointer input to the renderer that its
// compositor's hit-test data names for the point, and that data follows a
// scroll only once a frame with the new layout has been presented: until
// then a press can go to the frame that was there before the scroll. The
// page's own hit test is up to date at once, so a scroll is remembered
// here and the Go side makes sure its pointer reached the element before
// it presses (see pointAt in internal/tool). Only a scroll of the
// document or of a scroller that holds the element moves it: a log panel
// that scrolls itself elsewhere on the page does not. RECENT_SCROLL_MS is
// how long after such a scroll event the routing is not trusted. A
// pointer action also waits until PRESENT_FRAMES animation frames have
// begun since the last scroll event (the scroll event fires in the frame
// that commits the new offset; the next one begins after that frame was
// submitted), or PRESENT_MS for a document that does not render.
var RECENT_SCROLL_MS = 1000, PRESENT_FRAMES = 2, PRESENT_MS = 100;
var lastScroll = 0, framesSinceScroll = PRESENT_FRAMES;
var scrollTimes = new _WeakMap(); // what scrolled (the document or an element) → when
function countFrames() {
  _raf(function () {
    framesSinceScroll++;
    if (framesSinceScroll < PRESENT_FRAMES) countFrames();
  });
}
window.addEventListener('scroll', function (ev) {
  var t = ev.target && ev.target.nodeType === ELEMENT_NODE && ev.target !== document.scrollingElement ? ev.target : document;
  lastScroll = _now();
  scrollTimes.set(t, lastScroll);
  var idle = framesSinceScroll >= PRESENT_FRAMES;
  framesSinceScroll = 0;
  if (idle) countFrames();
}, { capture: true, passive: true });

// scrolledRecently says whether the document or a scroller that holds el
// scrolled in the last RECENT_SCROLL_MS.
function scrolledRecently(el) {
  var now = _now(), recent = function (x) { var at = scrollTimes.get(x); return at !== undefined && now - at < RECENT_SCROLL_MS; };
  if (recent(document)) return true;
  for (var p = el; p; p = flatParent(p)) if (recent(p)) return true;
  return false;
}

// foreignFrames says whether this document holds a frame of another
// origin (which Chromium may render in another process).
function foreignFrames() {
  var fs = document.querySelectorAll('iframe, frame, embed, object');
  for (var i = 0; i < fs.length; i++) {
    try {
      if (fs[i].contentDocument === null) return true;
    } catch (e) {
      return true;
    }
  }
  return false;
}
function scrollPresented() { return framesSinceScroll >= PRESENT_FRAMES || _now() - lastScroll >= PRESENT_MS; }

// deepHit is the element at (x, y) in this document, looking into open
// shadow roots; null outside the viewport. Text a host slots into its
// shadow tree (a web component's label: <sl-button>Save</sl-button>) is
// hit as the slot it renders in, where the host itself would be all that
// elementFromPoint tells.
function deepHit(x, y) {
  var h = document.elementFromPoint(x, y);
  while (h && h.shadowRoot) {
    var inner = h.shadowRoot.elementFromPoint(x, y);
    if (!inner || inner === h) {
      var slot = slottedTextAt(h, x, y);
      if (slot) h = slot;
      break;
    }
    h = inner;
  }
  return h;
}

// slottedTextAt returns the slot that renders the host's own text node
// under (x, y), or null.
function slottedTextAt(host, x, y) {
  for (var n = host.firstChild; n; n = n.nextSibling) {
    if (n.nodeType !== TEXT_NODE || !n.assignedSlot) continue;
    var range = document.createRange();
    range.selectNodeContents(n);
    var rects = range.getClientRects();
    for (var i = 0; i < rects.length; i++) {
      var r = rects[i];
      if (x >= r.left && x <= r.right && y >= r.top && y <= r.bottom) return n.assignedSlot;
    }
  }
  return null;
}

// reaches reports whether an event on t reaches el: t is el, inside it
// (across shadow roots and slots), el's own shadow host (a web
// component's inner control: the host is the component it belongs to),
// inside el's own label (a click there goes to el), or el is a label and t
// its control.
function reaches(el, t) {
  if (!t) return false;
  if (t.nodeType !== ELEMENT_NODE) t = t.parentElement || flatParent(t);
  if (!t) return false;
  if (composedContains(el, t)) return true;
  if (t.shadowRoot && isHostOf(t, el)) return true;
  var label = t.closest ? t.closest('label') : null;
  if (label && label.control === el) return true;
  return el.localName === 'label' && !!el.control && composedContains(el.control, t);
}

// isHostOf reports whether el sits in host's shadow tree (or in the
// shadow trees nested in it).
function isHostOf(host, el) {
  for (var r = el.getRootNode(); r && r.nodeType === 11 && r.host; r = r.host.getRootNode()) {
    if (r.host === host) return true;
  }
  return false;
}

// pathReaches reports whether an event whose composed path is path
// reaches el: el is on the path (the event passed through it on its way
// from a node inside it), or reaches says so of its target.
function pathReaches(el, ev) {
  var path = ev.composedPath ? ev.composedPath() : [];
  if (path.indexOf(el) >= 0) return true;
  return reaches(el, path.length ? path[0] : ev.target);
}

// coverOf describes the element that takes a point meant for another: its
// role and name (an aria-label or title counts even where the role does
// not take a name) and a selector.
function coverOf(s, h) {
  var d = describe(s, h);
  for (var n = h, i = 0; n && i < 4; n = flatParent(n), i++) {
    var label = n.getAttribute('aria-label') || n.getAttribute('title');
    if (label && normSpace(label)) {
      if (n === h || !d.name) d.name = clip(normSpace(label), 200);
      break;
    }
  }
  d.selector = cssPath(h);
  return d;
}

// ---- states ----

// disabledWhy says why el cannot be used, or '' when it can: a native
// disabled control (itself, the control it sits in, or a disabled
// fieldset), or aria-disabled on it or an ancestor.
function disabledWhy(el) {
  for (var n = el; n; n = flatParent(n)) {
    if (nativeDisabled(n)) {
      // :disabled of a control in a disabled fieldset: name the fieldset.
      var fs = n.disabled ? null : n.closest('fieldset[disabled]');
      if (fs) return 'the element is inside a disabled fieldset' + (fs.id ? ' (fieldset#' + fs.id + ')' : '');
      return n === el ? 'the element is disabled' : 'the element is inside a disabled ' + n.localName;
    }
    if (attrTrue(n, 'aria-disabled')) return n === el ? 'the element has aria-disabled="true"' : 'an ancestor has aria-disabled="true"';
  }
  return '';
}

// editKind is 'value' for text fields and textareas, 'editable' for
// editing hosts and their content, or '' when el takes no text.
function editKind(el) {
  if (el.localName === 'textarea') return 'value';
  if (el.localName === 'input') {
    switch (inputType(el)) {
      case 'button': case 'submit': case 'reset': case 'image': case 'checkbox': case 'radio':
      case 'range': case 'hidden': case 'file': case 'color':
        return '';
    }
    return 'value';
  }
  if (el.isContentEditable) return 'editable';
  return '';
}

// ---- web components: a host forwards to its inner control ----

// textTarget is where text for el goes: el when it takes text, else the
// inner text field of a web component's host (sl-input → its <input>),
// else el.
function textTarget(el) {
  if (!el.shadowRoot || editKind(el)) return el;
  return innerControl(el, function (c) { return !!editKind(c); }) || el;
}

// forwarded is the element an action really works on: a text action on a
// host goes to its inner text field, a focus on a host that cannot take
// it to its inner control. Pointer actions stay on the host: a click on
// it reaches its parts (reaches).
function forwarded(el, a) {
  if (!el.shadowRoot) return el;
  if ((a.checks && a.checks.editable) || a.action === 'fill' || a.action === 'focusText') return textTarget(el);
  if (a.action === 'focus' && el.tabIndex < 0 && !el.shadowRoot.delegatesFocus && el.focus === HTMLElement.prototype.focus) {
    return innerControl(el, isControl) || el;
  }
  return el;
}

// innerNote names a host's inner control for a refusal, so the agent
// can target it; '' for an element that is no host.
function innerNote(el) {
  if (!el.shadowRoot) return '';
  var c = innerControl(el, isControl);
  if (!c) return '; it is a web component whose open shadow root holds no control';
  return '; it is a web component whose inner control is ' + (roleOf(c) || 'generic') + ' <' + c.localName + '>: target that with the selector ' +
    quote(cssPath(el) + ' >>> ' + cssPath(c));
}

function readOnly(el) {
  if (attrTrue(el, 'aria-readonly')) return true;
  return (el.localName === 'input' || el.localName === 'textarea') && el.readOnly;
}

// textOf is what a text target holds: a field's value, an editing host's
// text with non-breaking spaces as spaces.
function textOf(el) {
  if (editKind(el) === 'value') return el.value;
  return (el.innerText || '').replace(/\u00a0/g, ' ');
}

// ---- the pointer ----

// trackPointer keeps, per document, where the mouse last moved and onto
// what, so a click at the same point on the same element can skip the
// move (a move costs a frame). Leaving the element forgets it.
function trackPointer(s) {
  if (s.ptr) return s.ptr;
  var p = { x: NaN, y: NaN, t: null };
  s.ptr = p;
  var opts = { capture: true, passive: true };
  window.addEventListener('mousemove', function (e) {
    p.x = e.clientX; p.y = e.clientY;
    p.t = e.composedPath ? e.composedPath()[0] : e.target;
  }, opts);
  window.addEventListener('mouseout', function () { p.t = null; }, opts);
  window.addEventListener('blur', function (e) { if (e.target === window) p.t = null; }, opts);
  return p;
}

function pointerThere(s, el, x, y) {
  var p = trackPointer(s);
  return !!p.t && Math.abs(p.x - x) <= 1 && Math.abs(p.y - y) <= 1 && reaches(el, p.t);
}

// arm records whether the next event of type reaches el; received reads
// and disarms it. A press that something in an enclosing frame takes never
// reaches this document at all.
function arm(s, el, type) {
  disarm(s);
  var r = { got: false, seen: false, what: null, type: type, el: el };
  r.fn = function (ev) {
    var t = ev.composedPath ? ev.composedPath()[0] : ev.target;
    r.seen = true;
    r.got = pathReaches(el, ev);
    if (!r.got && t && t.nodeType === ELEMENT_NODE) r.what = coverOf(s, t);
    window.removeEventListener(type, r.fn, true);
  };
  window.addEventListener(type, r.fn, true);
  s.armed = r;
}

function disarm(s) {
  var r = s.armed;
  if (r) window.removeEventListener(r.type, r.fn, true);
  s.armed = null;
  return r;
}

// pointTarget describes the element at a point for an answer: role,
// name, tag, id, selector and a ref.
function pointTarget(s, h) {
  var d = coverOf(s, h);
  if (h.id) d.id = h.id;
  return d;
}

// OPS.actPoint looks at the point (a.x, a.y) of this document's viewport
// for a pointer action there: the point must be inside the viewport
// (BAD_ARGUMENT naming x or y); the answer names the element at the point
// (looking into open shadow roots) and, when that element lies over
// another one there that is not its ancestor (an overlay), that one too
// (over). With a.arm the next such event is armed against the element, as
// act does.
OPS.actPoint = function (s, a) {
  var w = window.innerWidth, hgt = window.innerHeight;
  if (!(a.x >= 0 && a.x < w)) fail('BAD_ARGUMENT', 'x ' + a.x + ' lies outside the viewport, which is ' + w + ' CSS pixels wide', { field: 'x' });
  if (!(a.y >= 0 && a.y < hgt)) fail('BAD_ARGUMENT', 'y ' + a.y + ' lies outside the viewport, which is ' + hgt + ' CSS pixels high', { field: 'y' });
  var h = deepHit(a.x, a.y);
  if (!h) fail('BAD_ARGUMENT', 'nothing is at (' + a.x + ', ' + a.y + ') in the document', { field: 'x' });
  var out = { target: pointTarget(s, h), viewport: { width: w, height: hgt }, there: pointerThere(s, h, a.x, a.y) };
  var stack = document.elementsFromPoint(a.x, a.y);
  for (var i = 0; i < stack.length; i++) {
    var e = stack[i];
    if (e !== h && !composedContains(e, h) && !composedContains(h, e)) { out.over = pointTarget(s, e); break; }
  }
  if (a.arm) arm(s, h, a.arm);
  return out;
};

OPS.actReceived = function (s) {
  var r = disarm(s);
  if (!r) return { armed: false, got: false };
  var out = { armed: true, got: r.got, seen: r.seen, what: r.what };
  // A press may rename what it pressed (a toggle, a row that opens): the
  // answer reports it, so the agent has seen it. A hover's changes pass.
  if (r.got && (r.type === 'mousedown' || r.type === 'pointerdown') && r.el.isConnected) {
    var ch = changedSince(s, r.el);
    if (ch) out.changed = ch;
  }
  return out;
};

// ---- the checks ----

// miss is a failure that waiting may cure.
function miss(why, message, extra) {
  var m = { ok: false, why: why, message: message };
  if (extra) for (var k in extra) m[k] = extra[k];
  return m;
}

// Stability compares the element's box at two looks with a rendered frame
// between them. LOOK_MS is how recent an earlier call's last look must be
// to count as the first of the two (so an action whose caller moved the
// mouse meanwhile, which takes a frame, needs no frame of its own);
// NOFRAME_MS is how long to wait for a frame before taking the page for
// one that does not render (a background window) and comparing anyway.
var LOOK_MS = 150, NOFRAME_MS = 1000;

// keepLook records a look at el's box, and notes when a frame has been
// rendered since.
function keepLook(s, st, el, box) {
  var look = { el: el, box: box, at: _now(), framed: false };
  s.look = look;
  st.look = look;
  _raf(function () { look.framed = true; });
}

// stability checks el's box against the previous look (this call's, else
// a recent one of an earlier call) and returns '' when stable, 'first'
// when there was no previous look, 'wait' when no frame has been rendered
// since it (a look in the same frame proves nothing), or 'moved'.
function stability(s, st, el, box) {
  var prev = st.look;
  if (!prev && s.look && _now() - s.look.at <= LOOK_MS) prev = s.look;
  if (prev && prev.el !== el) prev = null;
  if (prev && !prev.framed && _now() - prev.at < NOFRAME_MS) return 'wait';
  keepLook(s, st, el, box);
  if (!prev) return 'first';
  return sameBox(prev.box, box) ? '' : 'moved';
}

// GEOMETRY matches the animated properties (keyframe names) that move or
// resize an element.
var GEOMETRY = /^(transform|translate|rotate|scale|left|top|right|bottom|inset|width|height|minWidth|minHeight|maxWidth|maxHeight|margin|padding|zoom|offsetPath|offsetDistance|perspective)/;

// movingAnimation names the geometry properties of a running animation or
// transition (CSS or Web Animations) of el or an ancestor, or returns ''.
// It catches what box comparisons can miss when frames come unevenly.
function movingAnimation(el) {
  if (typeof document.getAnimations !== 'function') return '';
  var list = document.getAnimations();
  for (var i = 0; i < list.length; i++) {
    var an = list[i], eff = an.effect;
    if (an.playState !== 'running' || !eff || !eff.target || !composedContains(eff.target, el)) continue;
    var kfs = typeof eff.getKeyframes === 'function' ? eff.getKeyframes() : [];
    for (var k = 0; k < kfs.length; k++) {
      for (var prop in kfs[k]) {
        if (prop !== 'offset' && prop !== 'computedOffset' && prop !== 'easing' && prop !== 'composite' && GEOMETRY.test(prop)) {
          return prop + (eff.target === el ? '' : ' of ' + cssPath(eff.target));
        }
      }
    }
  }
  return '';
}

// check runs the checks a.checks asks for once. st carries the box of the
// previous look, for stability, which is checked last: a failure there
// still carries the point.
function check(s, a, st) {
  var el;
  try {
    el = locate(s, a);
  } catch (err) {
    if (err.ucode === 'SELECTOR_NO_MATCH') return miss('missing', 'no element matches ' + a.sel);
    throw err;
  }
  // A ref whose element now shows another item fails at once (REF_STALE),
  // unless the call allows it.
  var changed = a.ref ? sameAsSeen(s, a.ref, el, !!a.allow) : null;
  el = forwarded(el, a);
  var c = a.checks || {}, force = !!a.force;
  // An editor's hidden input (Monaco's, xterm's) is acted on through the
  // part of the editor that shows its text.
  if (c.visible || c.point) el = editorFace(el);
  if (!force) {
    if (c.visible && !isVisible(el)) return miss('hidden', 'the element is not visible (no box, display:none or visibility:hidden)');
    if (c.enabled) {
      var why = disabledWhy(el);
      if (why) return miss('disabled', why);
    }
    if (c.editable) {
      if (!editKind(el) && !editorOf(el)) fail('BAD_ARGUMENT', noTextWhy(el) + innerNote(el), { field: 'selector' });
      if (readOnly(el)) return miss('readonly', 'the element is read-only');
    }
  }
  var res = { ok: true, el: el, changed: changed ? [changed] : [] };
  if (c.scroll && scrollToView(el)) st.scrolled = true;
  if (st.scrolled || scrolledRecently(el)) {
    res.scrolled = true;
    if (st.foreign === undefined) st.foreign = foreignFrames();
    res.foreign = st.foreign;
  }
  var box = null;
  if (c.point || c.stable) {
    box = plainBox(firstBox(el));
    res.box = box;
  }
  if (c.point) {
    var pt = a.pos ? posPoint(el, a.pos) : clippedCenter(box);
    if (!pt) return miss('offscreen', (a.pos ? 'the point at position (' + a.pos.x + ', ' + a.pos.y + ') of the element' : 'the element') + ' lies outside the viewport' + (c.scroll ? ' after scrolling' : ''));
    res.x = pt.x; res.y = pt.y;
    if (c.hit && !force) {
      var h = deepHit(pt.x, pt.y);
      if (!h) return miss('offscreen', 'nothing is at the element\'s centre (outside the viewport)');
      if (!reaches(el, h)) return miss('covered', 'the element does not receive the pointer at its centre', { covering: coverOf(s, h) });
    }
  }
  if (a.to) {
    var to;
    try {
      to = locate(s, a.to);
    } catch (err2) {
      if (err2.ucode === 'SELECTOR_NO_MATCH') return miss('missing', 'no element matches the target ' + a.to.sel);
      throw err2;
    }
    var toChanged = a.to.ref ? sameAsSeen(s, a.to.ref, to, !!a.allow) : null;
    if (toChanged) res.changed.push(toChanged);
    if (!force && !isVisible(to)) return miss('hidden', 'the target element is not visible');
    var tp = clippedCenter(plainBox(firstBox(to)));
    if (!tp) {
      scrollToView(to);
      tp = clippedCenter(plainBox(firstBox(to)));
      // Scrolling the target may have moved the source: look again next
      // time, unless that keeps happening.
      st.toScrolls = (st.toScrolls || 0) + 1;
      if (st.toScrolls > 2) return miss('offscreen', 'the source and the target are not both in view: scrolling to one hides the other');
      if (tp && box) { st.look = null; return miss('unstable', 'the drag target was scrolled into view'); }
    }
    if (!tp) return miss('offscreen', 'the target element lies outside the viewport');
    res.to = to; res.toX = tp.x; res.toY = tp.y; res.toBox = plainBox(firstBox(to));
  }
  if (c.stable && !force) {
    var moving = movingAnimation(el);
    if (moving) return miss('unstable', 'the element is moving (a running animation of ' + moving + ')');
    var how = stability(s, st, el, box);
    if (how) {
      var m = miss('unstable', how === 'moved' ? 'the element is still moving (its box changed between two animation frames)' :
        'the element\'s box was not yet compared across an animation frame');
      // No comparison across a frame yet in this call (none before, or the box
      // moved since an earlier call's look, e.g. because this look scrolled
      // it): the caller may move the pointer while the next frame renders.
      m.first = how === 'first' || how === 'moved';
      if (res.x !== undefined) { m.x = res.x; m.y = res.y; m.el = el; }
      return m;
    }
    // A scroll (this call's, or the page's own a moment ago) is in the
    // page's layout at once but reaches the browser's input routing only
    // with a presented frame: wait for it before the pointer goes.
    if (c.point && res.scrolled && (a.mixed || res.foreign) && !scrollPresented()) {
      return miss('unstable', 'the page scrolled and its new layout has not been presented yet');
    }
  }
  return res;
}

// OPS.act: the checks, then the action. Arguments: ref/sel, checks
// {visible, enabled, editable, scroll, stable, point, hit}, force, arm
// (event type), budget (ms to keep trying here), action and its own
// arguments, to (a second locator, for drags), early (answer with the
// point as soon as every check but stability passes, without waiting for
// a frame: the caller moves the mouse there meanwhile and calls again).
OPS.act = function (s, a) {
  var st = { look: null };
  var first = check(s, a, st);
  if (first.ok) return done(s, a, first);
  if (a.early && first.why === 'unstable' && first.first && first.el) {
    return { ok: false, why: 'early', x: first.x, y: first.y, there: pointerThere(s, first.el, first.x, first.y), scrolled: !!(st.scrolled || scrolledRecently(first.el)) };
  }
  var budget = a.budget || 0;
  if (budget <= 0) return bare(first);
  var t0 = _now();
  // a.quiet: a selector that matches nothing fails once the page has been
  // quiet that long (no mutation, document loaded), not at the budget.
  var quiet = a.quiet > 0 ? quietWatch() : null;
  return later(s, function () {
    return new Promise(function (resolve, reject) {
      var end = function (r) { if (quiet) quiet.stop(); resolve(r); };
      var step = function () {
        try {
          var r = check(s, a, st);
          if (r.ok) return end(done(s, a, r));
          if (_now() - t0 >= budget) return end(bare(r));
          if (quiet && r.why === 'missing' && _now() - t0 >= a.quiet && quiet.still() >= a.quiet) {
            r.quiet = Math.round(quiet.still());
            return end(bare(r));
          }
          nextFrame(step);
        } catch (err) {
          if (quiet) quiet.stop();
          reject(err);
        }
      };
      nextFrame(step);
    });
  });
};

// quietWatch counts how long the document has gone without a mutation
// (still(): ms; 0 while it is loading).
function quietWatch() {
  var last = _now();
  var o = new _MO(function () { last = _now(); });
  o.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
  return {
    still: function () {
      if (o.takeRecords().length) last = _now();
      return document.readyState === 'complete' ? _now() - last : 0;
    },
    stop: function () { o.disconnect(); }
  };
}

// bare is a miss as it is answered: without the element.
function bare(m) {
  delete m.el;
  delete m.first;
  return m;
}

// done runs the action on an element that passed its checks.
function done(s, a, r) {
  var el = r.el;
  var out = { ok: true };
  // Changes the call allowed: reported, and seen from now on.
  for (var i = 0; i < r.changed.length; i++) sawNow(s, r.changed[i].ref, r.changed[i].now);
  if (r.changed.length) out.changed = r.changed;
  if (r.box) out.box = r.box;
  if (r.x !== undefined) {
    out.x = r.x; out.y = r.y;
    out.there = pointerThere(s, el, r.x, r.y);
  }
  if (r.scrolled) out.scrolled = true;
  if (r.foreign) out.foreign = true;
  if (r.to) { out.toX = r.toX; out.toY = r.toY; out.toBox = r.toBox; }
  if (a.arm) arm(s, el, a.arm);
  var f = a.action ? ACTIONS[a.action] : null;
  if (a.action && !f) fail('BAD_ARGUMENT', 'unknown action ' + a.action, { field: 'action' });
  if (f) out.out = f(s, el, a, r);
  return out;
}

// ---- actions ----

var ACTIONS = {};

// editor names the editor the element belongs to: {kind, mode} (kind ''
// for none).
ACTIONS.editor = function (s, el) {
  var ed = editorOf(el);
  return ed ? { kind: ed.kind, mode: ed.mode } : { kind: '', mode: '' };
};

// focus gives the element the focus.
ACTIONS.focus = function (s, el) {
  if (typeof el.focus === 'function') el.focus();
  var act = deepActive();
  var ed = act !== el && !composedContains(el, act) ? editorOf(el) : null;
  if (ed) {
    // An editor's visible part stands for its input element.
    if (!editorFocused(ed)) ed.input.focus();
    if (editorFocused(ed)) return { focused: true };
  }
  if (act !== el && !composedContains(el, act)) fail('BAD_ARGUMENT', 'the element cannot take the focus (it is not focusable)', { field: 'selector' });
  return { focused: true };
};

function fire(el, ev) { return el.dispatchEvent(ev); }

// selectAllIn selects the whole content of an editing host.
function selectAllIn(el) {
  var sel = window.getSelection();
  var range = document.createRange();
  range.selectNodeContents(el);
  sel.removeAllRanges();
  sel.addRange(range);
}

// fill sets the text of a field as a paste would: the native value setter
// (so frameworks that track the value see the change), then input and
// change; an editing host gets the text through insertText over its
// selected content.
ACTIONS.fill = function (s, el, a) {
  // An editor takes text its own way: the Go side pastes it there.
  var ed = editorOf(el);
  if (ed) return { editor: ed.kind, mode: ed.mode };
  if (!editKind(el)) fail('BAD_ARGUMENT', noTextWhy(el), { field: 'selector' });
  var text = a.text || '';
  var before = textOf(el);
  if (typeof el.focus === 'function') el.focus();
  if (editKind(el) === 'value') {
    (el.localName === 'input' ? _inputValue : _textareaValue).call(el, text);
    fire(el, new _InputEvent('input', { bubbles: true, composed: true, inputType: text ? 'insertFromPaste' : 'deleteContentBackward', data: text || null }));
    fire(el, new _Event('change', { bubbles: true }));
  } else {
    selectAllIn(el);
    if (text) document.execCommand('insertText', false, text);
    else document.execCommand('delete', false);
    // An editor that owns its DOM (it reads beforeinput, which
    // execCommand does not send, and undoes other changes) did not take
    // it: the Go side types there as a user does (editor path).
    var now = textOf(el);
    if (nbspToSpace(now).replace(/\n+$/, '') !== text.replace(/\n+$/, '')) return { editor: 'editable', before: before, after: now };
  }
  return { before: before, after: textOf(el), secret: isSecretField(el) };
};

// noTextWhy says why an element takes no typed text, and what does.
function noTextWhy(el) {
  var st = valueState(el);
  if (st && st.kind === 'aria') return 'the element is an ARIA ' + st.role + ', which holds a number, not text: electron_set_value sets it (by its keys)';
  if (st) return 'the element is an <input type=' + st.kind + '>, which takes a value (' + VALUE_TYPES[st.kind] + '), not typed text: electron_set_value sets it';
  var what = el.localName === 'input' ? '<input type=' + (el.type || 'text') + '>' : '<' + el.localName + '>';
  return 'the element is a ' + what + ' that takes no text; target a text field, a textarea or a contenteditable element';
}

// ---- values of their own: range, date, time, color inputs and ARIA value
// controls ----

// VALUE_TYPES are the input types whose value is set whole, not typed, and
// the format each takes.
var VALUE_TYPES = {
  range: 'a number between its min and max', number: 'a number',
  date: 'YYYY-MM-DD', time: 'HH:MM or HH:MM:SS', 'datetime-local': 'YYYY-MM-DDTHH:MM',
  month: 'YYYY-MM', week: 'YYYY-Www', color: '#rrggbb'
};
var VALUE_ROLES = /^(slider|spinbutton|scrollbar|meter|progressbar)$/;

// valueState is what a value control holds: an input's type and value
// with its min, max and step, or an ARIA value control's role, value
// (aria-valuenow), bounds and text.
function valueState(el) {
  var t = el.localName === 'input' ? (el.type || '').toLowerCase() : '';
  if (VALUE_TYPES[t]) return { kind: t, value: el.value, min: el.min, max: el.max, step: el.step };
  var role = roleOf(el) || '';
  if (VALUE_ROLES.test(role)) {
    var num = function (n) { var v = aria(el, n); return v === null || v === '' || isNaN(Number(v)) ? null : Number(v); };
    return { kind: 'aria', role: role, now: num('aria-valuenow'), vmin: num('aria-valuemin'), vmax: num('aria-valuemax'),
      text: aria(el, 'aria-valuetext') || '', vertical: aria(el, 'aria-orientation') === 'vertical' };
  }
  return null;
}

// controlKind is the action a form control takes, judged as the actions
// judge it: select (a <select>), file, value (valueState: range, date,
// color inputs, ARIA value controls), checkbox (as checkedOf takes it: a
// checkbox, radio or switch, a label of one, a web component holding one)
// or text.
OPS.control = function (s, a) { return { kind: controlKind(locate(s, a)) }; };

function controlKind(el) {
  if (el.localName === 'select') return 'select';
  if (el.localName === 'input' && el.type === 'file') return 'file';
  if (valueState(el)) return 'value';
  if (isCheckable(el) || (el.localName === 'label' && el.control && isCheckable(el.control)) ||
      (el.shadowRoot && innerControl(el, isCheckable))) return 'checkbox';
  return 'text';
}

// setValue sets the value of an input that holds one whole (range, date,
// time, color…), as a user's choice does: input and change fire. An ARIA
// value control only answers its state: the Go side moves it with keys.
ACTIONS.setValue = function (s, el, a) {
  var st = valueState(el);
  if (!st) {
    var what = el.localName === 'input' ? '<input type=' + (el.type || 'text') + '>' : '<' + el.localName + '>';
    fail('BAD_ARGUMENT', 'the element is a ' + what + ', which holds no value of its own to set: electron_type sets a text field, electron_select_option a <select>, electron_check a checkbox', { field: 'selector' });
  }
  if (st.kind === 'aria') return st;
  var before = el.value;
  _inputValue.call(el, a.value);
  if (el.value === '' && a.value !== '') {
    _inputValue.call(el, before);
    fail('BAD_ARGUMENT', 'the ' + st.kind + ' input does not take ' + _JSON.stringify(a.value) + ': it takes ' + VALUE_TYPES[st.kind], { field: 'value' });
  }
  fire(el, new _InputEvent('input', { bubbles: true, composed: true }));
  fire(el, new _Event('change', { bubbles: true }));
  var out = valueState(el);
  out.before = before;
  return out;
};

// OPS.actValue reads a value control's state (null: not one).
OPS.actValue = function (s, a) {
  return valueState(locate(s, a));
};

// focusText focuses a text target with the caret at the end of its text,
// so typing appends, and says what it holds.
ACTIONS.focusText = function (s, el) {
  ACTIONS.focus(s, el);
  if (editKind(el) === 'value') {
    try {
      var n = el.value.length;
      el.setSelectionRange(n, n);
    } catch (e) { /* inputs such as email have no selection API */ }
  } else if (el.isContentEditable) {
    var sel = window.getSelection();
    var range = document.createRange();
    range.selectNodeContents(el);
    range.collapse(false);
    sel.removeAllRanges();
    sel.addRange(range);
  }
  return { text: textOf(el), editable: !!editKind(el), secret: isSecretField(el) };
};

// text reads a text target (for checking what typing did).
OPS.actText = function (s, a) {
  var el = textTarget(locate(s, a));
  var act = deepActive();
  return { text: textOf(el), editable: !!editKind(el), focused: act === el || composedContains(el, act), focus_kind: act ? editKind(act) : '', secret: isSecretField(el) };
};

// select chooses options by value or visible label, fires input and
// change, and says what is chosen now.
ACTIONS.select = function (s, el, a) {
  if (el.localName !== 'select') fail('BAD_ARGUMENT', 'the element is a <' + el.localName + '>, not a <select>; click the option instead (electron_click)' + innerNote(el), { field: 'selector' });
  var want = a.values || [];
  if (!el.multiple && want.length !== 1) fail('BAD_ARGUMENT', 'a single-choice <select> takes exactly one value, not ' + want.length, { field: 'values' });
  var opts = el.options, pick = [];
  for (var i = 0; i < want.length; i++) {
    var v = String(want[i]), found = null, j;
    for (j = 0; j < opts.length && !found; j++) if (opts[j].value === v) found = opts[j];
    for (j = 0; j < opts.length && !found; j++) if (normSpace(optionLabel(opts[j])) === normSpace(v)) found = opts[j];
    for (j = 0; j < opts.length && !found; j++) if (normSpace(optionLabel(opts[j])).toLowerCase() === normSpace(v).toLowerCase()) found = opts[j];
    if (!found) {
      var known = [];
      for (j = 0; j < opts.length && j < 20; j++) known.push(opts[j].value + '/' + normSpace(optionLabel(opts[j])));
      fail('BAD_ARGUMENT', 'no option has the value or label ' + quote(v) + '; options (value/label): ' + known.join(', '), { field: 'values' });
    }
    if (found.disabled || (found.parentElement && found.parentElement.localName === 'optgroup' && found.parentElement.disabled)) fail('ELEMENT_DISABLED', 'the option ' + quote(v) + ' is disabled');
    pick.push(found);
  }
  var before = selectedValues(el);
  for (var k = 0; k < opts.length; k++) {
    var on = pick.indexOf(opts[k]) >= 0;
    if (el.multiple || on) opts[k].selected = on;
  }
  fire(el, new _Event('input', { bubbles: true, composed: true }));
  fire(el, new _Event('change', { bubbles: true }));
  var wanted = pick.map(function (o) { return o.value; });
  return { before: before, values: selectedValues(el), labels: Array.prototype.map.call(el.selectedOptions, function (o) { return normSpace(optionLabel(o)); }), wanted: wanted };
};

function selectedValues(el) {
  return Array.prototype.map.call(el.selectedOptions, function (o) { return o.value; });
}

// checkedOf reads whether a checkbox, radio or ARIA checkable (or the
// control of a label) is checked.
OPS.actChecked = function (s, a) { return checkedOf(locate(s, a)); };
ACTIONS.checked = function (s, el) { return checkedOf(el); };

function checkedOf(el) {
  var role = roleOf(el);
  var isInput = el.localName === 'input' && (el.type === 'checkbox' || el.type === 'radio');
  if (!isInput && !CHECKABLE.has(role)) {
    // A label names its control.
    if (el.localName === 'label' && el.control && el.control.localName === 'input' && (el.control.type === 'checkbox' || el.control.type === 'radio')) {
      return { checked: el.control.checked, radio: el.control.type === 'radio' };
    }
    // A web component's host: its own checked property (what the page
    // reads), else its inner checkbox, radio or switch.
    if (el.shadowRoot) {
      var inner = innerControl(el, isCheckable);
      var hc = hostBool(el, 'checked');
      if (hc !== undefined && (inner || /check|radio|switch|toggle/.test(el.localName))) {
        var radio = !!inner && (roleOf(inner) === 'radio' || (inner.localName === 'input' && inner.type === 'radio'));
        return { checked: hc, mixed: hostBool(el, 'indeterminate') === true, radio: radio || /radio/.test(el.localName) };
      }
      if (inner) return checkedOf(inner);
    }
    fail('BAD_ARGUMENT', 'the element (' + (role || el.localName) + ') is not a checkbox, radio or switch' + innerNote(el), { field: 'selector' });
  }
  var c = checkedState(el, role);
  return { checked: c === 'true', mixed: c === 'mixed', radio: role === 'radio' || role === 'menuitemradio' || (isInput && el.type === 'radio') };
};

// scrollInfo is where the element's scroll container and the window are
// scrolled.
function scrollerOf(el) {
  for (var n = el; n; n = flatParent(n)) {
    if (n === document.body || n === document.documentElement) break;
    var cs = _getComputedStyle(n);
    var oy = cs.overflowY, ox = cs.overflowX;
    if ((n.scrollHeight > n.clientHeight && (oy === 'auto' || oy === 'scroll')) || (n.scrollWidth > n.clientWidth && (ox === 'auto' || ox === 'scroll'))) return n;
  }
  return null;
}

function scrollState(el) {
  var o = { window: { x: window.scrollX, y: window.scrollY } };
  var sc = el ? scrollerOf(el) : null;
  if (sc) o.container = { selector: cssPath(sc), x: sc.scrollLeft, y: sc.scrollTop, max_x: sc.scrollWidth - sc.clientWidth, max_y: sc.scrollHeight - sc.clientHeight };
  return o;
}

ACTIONS.scrollState = function (s, el) {
  s.scrollEl = el;
  return scrollState(el);
};

// viewportCenter is where a wheel without an element turns: the centre of
// this document's viewport.
OPS.actViewport = function (s) {
  s.scrollEl = null;
  return { x: window.innerWidth / 2, y: window.innerHeight / 2, scroll: scrollState(null) };
};

// scrollSettled waits until the scroll positions hold still for two
// frames (a wheel scrolls smoothly) or the budget ends, and reads them.
OPS.actScrollSettled = function (s, a) {
  var el = s.scrollEl && s.scrollEl.isConnected ? s.scrollEl : null;
  var budget = a.budget || 500, t0 = _now();
  var key = function () { var o = scrollState(el); return _JSON.stringify(o); };
  var last = key(), still = 0;
  return later(s, function () {
    return new Promise(function (resolve) {
      var step = function () {
        var k = key();
        if (k === last) still++; else { still = 0; last = k; }
        if (still >= 3 || _now() - t0 >= budget) return resolve(scrollState(el));
        nextFrame(step);
      };
      nextFrame(step);
    });
  });
};

// ---- drag and drop ----

// dragEvent makes a DragEvent with a shared DataTransfer.
function dragEvent(type, x, y, dt) {
  var cancelable = type !== 'dragleave' && type !== 'dragend';
  return new _DragEvent(type, { bubbles: true, cancelable: cancelable, composed: true, clientX: x, clientY: y, view: window, dataTransfer: dt });
}

// under is the element at (x, y) when it is el or inside it, else el: the
// events of a drop go to what the pointer is over.
function under(el, x, y) {
  var h = deepHit(x, y);
  return h && composedContains(el, h) ? h : el;
}

// dragWatch watches the HTML drag that real input is about to play from el
// to r.to (input.HTML5Drag): the first dragstart, the last dragover that
// reached the target, the drop and dragend. The events themselves are
// kept, so whether the page cancelled them is read after their handlers
// ran. OPS.dragReport reads what happened and stops watching.
ACTIONS.dragWatch = function (s, el, a, r) {
  unwatchDrag(s);
  var w = { start: null, over: null, drop: null, ended: false, fns: {} };
  var target = r.to;
  var on = function (type, f) {
    w.fns[type] = f;
    window.addEventListener(type, f, true);
  };
  on('dragstart', function (ev) { if (!w.start) w.start = ev; });
  on('dragover', function (ev) { if (reaches(target, ev.composedPath ? ev.composedPath()[0] : ev.target)) w.over = ev; });
  on('drop', function (ev) { w.drop = ev; });
  on('dragend', function () { w.ended = true; });
  w.order = watchOrder(el, target, a.expect || 'auto');
  w.src = { el: el, parent: el.parentElement, index: el.parentElement ? renderedKids(el.parentElement).indexOf(el) : -1, to: target, toParent: target.parentElement };
  w.print = visualPrint();
  s.drag = w;
  return true;
};

// ---- drag: did anything change at all ----
//
// A pointer drag that is neither a reorder nor a move of the source can
// only be judged by whether the page now shows something else. What it
// shows is printed before the drag and after it settles: every rendered
// element in the viewport with text of its own or a form value, as its
// text (or value) and its box. A ghost the library drew and removed, a
// class it set and cleared, hover styling, or a style or attribute the
// library rewrites without changing what is drawn leave the print as it
// was.

var PRINT_MAX = 4000;

function visualPrint() {
  var out = [], vw = window.innerWidth, vh = window.innerHeight;
  var walk = function (root) {
    var tw = document.createTreeWalker(root, 1 /* NodeFilter.SHOW_ELEMENT */);
    for (var el = tw.nextNode(); el && out.length < PRINT_MAX; el = tw.nextNode()) {
      if (el.shadowRoot) walk(el.shadowRoot);
      var own = '';
      for (var c = el.firstChild; c; c = c.nextSibling) if (c.nodeType === 3) own += c.data;
      own = normSpace(own);
      var val = '';
      if (el.localName === 'input' || el.localName === 'textarea' || el.localName === 'select') val = '=' + el.value + (el.checked ? ' (checked)' : '');
      if (!own && !val) continue;
      var r = el.getBoundingClientRect();
      if (!r.width || !r.height || r.bottom <= 0 || r.right <= 0 || r.top >= vh || r.left >= vw) continue;
      out.push(clip(own, 60) + val + ' at ' + Math.round(r.left) + ',' + Math.round(r.top) + ' ' + Math.round(r.width) + 'x' + Math.round(r.height));
    }
  };
  walk(document.body || document.documentElement);
  return out;
}

// printChange counts the entries of two prints that differ (as multisets)
// and names the first new one, else the first gone.
function printChange(before, after) {
  var count = new _Map(), changed = 0, first = '', gone = '';
  for (var i = 0; i < before.length; i++) count.set(before[i], (count.get(before[i]) || 0) + 1);
  for (var k = 0; k < after.length; k++) {
    var n = count.get(after[k]) || 0;
    if (n > 0) count.set(after[k], n - 1);
    else { changed++; if (!first) first = 'now shows ' + after[k]; }
  }
  count.forEach(function (n, e) { if (n > 0) { changed += n; if (!gone) gone = 'no longer shows ' + e; } });
  return { changed: changed, first: first || gone };
}

// OPS.viewMark prints what the document shows now; OPS.viewChange
// compares what it shows then with that print (changed -1: no print).
// Keys whose field ends as it was (a combobox that clears its input when
// Enter chooses) are judged by them.
OPS.viewMark = function (s) {
  s.viewPrint = visualPrint();
  return true;
};

OPS.viewChange = function (s) {
  var before = s.viewPrint;
  s.viewPrint = null;
  if (!before) return { changed: -1 };
  return printChange(before, visualPrint());
};

// dragAnimating says whether a running, finite animation or transition
// moves the dragged item or an item of its list (a library's drop
// animation): the order is read only after it ends.
function dragAnimating(w) {
  if (typeof document.getAnimations !== 'function') return false;
  var list = document.getAnimations(), scope = w.order ? w.order.parent : w.src.parent;
  for (var i = 0; i < list.length; i++) {
    var an = list[i], eff = an.effect;
    if (an.playState !== 'running' || !eff || !eff.target) continue;
    if (eff.target !== w.src.el && !(scope && composedContains(scope, eff.target))) continue;
    var timing = typeof eff.getComputedTiming === 'function' ? eff.getComputedTiming() : null;
    if (timing && timing.endTime === Infinity) continue;
    var kfs = typeof eff.getKeyframes === 'function' ? eff.getKeyframes() : [];
    for (var k = 0; k < kfs.length; k++) {
      for (var prop in kfs[k]) if (GEOMETRY.test(prop)) return true;
    }
    // A CSS transition names its property instead of keyframes.
    if (an.transitionProperty && GEOMETRY.test(an.transitionProperty.replace(/-([a-z])/g, function (_, c) { return c.toUpperCase(); }))) return true;
  }
  return false;
}

function unwatchDrag(s) {
  var w = s.drag;
  if (!w) return null;
  for (var type in w.fns) window.removeEventListener(type, w.fns[type], true);
  if (w.order && w.order.mo) w.order.mo.disconnect();
  s.drag = null;
  return w;
}

// ---- drag: the order of a list ----
//
// A drag of an item onto another item of the same parent is a reorder when
// the caller says so (expect 'reorder'), or, with expect 'auto', when the
// parent is a list (ul, ol, tbody, role list, listbox, grid, tree…) or the
// page moved or removed one of the parent's children during the drag (as
// sorting libraries do). Its target means: the dragged item
// ends where the target item was (its index among the parent's rendered
// element children before the drag). expect 'drop' never checks an order.

var LIST_TAGS = /^(ul|ol|tbody|thead|tfoot|table|menu|dl)$/;
var LIST_ROLES = /^(list|listbox|grid|treegrid|tree|rowgroup|table|tablist|menu|menubar|feed|radiogroup)$/;

// renderedKids are the parent's element children that have a box (a
// library's hidden clone or placeholder is not an item).
function renderedKids(parent) {
  var out = [];
  for (var c = parent.firstElementChild; c; c = c.nextElementSibling) if (c.getClientRects().length) out.push(c);
  return out;
}

// itemLabel names an item for the observed order: its aria-label, else its
// text, else its id or tag.
function itemLabel(el) {
  var l = el.getAttribute('aria-label') || normSpace(el.innerText || el.textContent || '');
  if (l) return clip(l, 40);
  return el.id ? '#' + el.id : '<' + el.localName + '>';
}

function watchOrder(el, to, expect) {
  var parent = el.parentElement;
  var siblings = !!parent && !!to && to !== el && to.parentElement === parent;
  if (expect === 'reorder' && !siblings) fail('BAD_ARGUMENT', 'expect "reorder" needs the source and the target to be two children of one parent; they are not', { field: 'expect' });
  if (expect === 'drop' || !siblings) return null;
  var kids = renderedKids(parent);
  var o = { el: el, to: to, parent: parent, kids: kids, from: kids.indexOf(el), target: kids.indexOf(to), label: itemLabel(el),
    before: kids.map(itemLabel), mutated: false, mo: null, expect: expect };
  o.list = expect === 'reorder' || LIST_TAGS.test(parent.localName) || LIST_ROLES.test(roleOf(parent) || '');
  if (_MO) {
    // Only a move or removal of one of the items counts (a ghost, a
    // placeholder or a toast added to the parent does not).
    var moves = function (nodes) {
      for (var i = 0; i < nodes.length; i++) if (kids.indexOf(nodes[i]) >= 0) return true;
      return false;
    };
    o.mo = new _MO(function (recs) {
      for (var i = 0; i < recs.length; i++) if (moves(recs[i].addedNodes) || moves(recs[i].removedNodes)) o.mutated = true;
    });
    o.mo.observe(parent, { childList: true });
  }
  return o;
}

// orderNow reads the order a watched drag left: the source's index among
// the rendered children (found by its label when the page replaced the
// element), what is now at the target's old index, and the labels.
function orderNow(o) {
  var kids = o.parent.isConnected ? renderedKids(o.parent) : [];
  var labels = kids.map(itemLabel);
  var idx = kids.indexOf(o.el), replaced = false;
  if (idx < 0) {
    var hits = [];
    for (var i = 0; i < labels.length; i++) if (labels[i] === o.label) hits.push(i);
    if (hits.length === 1 && !o.el.isConnected) { idx = hits[0]; replaced = true; }
  }
  var same = labels.length === o.before.length;
  for (var k = 0; same && k < labels.length; k++) same = labels[k] === o.before[k] && kids[k] === o.kids[k];
  var cap = function (a) { return a.length > 50 ? a.slice(0, 50).concat(['… ' + (a.length - 50) + ' more']) : a; };
  return {
    reorder: o.list || o.mutated, from: o.from, target: o.target, index: idx, replaced: replaced,
    at_target: o.target < labels.length ? labels[o.target] : '', item: o.label,
    moved: !same, mutated: o.mutated, in_place: idx === o.target && idx >= 0,
    order: cap(labels), before: cap(o.before)
  };
}

// OPS.dragReport answers what the watched drag did; with a.peek it keeps
// watching (to learn early whether a drag started at all). Otherwise, for a
// drag within a list it first waits (up to a.budget ms) until the source
// is in the target's slot or the order has held still for three frames
// (a framework may re-render the list after the drop), then stops watching.
OPS.dragReport = function (s, a) {
  var w = s.drag;
  if (!w) return { watching: false };
  var report = function () {
    var r = {
      watching: true,
      started: !!w.start && !w.start.defaultPrevented,
      start_seen: !!w.start,
      trusted: !!w.start && w.start.isTrusted,
      accepted: !!w.over && w.over.defaultPrevented,
      dropped: !!w.drop,
      drop_prevented: !!w.drop && w.drop.defaultPrevented,
      ended: w.ended
    };
    if (w.order) r.order = orderNow(w.order);
    // Where the source is now: a drag that moved it (to another list, say)
    // did something, whatever its drop events said.
    var src = w.src, p = src.el.parentElement;
    var idx = p ? renderedKids(p).indexOf(src.el) : -1;
    r.source_moved = src.el.isConnected && (p !== src.parent || idx !== src.index);
    if (r.source_moved) {
      r.source = { parent: p ? cssPath(p) : '', index: idx, beside_target: !!p && p === src.toParent, inside_target: composedContains(src.to, src.el) };
    }
    return r;
  };
  if (a && a.peek) return report();
  if (!(a && a.budget > 0)) {
    var now = report();
    now.net = printChange(w.print, visualPrint());
    unwatchDrag(s);
    return now;
  }
  // Settled: the order (or, without one, the source's place) held still
  // for three frames and no drop animation runs on the list; a source
  // already in the target's slot need not wait for the frames.
  var t0 = _now(), last = '', still = 0;
  return later(s, function () {
    return new Promise(function (resolve) {
      var step = function () {
        var key, inPlace = false;
        if (w.order) {
          var o = orderNow(w.order);
          key = o.index + '|' + o.order.join('\u001f');
          inPlace = o.in_place;
        } else {
          var sp = w.src.el.parentElement;
          key = (w.src.el.isConnected ? 1 : 0) + '|' + (sp ? cssPath(sp) + '|' + renderedKids(sp).indexOf(w.src.el) : '');
        }
        if (key === last) still++; else { still = 0; last = key; }
        var busy = dragAnimating(w);
        if (!busy && (inPlace || still >= 3) || _now() - t0 >= a.budget) {
          var r = report();
          r.net = printChange(w.print, visualPrint());
          if (busy) r.animating = true;
          unwatchDrag(s);
          return resolve(r);
        }
        nextFrame(step);
      };
      nextFrame(step);
    });
  });
};

function b64bytes(b64) {
  var bin = atob(b64), n = bin.length, out = new Uint8Array(n);
  for (var i = 0; i < n; i++) out[i] = bin.charCodeAt(i);
  return out;
}

// dropFiles drops files (built from their bytes) onto the element:
// dragenter and dragover, then drop when the dragover was accepted (its
// default prevented), else dragleave.
ACTIONS.dropFiles = function (s, el, a, r) {
  var dt = new _DataTransfer();
  var files = a.files || [];
  for (var i = 0; i < files.length; i++) {
    var f = files[i];
    dt.items.add(new _File([b64bytes(f.data)], f.name, { type: f.type || '', lastModified: f.modified || _now() }));
  }
  var x = r.x, y = r.y;
  var tgt = under(el, x, y);
  fire(tgt, dragEvent('dragenter', x, y, dt));
  var out = { accepted: !fire(tgt, dragEvent('dragover', x, y, dt)), dropped: false, default_prevented: false, files: dt.files.length };
  if (out.accepted) {
    out.dropped = true;
    out.default_prevented = !fire(tgt, dragEvent('drop', x, y, dt));
  } else {
    fire(tgt, dragEvent('dragleave', x, y, dt));
  }
  return out;
};

// fileInput checks that the element is a file input that takes n files.
ACTIONS.fileInput = function (s, el, a) {
  if (el.localName !== 'input' || inputType(el) !== 'file') fail('BAD_ARGUMENT', 'the element is ' + (el.localName === 'input' ? 'an input of type ' + inputType(el) : 'a <' + el.localName + '>') + ', not <input type=file>', { field: 'selector' });
  if ((a.count || 0) > 1 && !el.multiple) fail('BAD_ARGUMENT', 'the file input takes one file (no multiple attribute), not ' + a.count, { field: 'paths' });
  var why = disabledWhy(el);
  if (why) fail('ELEMENT_DISABLED', why);
  return { multiple: el.multiple };
};

// fileNames reads the files a file input holds now.
OPS.actFiles = function (s, a) {
  var el = locate(s, a);
  return Array.prototype.map.call(el.files || [], function (f) { return { name: f.name, size: f.size, type: f.type }; });
};

// What editors.js asks of a text target: what it takes text as and holds.
editFieldInfo = function (el) { var k = editKind(el); return { kind: k, text: k ? textOf(el) : '' }; };
})();
