// refusals.mjs CLIENT: every command the relay refuses, sent the way a
// script sends it with CLIENT (playwright | puppeteer): through the
// client's ordinary API where it has one (page.close(), page.goto), and
// through its CDP session otherwise. Each must end in an error or a close
// within BOUND_MS: no refusal may leave a client waiting. Every case uses
// a connection of its own; the app's page (TOP_URL) must still be there
// after each. Run by TestRefusalsNeverHang; prints one line per case and
// DONE.
import assert from 'node:assert/strict';
import { chromium } from 'playwright-core';
import puppeteer from 'puppeteer-core';
import { relayHTTP, topURL, relayTargets } from './env.mjs';

const BOUND_MS = 15000;
const client = process.argv[2];

// bounded runs fn and says how it ended: 'ok', 'error: …' or 'TIMEOUT'.
async function bounded(fn) {
  let timer;
  const timeout = new Promise(r => { timer = setTimeout(() => r('TIMEOUT'), BOUND_MS); });
  const run = fn().then(() => 'ok', e => 'error: ' + String(e.message || e).split('\n')[0]);
  try {
    return await Promise.race([run, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

async function appAlive() {
  assert.ok((await relayTargets()).some(t => t.url === topURL()), 'the app page is gone');
}

const pw = {
  async connect() {
    const browser = await chromium.connectOverCDP(relayHTTP(), { timeout: 30000 });
    const page = browser.contexts()[0].pages().find(p => p.url() === topURL());
    assert.ok(page, 'Playwright does not see ' + topURL());
    return { browser, page, close: () => browser.close() };
  },
  cases: {
    // Target.closeTarget: Playwright ignores its error and waits for the
    // page to close; the relay closes this connection's view of it.
    'page.close() on the app window': async ({ page }) => {
      await page.close();
      assert.ok(page.isClosed(), 'page.close() returned but the page is not closed');
      return 'close';
    },
    'page.close({runBeforeUnload:true}) on the app window (Page.close)': async ({ page }) => {
      await page.close({ runBeforeUnload: true });
      return 'returned';
    },
    'page.goto(chrome://quit) (Page.navigate)': ({ page }) => page.goto('chrome://quit'),
    'newCDPSession(page) Page.close': async ({ page }) => (await page.context().newCDPSession(page)).send('Page.close'),
    'newCDPSession(page) Browser.crash': async ({ page }) => (await page.context().newCDPSession(page)).send('Browser.crash'),
    'newBrowserCDPSession Browser.crash': async ({ browser }) => (await browser.newBrowserCDPSession()).send('Browser.crash'),
    'newBrowserCDPSession Browser.crashGpuProcess': async ({ browser }) => (await browser.newBrowserCDPSession()).send('Browser.crashGpuProcess'),
    'newBrowserCDPSession Target.createTarget chrome://quit': async ({ browser }) =>
      (await browser.newBrowserCDPSession()).send('Target.createTarget', { url: 'chrome://quit/' }),
    'newBrowserCDPSession Target.closeTarget of the app window': async ({ browser, page }) => {
      const s = await browser.newBrowserCDPSession();
      const { targetInfos } = await s.send('Target.getTargets');
      const t = targetInfos.find(x => x.type === 'page' && x.url === topURL());
      return s.send('Target.closeTarget', { targetId: t.targetId });
    },
    'newBrowserCDPSession Target.sendMessageToTarget': async ({ browser }) =>
      (await browser.newBrowserCDPSession()).send('Target.sendMessageToTarget', { message: '{}', sessionId: 'X' }),
    'newBrowserCDPSession Target.attachToTarget flatten:false': async ({ browser }) => {
      const s = await browser.newBrowserCDPSession();
      const { targetInfos } = await s.send('Target.getTargets');
      return s.send('Target.attachToTarget', { targetId: targetInfos.find(x => x.type === 'page').targetId, flatten: false });
    },
    // Default deny and its parameter rules (issue 27).
    'page.goto(file:///etc/passwd) (file: outside the roots)': ({ page }) => page.goto('file:///etc/passwd'),
    'page.goto(blob:chrome://settings/x)': ({ page }) => page.goto('blob:chrome://settings/x'),
    'newCDPSession(page) Page.crash of the app window': async ({ page }) => (await page.context().newCDPSession(page)).send('Page.crash'),
    'newCDPSession(page) Tethering.bind (off the allowlist)': async ({ page }) =>
      (await page.context().newCDPSession(page)).send('Tethering.bind', { port: 9 }),
    'newCDPSession(page) Page.setDownloadBehavior allow': async ({ page }) =>
      (await page.context().newCDPSession(page)).send('Page.setDownloadBehavior', { behavior: 'allow', downloadPath: '/tmp' }),
    'newBrowserCDPSession Target.exposeDevToolsProtocol': async ({ browser }) => {
      const s = await browser.newBrowserCDPSession();
      const { targetInfos } = await s.send('Target.getTargets');
      return s.send('Target.exposeDevToolsProtocol', { targetId: targetInfos.find(x => x.url === topURL()).targetId, bindingName: 'cdp' });
    },
    'newBrowserCDPSession SystemInfo.getProcessInfo (off the allowlist)': async ({ browser }) =>
      (await browser.newBrowserCDPSession()).send('SystemInfo.getProcessInfo'),
    'newBrowserCDPSession Target.disposeBrowserContext of a context it did not create': async ({ browser }) =>
      (await browser.newBrowserCDPSession()).send('Target.disposeBrowserContext', { browserContextId: '0123456789ABCDEF0123456789ABCDEF' }),
    'browser.close() (Browser.close closes this connection only)': async ({ browser }) => {
      await browser.close();
      return 'close';
    },
  },
};

const pp = {
  async connect() {
    const browser = await puppeteer.connect({ browserURL: relayHTTP(), defaultViewport: null, protocolTimeout: 30000 });
    const page = (await browser.pages()).find(p => p.url() === topURL());
    assert.ok(page, 'Puppeteer does not see ' + topURL());
    return { browser, page, close: () => browser.disconnect() };
  },
  cases: {
    'page.close() on the app window (Target.closeTarget)': ({ page }) => page.close(),
    'page.close({runBeforeUnload:true}) on the app window (Page.close)': ({ page }) => page.close({ runBeforeUnload: true }),
    'page.goto(chrome://quit) (Page.navigate)': ({ page }) => page.goto('chrome://quit'),
    'page.createCDPSession() Browser.crash': async ({ page }) => (await page.createCDPSession()).send('Browser.crash'),
    'page.createCDPSession() Browser.crashGpuProcess': async ({ page }) => (await page.createCDPSession()).send('Browser.crashGpuProcess'),
    'page.createCDPSession() Target.sendMessageToTarget': async ({ page }) =>
      (await page.createCDPSession()).send('Target.sendMessageToTarget', { message: '{}', sessionId: 'X' }),
    // The browser session: the Connection under a CDPSession.
    'connection() Target.createTarget chrome://quit': async ({ page }) =>
      (await page.createCDPSession()).connection().send('Target.createTarget', { url: 'chrome://quit/' }),
    'connection() Target.closeTarget of the app window': async ({ page }) =>
      (await page.createCDPSession()).connection().send('Target.closeTarget', { targetId: page.target()._targetId }),
    'connection() Target.attachToTarget flatten:false': async ({ page }) =>
      (await page.createCDPSession()).connection().send('Target.attachToTarget', { targetId: page.target()._targetId, flatten: false }),
    // Default deny and its parameter rules (issue 27).
    'page.goto(file:///etc/passwd) (file: outside the roots)': ({ page }) => page.goto('file:///etc/passwd'),
    'page.goto(filesystem:chrome://settings/temporary/x)': ({ page }) => page.goto('filesystem:chrome://settings/temporary/x'),
    'page.createCDPSession() Page.crash of the app window': async ({ page }) => (await page.createCDPSession()).send('Page.crash'),
    'browser.installExtension() (Extensions.loadUnpacked, off the allowlist)': ({ browser }) => browser.installExtension('/tmp'),
    'connection() Target.exposeDevToolsProtocol': async ({ page }) =>
      (await page.createCDPSession()).connection().send('Target.exposeDevToolsProtocol', { targetId: page.target()._targetId, bindingName: 'cdp' }),
    'connection() Target.disposeBrowserContext of a context it did not create': async ({ page }) =>
      (await page.createCDPSession()).connection().send('Target.disposeBrowserContext', { browserContextId: '0123456789ABCDEF0123456789ABCDEF' }),
    'browser.close() (Browser.close closes this connection only)': async ({ browser }) => {
      await browser.close();
      return 'close';
    },
  },
};

const c = { playwright: pw, puppeteer: pp }[client];
assert.ok(c, 'client: playwright | puppeteer');
let failed = 0;
for (const [name, fn] of Object.entries(c.cases)) {
  const conn = await c.connect();
  let outcome;
  const how = await bounded(async () => { outcome = await fn(conn); });
  const verdict = how === 'ok' ? (outcome === 'close' || outcome === 'returned' ? outcome : 'ok (NOT REFUSED)') : how;
  const good = how.startsWith('error: ') ? /relay:|closed|Target closed|Session closed/i.test(how) : (outcome === 'close' || outcome === 'returned');
  if (!good) failed++;
  console.log(`${good ? 'ok  ' : 'FAIL'} ${client}: ${name}: ${verdict}`);
  await bounded(async () => conn.close()).catch(() => {});
  await appAlive();
}
assert.equal(failed, 0, `${failed} case(s) hung or were not refused`);
console.log('DONE');
