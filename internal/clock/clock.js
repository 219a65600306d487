// The fake clock of one document. Installed by internal/clock in every
// document of a session; __usClockTarget drives the clocks of a target's
// documents (the root and its same-origin frames) as one.
(function (start, mode) {
  const w = window;
  if (w.__usClock) { w.__usClock.now = start; w.__usClock.setMode(mode); return 'kept'; }
  const O = {
    Date: w.Date, setTimeout: w.setTimeout.bind(w), clearTimeout: w.clearTimeout.bind(w),
    setInterval: w.setInterval.bind(w), clearInterval: w.clearInterval.bind(w),
    raf: w.requestAnimationFrame && w.requestAnimationFrame.bind(w), caf: w.cancelAnimationFrame && w.cancelAnimationFrame.bind(w),
    ric: w.requestIdleCallback && w.requestIdleCallback.bind(w), cic: w.cancelIdleCallback && w.cancelIdleCallback.bind(w),
    perfNow: w.performance.now.bind(w.performance),
  };
  const perfBase = O.perfNow();
  const c = { now: start, origin: start, timers: new Map(), seq: 0, ids: 1e9, mode: 'fixed', ticker: 0, fired: 0 };
  const add = (fn, delay, args, interval) => {
    const d = Math.max(0, Number(delay) || 0);
    const t = { id: ++c.ids, fn, args, due: c.now + d, interval: interval ? Math.max(1, d) : 0, seq: ++c.seq };
    c.timers.set(t.id, t);
    return t.id;
  };
  const clear = (orig) => (id) => { if (!c.timers.delete(id) && orig) orig(id); };
  w.setTimeout = (fn, d, ...a) => add(fn, d, a, false);
  w.setInterval = (fn, d, ...a) => add(fn, d, a, true);
  w.clearTimeout = clear(O.clearTimeout);
  w.clearInterval = clear(O.clearInterval);
  w.requestAnimationFrame = (fn) => add(() => fn(c.perf()), 16, [], false);
  w.cancelAnimationFrame = clear(O.caf);
  w.requestIdleCallback = (fn) => add(() => fn({ didTimeout: false, timeRemaining: () => 50 }), 1, [], false);
  w.cancelIdleCallback = clear(O.cic);
  function FakeDate(...a) {
    if (!new.target) return new O.Date(c.now).toString();
    return a.length ? new O.Date(...a) : new O.Date(c.now);
  }
  FakeDate.prototype = O.Date.prototype;
  FakeDate.now = () => c.now;
  FakeDate.parse = O.Date.parse;
  FakeDate.UTC = O.Date.UTC;
  w.Date = FakeDate;
  c.perf = () => perfBase + (c.now - c.origin);
  Object.defineProperty(w.performance, 'now', { value: c.perf, configurable: true, writable: true });
  // first returns the timer due first (by due time, then by order set).
  c.first = () => {
    let best = null;
    for (const t of c.timers.values()) if (!best || t.due < best.due || (t.due === best.due && t.seq < best.seq)) best = t;
    return best;
  };
  c.fire = (t) => {
    if (t.interval) { t.due += t.interval; t.seq = ++c.seq; } else c.timers.delete(t.id);
    c.fired++;
    try {
      if (typeof t.fn === 'function') t.fn(...t.args); else (0, eval)(String(t.fn));
    } catch (e) { O.setTimeout(() => { throw e; }, 0); }
  };
  c.setMode = (m) => {
    c.mode = m;
    if (c.ticker) { O.clearInterval(c.ticker); c.ticker = 0; }
    if (m === 'running') {
      let last = O.perfNow();
      c.ticker = O.setInterval(() => {
        const n = O.perfNow(); const to = c.now + (n - last); last = n;
        for (let t = c.first(); t && t.due <= to; t = c.first()) { c.now = Math.max(c.now, t.due); c.fire(t); }
        c.now = to;
      }, 16);
    }
  };
  c.setMode(mode);
  Object.defineProperty(w, '__usClock', { value: c, configurable: true });
  // The target-level driver: this document and its same-origin frames.
  const all = () => {
    const out = [];
    const walk = (win) => {
      let k; try { k = win.__usClock; } catch (e) { return; }
      if (k) out.push(k);
      for (let i = 0; i < win.frames.length; i++) walk(win.frames[i]);
    };
    walk(w);
    return out;
  };
  const T = {
    token: null, seen: new Set(),
    // next is the earliest due time, leaving out what this jump fired.
    next(token) {
      const seen = T.token === token ? T.seen : null;
      let m = null;
      for (const k of all()) for (const t of k.timers.values()) {
        if (seen && seen.has(t)) continue;
        if (m === null || t.due < m) m = t.due;
      }
      return m;
    },
    // runUntil fires, in due order across the target's documents, every
    // timer due at or before limit; with once, a repeating timer fires at
    // most once per token (one jump may take several calls). It returns
    // how many fired.
    runUntil(limit, once, token) {
      if (T.token !== token) { T.token = token; T.seen = new Set(); }
      const seen = T.seen; let n = 0;
      for (;;) {
        let best = null, bk = null;
        for (const k of all()) for (const t of k.timers.values()) {
          if (t.due > limit || (once && seen.has(t))) continue;
          if (!best || t.due < best.due || (t.due === best.due && t.seq < best.seq)) { best = t; bk = k; }
        }
        if (!best) return n;
        for (const k of all()) k.now = Math.max(k.now, best.due);
        seen.add(best); bk.fire(best); n++;
        if (n > 1e6) return n;
      }
    },
    setNow(t) { for (const k of all()) k.now = t; },
    setMode(m) { for (const k of all()) k.setMode(m); },
    status() { let p = 0; const ks = all(); for (const k of ks) p += k.timers.size; return { now: c.now, mode: c.mode, documents: ks.length, pending: p }; },
  };
  Object.defineProperty(w, '__usClockTarget', { value: T, configurable: true });
  return 'installed';
})
