// IndexedDB writes and Playwright's storageState IndexedDB shape, run in a
// document of the origin by internal/storage. Its argument is data (op and
// q), never code. Values outside JSON use Playwright's serialized form
// (valueEncoded/keyEncoded: {d}, {ta}, {ab}, {o, id}, {a, id}, {ref}, ...)
// so that a file written here loads with browser.newContext({storageState})
// and a file Playwright wrote loads here.
(function (op, q) {
  const req = (r) => new Promise((res, rej) => { r.onsuccess = () => res(r.result); r.onerror = () => rej(r.error); });
  const done = (tx) => new Promise((res, rej) => { tx.oncomplete = () => res(); tx.onabort = () => rej(tx.error || new Error('transaction aborted')); tx.onerror = () => {}; });
  const fail = (field, msg) => { const e = new Error(field + ': ' + msg); e.field = field; throw e; };
  const tag = (o) => Object.prototype.toString.call(o);
  const typed = { i8: Int8Array, ui8: Uint8Array, ui8c: Uint8ClampedArray, i16: Int16Array, ui16: Uint16Array, i32: Int32Array, ui32: Uint32Array, f32: Float32Array, f64: Float64Array, bi64: BigInt64Array, bui64: BigUint64Array };
  const b64 = (a) => { const u = new Uint8Array(a.buffer, a.byteOffset, a.byteLength); let s = ''; for (let i = 0; i < u.length; i += 0x8000) s += String.fromCharCode.apply(null, u.subarray(i, i + 0x8000)); return btoa(s); };
  const unb64 = (s, C) => { const bin = atob(s); const u = new Uint8Array(bin.length); for (let i = 0; i < bin.length; i++) u[i] = bin.charCodeAt(i); return new C(u.buffer); };
  const plain = (v) => v !== null && typeof v === 'object' && v.constructor === Object;
  // encode is Playwright's serializeAsCallArgument with extended
  // serialization; trivial values (plain JSON) stay as they are.
  const encode = (value) => {
    let trivial = true;
    const seen = new Map(); let last = 0;
    const ser = (v) => {
      if (!(plain(v) || Array.isArray(v) || typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v)) || typeof v === 'boolean' || v === null)) trivial = false;
      if (typeof v === 'symbol' || v === undefined) return { v: 'undefined' };
      if (v === null) return { v: 'null' };
      if (Number.isNaN(v)) return { v: 'NaN' };
      if (v === Infinity) return { v: 'Infinity' };
      if (v === -Infinity) return { v: '-Infinity' };
      if (Object.is(v, -0)) return { v: '-0' };
      if (typeof v === 'boolean' || typeof v === 'number' || typeof v === 'string') return v;
      if (typeof v === 'bigint') return { bi: v.toString() };
      if (typeof v !== 'object') return { v: 'undefined' };
      if (tag(v) === '[object Error]' || v instanceof Error) return { e: { n: v.name, m: v.message, s: String(v.stack) } };
      if (tag(v) === '[object Date]') return { d: v.toJSON() };
      if (typeof URL === 'function' && v instanceof URL) return { u: v.toJSON() };
      if (tag(v) === '[object RegExp]') return { r: { p: v.source, f: v.flags } };
      for (const [k, C] of Object.entries(typed)) if (v instanceof C) return { ta: { b: b64(v), k } };
      if (tag(v) === '[object ArrayBuffer]') return { ab: { b: b64(new Uint8Array(v)) } };
      const known = seen.get(v);
      if (known) return { ref: known };
      const id = ++last; seen.set(v, id);
      if (tag(v) === '[object Map]') return { m: [...v.entries()].map(([k, x]) => ({ k: ser(k), v: ser(x) })), id };
      if (tag(v) === '[object Set]') return { s: [...v.values()].map(ser), id };
      if (Array.isArray(v)) return { a: v.map(ser), id };
      const o = [];
      for (const k of Object.keys(v)) { let x; try { x = v[k]; } catch (e) { continue; } o.push({ k, v: ser(x) }); }
      return { o, id };
    };
    const enc = ser(value);
    return trivial ? { value } : { encoded: enc };
  };
  // decode is Playwright's parseEvaluationResultValue.
  const decode = (value, refs = new Map()) => {
    if (value === undefined) return undefined;
    if (typeof value !== 'object' || value === null) return value;
    if ('ref' in value) return refs.get(value.ref);
    if ('v' in value) return { undefined: undefined, null: null, NaN: NaN, Infinity: Infinity, '-Infinity': -Infinity, '-0': -0 }[value.v];
    if ('d' in value) return new Date(value.d);
    if ('u' in value) return new URL(value.u);
    if ('bi' in value) return BigInt(value.bi);
    if ('e' in value) { const e = new Error(value.e.m); e.name = value.e.n; e.stack = value.e.s; return e; }
    if ('r' in value) return new RegExp(value.r.p, value.r.f);
    if ('a' in value) { const out = []; refs.set(value.id, out); for (const x of value.a) out.push(decode(x, refs)); return out; }
    if ('o' in value) { const out = {}; refs.set(value.id, out); for (const { k, v } of value.o) if (k !== '__proto__') out[k] = decode(v, refs); return out; }
    if ('m' in value) { const out = new Map(); refs.set(value.id, out); for (const { k, v } of value.m) out.set(decode(k, refs), decode(v, refs)); return out; }
    if ('s' in value) { const out = new Set(); refs.set(value.id, out); for (const x of value.s) out.add(decode(x, refs)); return out; }
    if ('ta' in value) { const C = typed[value.ta.k]; if (!C) throw new Error('unknown typed array ' + value.ta.k); return unb64(value.ta.b, C); }
    if ('ab' in value) return unb64(value.ab.b, Uint8Array).buffer;
    return value;
  };
  const names = async () => new Map((await indexedDB.databases()).map((d) => [d.name, d.version]));
  // open opens an existing database without a version: nothing is created
  // or upgraded.
  const open = async (name, field) => {
    const r = indexedDB.open(name);
    r.onupgradeneeded = () => r.transaction.abort();
    try { return await req(r); } catch (e) { fail(field, 'no database ' + JSON.stringify(name)); }
  };
  const keyPathOf = (s) => s.keyPathArray !== undefined ? s.keyPathArray : (s.keyPath !== undefined ? s.keyPath : null);

  // collect: every database of the origin in Playwright's shape.
  const collect = async () => {
    const out = [];
    for (const info of await indexedDB.databases()) {
      if (!info.name) continue;
      const db = await open(info.name, 'database');
      try {
        const stores = [];
        const storeNames = [...db.objectStoreNames];
        const tx = storeNames.length ? db.transaction(storeNames, 'readonly') : null;
        for (const name of storeNames) {
          const s = tx.objectStore(name);
          const records = [];
          await new Promise((res, rej) => {
            const c = s.openCursor();
            c.onerror = () => rej(c.error);
            c.onsuccess = () => {
              const cur = c.result;
              if (!cur) { res(); return; }
              const r = {};
              if (s.keyPath === null) { const k = encode(cur.primaryKey); if ('value' in k) r.key = k.value; else r.keyEncoded = k.encoded; }
              const v = encode(cur.value); if ('value' in v) r.value = v.value; else r.valueEncoded = v.encoded;
              records.push(r);
              cur.continue();
            };
          });
          const kp = (p) => typeof p === 'string' ? { keyPath: p } : (Array.isArray(p) ? { keyPathArray: p } : {});
          const indexes = [...s.indexNames].map((n) => { const ix = s.index(n); return { name: ix.name, ...kp(ix.keyPath), multiEntry: ix.multiEntry, unique: ix.unique }; });
          stores.push({ name, autoIncrement: s.autoIncrement, ...kp(s.keyPath), records, indexes });
        }
        out.push({ name: info.name, version: db.version, stores });
      } finally { db.close(); }
    }
    return out;
  };

  // decoded turns a file's records into values and keys, failing with the
  // record's path (relative to the origin's indexedDB) before any write.
  const decoded = (dbs) => dbs.map((d, i) => ({ ...d, stores: d.stores.map((s, j) => ({ ...s, records: s.records.map((r, k) => {
    const path = `[${i}].stores[${j}].records[${k}]`;
    try {
      return { value: 'value' in r ? r.value : decode(r.valueEncoded), key: 'key' in r ? r.key : ('keyEncoded' in r ? decode(r.keyEncoded) : undefined) };
    } catch (e) { const err = new Error(path + ': ' + e.message); err.path = path; throw err; }
  }) })) }));

  // check: what restore would refuse, before anything is written. A
  // database that exists must have the file's stores.
  const check = async (dbs) => {
    try { decoded(dbs); } catch (e) { return { path: e.path, message: e.message }; }
    const have = await names();
    for (let i = 0; i < dbs.length; i++) {
      if (!have.has(dbs[i].name)) continue;
      const db = await open(dbs[i].name, 'database');
      try {
        for (let j = 0; j < dbs[i].stores.length; j++) {
          if (!db.objectStoreNames.contains(dbs[i].stores[j].name)) {
            return { path: `[${i}].stores[${j}].name`, message: `database ${JSON.stringify(dbs[i].name)} (version ${db.version}) of this origin has no object store ${JSON.stringify(dbs[i].stores[j].name)}; stores: ${[...db.objectStoreNames].join(', ')}` };
          }
        }
      } finally { db.close(); }
    }
    return { ok: true };
  };

  // restore: a database that does not exist is created with the file's
  // version, stores and indexes (as Playwright does); in one that exists,
  // each store of the file is cleared and filled in one transaction per
  // database. Other databases and stores are left alone.
  const restore = async (dbs) => {
    const list = decoded(dbs);
    const have = await names();
    let records = 0;
    for (const d of list) {
      let db;
      if (have.has(d.name)) db = await open(d.name, 'database');
      else {
        const r = indexedDB.open(d.name, d.version);
        r.onupgradeneeded = () => {
          for (const s of d.stores) {
            const os = r.result.createObjectStore(s.name, { autoIncrement: s.autoIncrement, keyPath: keyPathOf(s) });
            for (const ix of s.indexes) os.createIndex(ix.name, keyPathOf(ix), { unique: ix.unique, multiEntry: ix.multiEntry });
          }
        };
        db = await req(r);
      }
      try {
        if (!d.stores.length) continue;
        const tx = db.transaction(d.stores.map((s) => s.name), 'readwrite');
        const end = done(tx);
        for (const s of d.stores) {
          const os = tx.objectStore(s.name);
          os.clear();
          for (const r of s.records) { if (r.key === undefined) os.put(r.value); else os.put(r.value, r.key); records++; }
        }
        await end;
      } finally { db.close(); }
    }
    return { records };
  };

  // set: one record into an existing store, read back after the commit.
  const set = async (q) => {
    if (!(await names()).has(q.db)) fail('database', 'no database ' + JSON.stringify(q.db) + ' in this origin');
    const db = await open(q.db, 'database');
    try {
      let tx;
      try { tx = db.transaction(q.store, 'readwrite'); } catch (e) { fail('store', 'database ' + JSON.stringify(q.db) + ' has no object store ' + JSON.stringify(q.store) + '; stores: ' + [...db.objectStoreNames].join(', ')); }
      const os = tx.objectStore(q.store);
      const inline = os.keyPath !== null;
      if (inline && 'key' in q) fail('key', 'the store has in-line keys (keyPath ' + JSON.stringify(os.keyPath) + '): the key comes from the value; omit key');
      if (!inline && !os.autoIncrement && !('key' in q)) fail('key', 'the store has out-of-line keys and no key generator: pass key');
      let p;
      try { p = req('key' in q ? os.put(q.value, q.key) : os.put(q.value)); } catch (e) { fail(inline ? 'value' : 'key', e.message); }
      const end = done(tx);
      const key = await p;
      await end;
      const got = await req(db.transaction(q.store, 'readonly').objectStore(q.store).get(key));
      const want = JSON.parse(JSON.stringify(q.value));
      if (inline && os.autoIncrement && typeof os.keyPath === 'string' && plain(want)) {
        const parts = os.keyPath.split('.'); let o = want;
        for (const k of parts.slice(0, -1)) o = (o[k] = plain(o[k]) ? o[k] : {});
        o[parts[parts.length - 1]] = key;
      }
      const { value: trivialKey, encoded } = encode(key);
      return { key: encoded ? String(key) : trivialKey, stored: JSON.stringify(got) === JSON.stringify(want) };
    } finally { db.close(); }
  };

  const run = { collect, check, restore, set }[op];
  return run(q).catch((e) => { throw new Error(e.field ? e.message : (e.path ? e.message : (e && e.message) || String(e))); });
})
