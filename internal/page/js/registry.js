// registry.js: refs. One namespace per (store, surface): a WeakMap element →
// ref and a Map ref → WeakRef(element). Nothing is written into the DOM, so
// a node keeps its ref while it lives, wherever it moves.

// Registry is the state of one document. A new document (or a window reused
// for a new document) gets a new registry and a new token.
function Registry() {
  this.doc = document;
  this.timeOrigin = performance.timeOrigin;
  this.token = Math.random().toString(36).slice(2, 10) + '-' + Math.round(performance.timeOrigin).toString(36);
  this.spaces = new _Map();
}

// space returns the namespace of key; refs continue from minNext at least,
// so a fresh document goes on with the Go side's counter.
Registry.prototype.space = function (key, minNext) {
  var s = this.spaces.get(key);
  if (!s) {
    s = { refOf: new _WeakMap(), byRef: new _Map(), next: 1, base: null, reported: new _Map(), memo: [], walks: 0 };
    this.spaces.set(key, s);
  }
  if (minNext > s.next) s.next = minNext;
  return s;
};

// refFor returns el's ref in s, issuing the next number when it has none.
function refFor(s, el) {
  var r = s.refOf.get(el);
  if (r === undefined) {
    r = s.next++;
    s.refOf.set(el, r);
    s.byRef.set(r, new _WeakRef(el));
  }
  return r;
}

// lookup returns the live element of ref in s, or null when it was never
// issued here, has been collected, or is no longer in this document.
function lookup(s, ref) {
  var w = s.byRef.get(ref);
  var el = w && w.deref();
  if (!el || !el.isConnected || el.ownerDocument !== document) return null;
  return el;
}

// remember queues (ref, role, name) for the Go side when it differs from
// what was last reported, so the store knows what every ref was.
function remember(s, ref, role, name) {
  var key = role + '\u001f' + name;
  if (s.reported.get(ref) === key) return;
  s.reported.set(ref, key);
  s.memo.push(ref + '\u001f' + role + '\u001f' + clip(name, 120));
}

// prune forgets refs whose elements have been collected.
function prune(s) {
  s.byRef.forEach(function (w, ref) {
    if (!w.deref()) { s.byRef.delete(ref); s.reported.delete(ref); }
  });
}
