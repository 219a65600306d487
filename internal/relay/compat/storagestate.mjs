// storagestate.mjs: Playwright's storageState through the relay, for
// internal/tool's TestStorageStatePlaywright. It loads the state the agent
// exported (STATE_IN) into a new context and reports what a page of TOP_URL
// sees there; then it seeds the app's own context (a cookie and a
// localStorage key in the page the agent drives) and saves that context
// with context.storageState() to STATE_OUT for the agent to import.
import { chromium } from 'playwright-core';

// idbRead reads agentdb.kv: record b's value and whether record a's
// "when" came back as a Date.
const idbRead = () => new Promise((res, rej) => {
  const r = indexedDB.open('agentdb');
  r.onerror = () => rej(r.error);
  r.onsuccess = () => {
    const s = r.result.transaction('kv').objectStore('kv');
    const a = s.get('a'); const b = s.get('b');
    b.onsuccess = () => { res({ b: b.result, aIsDate: a.result && a.result.when instanceof Date, aTime: a.result && a.result.when.getTime() }); r.result.close(); };
  };
});
// idbPut writes record c into the app's agentdb.kv.
const idbPut = () => new Promise((res, rej) => {
  const r = indexedDB.open('agentdb');
  r.onerror = () => rej(r.error);
  r.onsuccess = () => {
    const tx = r.result.transaction('kv', 'readwrite');
    tx.objectStore('kv').put({ by: 'playwright', bytes: new Uint8Array([1, 2, 3]) }, 'c');
    tx.oncomplete = () => { r.result.close(); res(true); };
  };
});
const env = (k) => { const v = process.env[k]; if (!v) throw new Error(`${k} is not set`); return v; };
const browser = await chromium.connectOverCDP(env('RELAY_WS'));
try {
  const ctx = await browser.newContext({ storageState: env('STATE_IN') });
  const page = await ctx.newPage();
  await page.goto(env('TOP_URL'));
  const seen = await page.evaluate(() => ({ cookie: document.cookie, flag: localStorage.getItem('flag') }));
  // With IDB set, the agent's file holds IndexedDB too (database agentdb,
  // store kv with out-of-line keys): report what the new context reads.
  if (process.env.IDB) seen.idb = await page.evaluate(idbRead);
  await ctx.close();

  const app = browser.contexts()[0];
  const top = app.pages().find(p => p.url() === env('TOP_URL'));
  if (!top) throw new Error(`no page of ${env('TOP_URL')} in ${app.pages().map(p => p.url())}`);
  await top.evaluate(() => localStorage.setItem('fromPlaywright', 'yes'));
  if (process.env.IDB) await top.evaluate(idbPut);
  // Playwright lists an origin in storageState only after it saw a document
  // of it commit; the page was open before it connected, so reload it.
  await top.reload();
  await app.addCookies([{ name: 'pw', value: 'cookie-from-playwright', url: env('TOP_URL') }]);
  await app.storageState({ path: env('STATE_OUT'), indexedDB: !!process.env.IDB });
  console.log(JSON.stringify(seen));
} finally {
  await browser.close();
}
