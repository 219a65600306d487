// understudy's main-process instrumentation (internal/mainproc/agent.js).
//
// One fixed function, run in an Electron main process through its inspector
// (Runtime.evaluate / callFunctionOn) or, for launch-time instrumentation, by
// the shim main understudy writes before the app's own main (ADR-020 of
// stagewright). The agent gives data (channels, a stub value, a tray id),
// never code. State lives on globalThis.__understudyMain; everything it
// changes in the app is recorded with the original and put back by
// restore() — on ipc_capture_stop / native_notifications_stop, when the
// session ends (understudy calls op "restore"), and by the app itself when
// understudy stops renewing its lease (the server died: a timer here
// restores everything once the lease is over).
(a, req) => {
  const electron = (req || require)('electron');
  const g = globalThis;
  const now = () => Date.now();
  const own = (o, k) => Object.prototype.hasOwnProperty.call(o, k);
  // holder walks o's prototype chain to the object that owns method k.
  const holder = (o, k) => { for (let p = o; p; p = Object.getPrototypeOf(p)) if (own(p, k)) return p; return null; };
  // patch replaces obj[k] and returns the function that puts it back exactly
  // (an inherited method is deleted again, an own one restored).
  const patch = (obj, k, make) => {
    const had = own(obj, k);
    const orig = obj[k];
    const repl = make(orig);
    obj[k] = repl;
    return () => {
      if (obj[k] !== repl) return false; // someone patched over us: leave theirs
      if (had) obj[k] = orig; else delete obj[k];
      return true;
    };
  };
  let S = g.__understudyMain;
  if (!S) {
    S = g.__understudyMain = { v: 1, seq: 0, owner: '', leaseUntil: 0, timer: null, ipc: null, notif: null, tray: null,
      trayIds: new WeakMap(), trayRec: new WeakMap(), nextTray: 1 };
  }
  const stopIPC = () => {
    const C = S.ipc;
    if (!C) return null;
    for (const undo of C.undo.reverse()) { try { undo(); } catch (e) { /* restore what can be */ } }
    const map = electron.ipcMain && electron.ipcMain._invokeHandlers;
    for (const [ch, w] of C.wrapped) if (map && map.get(ch) === w.wrapper) map.set(ch, w.orig);
    S.ipc = null;
    return C;
  };
  const stopNotif = () => {
    const N = S.notif;
    if (!N) return null;
    try { N.undo(); } catch (e) { /* gone */ }
    S.notif = null;
    return N;
  };
  const stopTray = () => {
    const T = S.tray;
    if (!T) return;
    for (const undo of T.undo) { try { undo(); } catch (e) { /* gone */ } }
    S.tray = null;
  };
  const restoreAll = () => {
    stopIPC(); stopNotif(); stopTray();
    if (S.timer) { clearInterval(S.timer); S.timer = null; }
    S.owner = ''; S.leaseUntil = 0;
    return { restored: true };
  };
  // lease binds instrumentation installed over the inspector to the
  // understudy that installed it: renewed while it runs, and when it is not
  // the app restores itself.
  const lease = () => {
    if (!a.owner) return null; // launch-time hooks: the app is ours and ends with us
    if (S.owner && S.owner !== a.owner && S.leaseUntil > now()) return { busy: true };
    S.owner = a.owner;
    S.leaseUntil = now() + (a.leaseMs || 5000);
    if (!S.timer) {
      S.timer = setInterval(() => { if (S.leaseUntil && now() > S.leaseUntil) restoreAll(); }, 250);
      if (S.timer.unref) S.timer.unref();
    }
    return null;
  };
  // json serialises a value with the redacted keys replaced and at most
  // max characters (a longer one is cut, marked truncated).
  const json = (v, redact, max) => {
    let s;
    try {
      s = JSON.stringify(v === undefined ? null : v, (k, x) => {
        if (k && redact.has(k.toLowerCase())) return '[redacted]';
        if (typeof x === 'function') return '[function]';
        if (typeof x === 'bigint') return String(x);
        return x;
      });
    } catch (e) { s = JSON.stringify('[unserialisable: ' + String((e && e.message) || e) + ']'); }
    if (s === undefined) s = 'null';
    if (s.length > max) return { json: JSON.stringify({ truncated: true, chars: s.length, preview: s.slice(0, max) }), truncated: true };
    return { json: s, truncated: false };
  };
  const wcOf = (ev) => (ev && ev.sender && typeof ev.sender.id === 'number' ? ev.sender.id : null);
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  const serMenu = (menu, depth) => (menu && menu.items || []).map((it) => {
    const o = { label: String(it.label || ''), type: String(it.type || 'normal'), enabled: it.enabled !== false, visible: it.visible !== false, checked: !!it.checked };
    if (it.role) o.role = String(it.role);
    if (it.accelerator) o.accelerator = String(it.accelerator);
    if (it.id) o.id = String(it.id);
    if (it.submenu && depth < 16) o.submenu = serMenu(it.submenu, depth + 1);
    return o;
  });

  // --- notifications -------------------------------------------------------
  const installNotif = (launch) => {
    const N = electron.Notification;
    if (!N || !N.prototype) return false;
    const proto = holder(N.prototype, 'show') || N.prototype;
    const st = { list: [], dropped: 0, max: 1000, armed: false, armSeq: 0, filter: '', launch, undo: null };
    st.undo = patch(proto, 'show', (orig) => function () {
      try {
        const r = { seq: ++S.seq, title: String(this.title || ''), body: String(this.body || ''), at: now() };
        if (this.subtitle) r.subtitle = String(this.subtitle);
        if (this.silent !== undefined) r.silent = !!this.silent;
        if (this.urgency) r.urgency = String(this.urgency);
        if (S.notif === st) {
          if (st.list.length >= st.max) { st.list.shift(); st.dropped++; }
          st.list.push(r);
        }
      } catch (e) { /* never break the app's notification */ }
      return orig.apply(this, arguments);
    });
    S.notif = st;
    return true;
  };
  const readNotif = () => {
    const st = S.notif;
    const f = st.filter;
    return st.list.filter((n) => !f || n.title.includes(f)).map((n) => Object.assign({}, n, { before_arm: n.seq <= st.armSeq }));
  };

  // --- trays ---------------------------------------------------------------
  // Electron keeps no tray registry and has no getters for a tray's tooltip
  // or context menu: the setters are patched on Tray.prototype so what the
  // app sets is recorded (from app start with launch-time instrumentation).
  const installTray = () => {
    if (S.tray) return true;
    const T = electron.Tray;
    if (!T || !T.prototype) return false;
    const undo = [];
    const rec = (t) => { let r = S.trayRec.get(t); if (!r) { r = {}; S.trayRec.set(t, r); } return r; };
    const setter = (name, field, conv) => {
      const p = holder(T.prototype, name);
      if (!p) return;
      undo.push(patch(p, name, (orig) => function (v) { try { rec(this)[field] = conv(v); } catch (e) { /* record what can be */ } return orig.apply(this, arguments); }));
    };
    setter('setToolTip', 'tooltip', (v) => String(v));
    setter('setTitle', 'title', (v) => String(v));
    setter('setImage', 'has_image', (v) => !!v);
    setter('setContextMenu', 'menu', (v) => v || null);
    S.tray = { undo, launch: !a.owner };
    return true;
  };
  const trayOf = (t) => {
    if (!S.trayIds.has(t)) S.trayIds.set(t, S.nextTray++);
    const r = S.trayRec.get(t) || {};
    const o = { id: S.trayIds.get(t), destroyed: typeof t.isDestroyed === 'function' ? !!t.isDestroyed() : false,
      tooltip: r.tooltip !== undefined ? r.tooltip : null, title: r.title !== undefined ? r.title : null,
      has_image: r.has_image !== undefined ? r.has_image : null, menu: r.menu ? serMenu(r.menu, 0) : null,
      recorded: r.tooltip !== undefined || r.title !== undefined || r.menu !== undefined,
      events: typeof t.eventNames === 'function' ? t.eventNames().map(String) : [] };
    if (o.title === null && typeof t.getTitle === 'function') { try { o.title = String(t.getTitle()); } catch (e) { /* macOS only */ } }
    if (typeof t.getBounds === 'function') { try { o.bounds = t.getBounds(); } catch (e) { /* not everywhere */ } }
    return o;
  };
  // trays (this) is the array Runtime.queryObjects found on Tray.prototype;
  // prototypes of subclasses are not trays.
  const liveTrays = (arr) => (arr || []).filter((t) => t && !own(t, 'constructor') && !(typeof t.isDestroyed === 'function' && t.isDestroyed()));

  switch (a.op) {
    case 'kinds': {
      const { webContents, BrowserWindow, BaseWindow } = electron;
      if (!webContents || typeof webContents.fromDevToolsTargetId !== 'function') return { error: 'unsupported' };
      const wins = BaseWindow && typeof BaseWindow.getAllWindows === 'function' ? BaseWindow.getAllWindows() : BrowserWindow.getAllWindows();
      // A WebContentsView's webContents, by the window whose content view tree holds it.
      const inView = new Map();
      const walk = (v, w, d) => {
        if (!v || d > 32) return;
        if (v.webContents && !inView.has(v.webContents)) inView.set(v.webContents, w.id);
        for (const c of v.children || []) walk(c, w, d + 1);
      };
      for (const w of wins) walk(w.contentView, w, 0);
      const kinds = {};
      for (const t of a.targets || []) {
        const wc = webContents.fromDevToolsTargetId(t);
        if (!wc) continue;
        const type = typeof wc.getType === 'function' ? String(wc.getType()) : '';
        let kind = 'other', win = null;
        const bw = BrowserWindow.getAllWindows().find((w) => w.webContents === wc);
        if (type === 'webview') kind = 'webview';
        else if (bw) { kind = 'window'; win = bw.id; }
        else if (inView.has(wc)) { kind = 'webcontents_view'; win = inView.get(wc); }
        kinds[t] = { webcontents_id: wc.id, kind, window_id: win, type };
      }
      return { kinds };
    }
    case 'launch': {
      installNotif(true);
      installTray();
      return { installed: true };
    }
    case 'renew': {
      if (S.owner !== a.owner) return { lost: true };
      S.leaseUntil = now() + (a.leaseMs || 5000);
      return { renewed: true };
    }
    case 'restore':
      if (a.owner && S.owner && S.owner !== a.owner) return { restored: false };
      return restoreAll();
    case 'state':
      return { ipc: !!S.ipc, notif: !!S.notif, tray: !!S.tray, owner: S.owner, lease_ms: S.leaseUntil ? S.leaseUntil - now() : 0 };

    case 'ipcStart': {
      const { ipcMain, webContents } = electron;
      const map = ipcMain && ipcMain._invokeHandlers;
      if (!map || typeof map.get !== 'function') return { error: 'unsupported' };
      if (S.ipc) return { error: 'already' };
      const l = lease();
      if (l) return { error: 'busy' };
      const C = S.ipc = { channels: new Set(a.channels), events: [], dropped: 0, max: a.maxEvents, maxArg: a.maxArgBytes,
        redact: new Set(a.redact.map((k) => String(k).toLowerCase())), wrapped: new Map(), stubs: new Map(), undo: [], since: now() };
      const record = (e) => {
        if (S.ipc !== C) return;
        if (C.events.length >= C.max) { C.dropped++; return; }
        e.seq = ++S.seq;
        C.events.push(e);
      };
      const argsOf = (args) => { const j = json(args, C.redact, C.maxArg); return j; };
      const wrapHandle = (ch) => {
        const orig = map.get(ch);
        if (typeof orig !== 'function' || (C.wrapped.get(ch) || {}).wrapper === orig) return;
        const wrapper = function (event, ...args) {
          const t0 = now();
          const j = argsOf(args);
          const e = { channel: ch, type: 'invoke', direction: 'renderer_to_main', args: j.json, args_truncated: j.truncated, webcontents_id: wcOf(event), ts: t0 };
          const st = C.stubs.get(ch);
          const useStub = S.ipc === C && st && (st.times === 0 || st.used < st.times);
          let run;
          if (useStub) {
            st.used++;
            e.stubbed = true;
            run = (async () => {
              if (st.delay) await sleep(st.delay);
              if (st.error !== '') throw new Error(st.error);
              return JSON.parse(st.value);
            })();
          } else {
            // Electron before 13 kept a wrapper here that answers through
            // event._reply / event._throw; later versions the raw handler.
            run = new Promise((resolve, reject) => {
              const ev = Object.create(event || null);
              ev._reply = resolve; ev._throw = reject;
              Promise.resolve().then(() => orig.call(this, ev, ...args)).then(resolve, reject);
            });
          }
          return run.then((r) => {
            e.ok = true; e.ms = now() - t0; const rj = json(r, C.redact, C.maxArg); e.result = rj.json; record(e);
            if (event && typeof event._reply === 'function') event._reply(r);
            return r;
          }, (err) => {
            e.ok = false; e.ms = now() - t0; e.error = String((err && err.message) || err); record(e);
            if (event && typeof event._throw === 'function') event._throw(err);
            throw err;
          });
        };
        C.wrapped.set(ch, { orig, wrapper });
        map.set(ch, wrapper);
      };
      for (const ch of C.channels) if (map.has(ch)) wrapHandle(ch);
      // Handlers registered later on a captured channel are wrapped too.
      C.undo.push(patch(ipcMain, 'handle', (orig) => function (ch, fn) {
        const r = orig.apply(this, arguments);
        if (S.ipc === C && C.channels.has(ch)) wrapHandle(ch);
        return r;
      }));
      if (a.captureSend) {
        // Electron delivers ipcRenderer.send as ipcMain.emit(channel, event, ...args).
        C.undo.push(patch(ipcMain, 'emit', (orig) => function (ch, event, ...args) {
          if (S.ipc === C && C.channels.has(ch) && event && typeof event === 'object') {
            const j = argsOf(args);
            record({ channel: ch, type: 'send', direction: 'renderer_to_main', args: j.json, args_truncated: j.truncated, webcontents_id: wcOf(event), ts: now(), ok: true, ms: 0 });
          }
          return orig.apply(this, arguments);
        }));
      }
      let toRenderer = false;
      if (a.captureSendToRenderer && webContents && typeof webContents.getAllWebContents === 'function') {
        const any = webContents.getAllWebContents()[0];
        for (const m of ['send', 'sendToFrame']) {
          const p = any && holder(any, m);
          if (!p) continue;
          toRenderer = true;
          C.undo.push(patch(p, m, (orig) => function (...x) {
            const ch = m === 'send' ? x[0] : x[1];
            if (S.ipc === C && C.channels.has(ch)) {
              const j = argsOf(m === 'send' ? x.slice(1) : x.slice(2));
              record({ channel: ch, type: 'send-to-renderer', direction: 'main_to_renderer', args: j.json, args_truncated: j.truncated, webcontents_id: typeof this.id === 'number' ? this.id : null, ts: now(), ok: true, ms: 0 });
            }
            return orig.apply(this, x);
          }));
        }
      }
      return { capturing: true, channels: Array.from(C.channels), wrapped: Array.from(C.wrapped.keys()), send_to_renderer: toRenderer };
    }
    case 'ipcRead': {
      const C = S.ipc;
      if (!C) return { error: 'not_capturing' };
      const ev = C.events.filter((e) => (!a.channel || e.channel === a.channel) && e.seq > (a.since || 0));
      return { events: ev, dropped: C.dropped, total: C.events.length };
    }
    case 'ipcStop': {
      const C = stopIPC();
      if (!C) return { error: 'not_capturing' };
      if (!S.notif && !S.tray && S.timer) { clearInterval(S.timer); S.timer = null; S.owner = ''; S.leaseUntil = 0; }
      return { events: C.events, dropped: C.dropped };
    }
    case 'ipcStub': {
      const C = S.ipc;
      if (!C) return { error: 'not_capturing' };
      if (!C.channels.has(a.channel)) return { error: 'not_captured', channels: Array.from(C.channels) };
      const map = electron.ipcMain._invokeHandlers;
      if (a.remove) { const had = C.stubs.delete(a.channel); return { stubbed: false, removed: had }; }
      if (!map.has(a.channel)) return { error: 'no_handler', channels: Array.from(map.keys()).map(String).slice(0, 100) };
      C.stubs.set(a.channel, { value: a.value, error: a.error, delay: a.delayMs, times: a.times, used: 0 });
      return { stubbed: true };
    }

    case 'notifStart': {
      if (S.notif && S.notif.armed) return { error: 'already' };
      const adopted = !!S.notif;
      if (!adopted) {
        const l = lease();
        if (l) return { error: 'busy' };
        if (!installNotif(false)) return { error: 'unsupported' };
      } else if (a.owner) {
        lease();
      }
      S.notif.armed = true;
      S.notif.armSeq = S.seq;
      S.notif.filter = a.titleContains || '';
      return { capturing: true, from_launch: adopted && S.notif.launch };
    }
    case 'notifRead': {
      if (!S.notif || !S.notif.armed) return { error: 'not_capturing' };
      return { notifications: readNotif(), dropped: S.notif.dropped };
    }
    case 'notifStop': {
      if (!S.notif || !S.notif.armed) return { error: 'not_capturing' };
      const list = readNotif();
      const dropped = S.notif.dropped;
      stopNotif();
      return { notifications: list, dropped };
    }

    case 'trayPrepare': {
      // Record from now on what the app sets (a running app's trays).
      if (!S.tray) { const l = lease(); if (l) return { error: 'busy' }; }
      if (!installTray()) return { error: 'unsupported' };
      return { instrumented_from_launch: !!S.tray.launch };
    }
    case 'trays': {
      return { trays: liveTrays(a.list).map(trayOf), instrumented_from_launch: !!(S.tray && S.tray.launch) };
    }
    case 'trayInvoke': {
      const t = liveTrays(a.list).find((x) => S.trayIds.get(x) === a.id);
      if (!t) return { emitted: false, reason: 'not_found' };
      if (typeof t.listenerCount !== 'function' || t.listenerCount(a.event) === 0) return { emitted: false, reason: 'no_listener', tray: trayOf(t) };
      let bounds = { x: 0, y: 0, width: 0, height: 0 };
      try { if (typeof t.getBounds === 'function') bounds = t.getBounds(); } catch (e) { /* keep zeros */ }
      const kev = { altKey: false, shiftKey: false, ctrlKey: false, metaKey: false, triggeredByAccelerator: false };
      const pos = { x: bounds.x + Math.floor(bounds.width / 2), y: bounds.y + Math.floor(bounds.height / 2) };
      try {
        t.emit(a.event, kev, bounds, pos);
      } catch (e) {
        return { emitted: false, reason: 'handler_threw', error: String((e && e.message) || e) };
      }
      const alive = !(typeof t.isDestroyed === 'function' && t.isDestroyed());
      return { emitted: true, tray: alive ? trayOf(t) : null };
    }
  }
  return { error: 'unknown op ' + a.op };
}
