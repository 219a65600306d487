// Playwright (playwright-core, pinned in package.json) through the relay.
// Run by TestPlaywright in internal/relay; see env.mjs for the environment.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { chromium } from 'playwright-core';
import { relayHTTP, relayWS, topURL, fixture, waitFor, relayTargets } from './env.mjs';

const T = { timeout: 60000 };

async function connect(endpoint = relayHTTP()) {
  return chromium.connectOverCDP(endpoint, { timeout: 30000 });
}

// frameOf waits for the page's frame at url (out-of-process frames attach
// after connectOverCDP returns, on the page's own session).
function frameOf(page, url) {
  return waitFor(() => page.frames().find(f => f.url() === url), `the frame ${url}`);
}

function topPage(browser) {
  const page = browser.contexts()[0].pages().find(p => p.url() === topURL());
  assert.ok(page, `the relay shows ${topURL()}; pages: ${browser.contexts()[0].pages().map(p => p.url())}`);
  return page;
}

// contentOrigin is the viewport point of the content box of an <iframe>,
// in the coordinates of the frame that holds it.
function contentOrigin(frame, selector) {
  return frame.locator(selector).evaluate(e => {
    const r = e.getBoundingClientRect();
    const s = getComputedStyle(e);
    return {
      x: r.left + parseFloat(s.borderLeftWidth) + parseFloat(s.paddingLeft),
      y: r.top + parseFloat(s.borderTopWidth) + parseFloat(s.paddingTop),
    };
  });
}

test('connects by HTTP URL and lists pages with their real URLs', T, async () => {
  const browser = await connect();
  try {
    const urls = browser.contexts()[0].pages().map(p => p.url());
    assert.ok(urls.includes(topURL()), `pages: ${urls}`);
    for (const u of urls) assert.ok(u && u !== ':', `a page without a URL: ${JSON.stringify(urls)}`);
  } finally {
    await browser.close();
  }
});

test('connects by WebSocket URL', T, async () => {
  const version = await (await fetch(relayHTTP() + '/json/version')).json();
  assert.equal(version.webSocketDebuggerUrl, relayWS());
  const browser = await connect(relayWS());
  try {
    assert.equal(await topPage(browser).evaluate(() => location.href), topURL());
  } finally {
    await browser.close();
  }
});

test('evaluates in the page and in the cross-site frames', T, async () => {
  const browser = await connect();
  try {
    const page = topPage(browser);
    assert.equal(await page.evaluate(() => document.title), 'Top');
    const b = await frameOf(page, fixture('b.test', '/cross1.html'));
    const c = await frameOf(page, fixture('c.example', '/cross2.html'));
    assert.equal(await b.evaluate(() => location.origin), fixture('b.test', ''));
    assert.equal(await c.evaluate(() => location.origin), fixture('c.example', ''));
    assert.equal(await c.evaluate(() => document.querySelector('#btn').textContent), 'Click cross2');
  } finally {
    await browser.close();
  }
});

test('clicks a button in the nested cross-site frame with real mouse input', T, async () => {
  // Playwright's locator.click() mis-aims in nested OOPIFs with bordered,
  // padded iframes, connected directly or not (see reference/cdp-facts.md),
  // so the point is computed from the iframes' content boxes and clicked
  // with the mouse of the top page, where hit-testing happens.
  const browser = await connect();
  try {
    const page = topPage(browser);
    const b = await frameOf(page, fixture('b.test', '/cross1.html'));
    const c = await frameOf(page, fixture('c.example', '/cross2.html'));
    const o1 = await contentOrigin(page.mainFrame(), '#cross1');
    const o2 = await contentOrigin(b, '#cross2');
    const btn = await c.locator('#btn').evaluate(e => {
      const r = e.getBoundingClientRect();
      return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
    });
    const clicks = () => c.evaluate(() => window.__events.filter(e => e.type === 'click' && e.target === 'btn').length);
    const before = await clicks();
    await page.mouse.click(o1.x + o2.x + btn.x, o1.y + o2.y + btn.y);
    await waitFor(async () => (await clicks()) === before + 1, 'the click in cross2');
    const topClicks = await page.evaluate(() => window.__events.filter(e => e.type === 'click').length);
    assert.equal(topClicks, 0, 'the top page must not have received the click');
  } finally {
    await browser.close();
  }
});

test('navigates to another origin and reloads', T, async () => {
  const browser = await connect();
  try {
    const page = await browser.contexts()[0].newPage();
    await page.goto(fixture('a.test', '/second.html'));
    assert.equal(await page.evaluate(() => document.title), 'Second');
    const resp = await page.goto(fixture('b.test', '/cross1.html'));
    assert.equal(resp.status(), 200);
    assert.equal(await page.evaluate(() => location.origin), fixture('b.test', ''));
    await page.evaluate(() => { window.__marker = 1; });
    await page.reload();
    assert.equal(await page.evaluate(() => window.__marker), undefined);
    assert.equal(page.url(), fixture('b.test', '/cross1.html'));
    await page.close();
  } finally {
    await browser.close();
  }
});

test('newPage and a window.open popup appear with real URLs', T, async () => {
  const browser = await connect();
  try {
    const context = browser.contexts()[0];
    const [page] = await Promise.all([context.waitForEvent('page'), context.newPage()]);
    await page.goto(fixture('a.test', '/actions.html'));
    const [popup] = await Promise.all([page.waitForEvent('popup'), page.click('#popup-link')]);
    assert.equal(popup.url(), fixture('a.test', '/second.html'), 'the popup event carries the real URL');
    await popup.waitForLoadState();
    assert.equal(await popup.evaluate(() => document.title), 'Second');
    assert.ok(context.pages().includes(popup));
    await popup.close();
    await page.close();
  } finally {
    await browser.close();
  }
});

test('closing a page detaches it', T, async () => {
  const browser = await connect();
  try {
    const page = await browser.contexts()[0].newPage();
    const url = fixture('a.test', '/second.html?closing=' + Date.now());
    await page.goto(url);
    assert.ok((await relayTargets()).some(t => t.url === url));
    const closed = new Promise(r => page.once('close', r));
    await page.close();
    await closed;
    assert.ok(page.isClosed());
    assert.ok(!browser.contexts()[0].pages().includes(page));
    await waitFor(async () => !(await relayTargets()).some(t => t.url === url), 'the target to go');
  } finally {
    await browser.close();
  }
});

test('handles dialogs', T, async () => {
  const browser = await connect();
  try {
    const page = await browser.contexts()[0].newPage();
    await page.goto(fixture('a.test', '/actions.html'));
    page.once('dialog', d => d.accept('pw name'));
    await page.click('#prompt');
    await waitFor(async () => (await page.textContent('#dialog-result')) === 'prompt: pw name', 'the prompt result');
    page.once('dialog', d => d.dismiss());
    await page.click('#confirm');
    await waitFor(async () => (await page.textContent('#dialog-result')) === 'confirm: false', 'the confirm result');
    await page.close();
  } finally {
    await browser.close();
  }
});

test('receives console messages', T, async () => {
  const browser = await connect();
  try {
    const page = await browser.contexts()[0].newPage();
    await page.goto(fixture('a.test', '/actions.html'));
    const [msg] = await Promise.all([page.waitForEvent('console'), page.click('#log-btn')]);
    assert.equal(msg.text(), 'clicked-log 1');
    await page.close();
  } finally {
    await browser.close();
  }
});

test('completes a download', T, async () => {
  const browser = await connect();
  try {
    const page = await browser.contexts()[0].newPage();
    await page.goto(fixture('a.test', '/actions.html'));
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#download')]);
    assert.equal(download.suggestedFilename(), 'fixture-report.txt');
    const path = await download.path();
    assert.equal(fs.readFileSync(path, 'utf8'), 'understudy fixture download\n');
    await page.close();
  } finally {
    await browser.close();
  }
});

test('page.route fulfils and route.fetch passes through', T, async () => {
  const browser = await connect();
  try {
    const page = await browser.contexts()[0].newPage();
    await page.goto(fixture('a.test', '/second.html'));
    await page.route('**/echo?x=fulfil*', route => route.fulfill({ json: { x: 'fulfilled' } }));
    await page.route('**/echo?x=fetch*', async route => {
      // route.fetch runs in Node, which cannot resolve the fixture's names;
      // the fixture serves 127.0.0.1 as a.test.
      const response = await route.fetch({ url: route.request().url().replace('//a.test:', '//127.0.0.1:') });
      const json = await response.json();
      await route.fulfill({ response, json: { ...json, via: 'route.fetch' } });
    });
    const get = x => page.evaluate(x => fetch('/echo?x=' + x).then(r => r.json()), x);
    assert.deepEqual(await get('fulfil1'), { x: 'fulfilled' });
    const fetched = await get('fetch1');
    assert.equal(fetched.x, 'fetch1');
    assert.equal(fetched.via, 'route.fetch');
    await page.unrouteAll();
    assert.equal((await get('plain1')).x, 'plain1');
    await page.close();
  } finally {
    await browser.close();
  }
});

test('newCDPSession works', T, async () => {
  const browser = await connect();
  try {
    const page = topPage(browser);
    const session = await page.context().newCDPSession(page);
    const { result } = await session.send('Runtime.evaluate', { expression: 'document.title' });
    assert.equal(result.value, 'Top');
    const { targetInfo } = await session.send('Target.getTargetInfo');
    assert.equal(targetInfo.url, topURL());
    assert.equal(targetInfo.type, 'page');
    await session.detach();
    assert.equal(await page.evaluate(() => 6 * 7), 42);
  } finally {
    await browser.close();
  }
});

test('five sequential connect and close cycles each see the page', T, async () => {
  for (let i = 0; i < 5; i++) {
    const browser = await connect();
    try {
      assert.equal(await topPage(browser).evaluate(() => location.href), topURL(), `cycle ${i}`);
    } finally {
      await browser.close();
    }
  }
});

test('two clients: one paused in the debugger, the other keeps evaluating', T, async () => {
  const a = await connect();
  const b = await connect();
  try {
    const pa = topPage(a);
    const pb = topPage(b);
    const sa = await pa.context().newCDPSession(pa);
    const sb = await pb.context().newCDPSession(pb);
    let bPaused = 0;
    sb.on('Debugger.paused', () => bPaused++);
    await sa.send('Debugger.enable');
    const paused = new Promise(r => sa.once('Debugger.paused', r));
    sa.send('Runtime.evaluate', { expression: 'debugger; 1' }).catch(() => {});
    await paused;
    // The renderer is paused for everyone (Playwright's own evaluate waits
    // for the event loop, directly connected or not), but B's protocol view
    // is its own: no Debugger events, and its commands are answered.
    const { result } = await sb.send('Runtime.evaluate', { expression: 'document.title' });
    assert.equal(result.value, 'Top');
    const { root } = await sb.send('DOM.getDocument', { depth: 0 });
    assert.equal(root.nodeName, '#document');
    assert.equal(bPaused, 0, 'B must not see A\'s Debugger.paused');
    // A goes away while paused: its socket closes, the browser resumes the
    // page, and B's Playwright evaluates again.
    await a.close();
    assert.equal(await pb.evaluate(() => new Promise(r => setTimeout(() => r('ticked'), 10))), 'ticked');
    assert.equal(bPaused, 0);
  } finally {
    if (a.isConnected()) await a.close();
    await b.close();
  }
});

test('two clients: one intercepts requests, the other keeps evaluating', T, async () => {
  const a = await connect();
  const b = await connect();
  try {
    const pa = topPage(a);
    const pb = topPage(b);
    let held = 0;
    await pa.route('**/echo?x=held*', () => { held++; }); // never answered
    await pb.evaluate(() => { window.__held = fetch('/echo?x=held1').then(r => r.json()).then(j => j.x); });
    await waitFor(() => held === 1, 'A to hold the request');
    assert.equal(await pb.evaluate(() => 2 + 3), 5);
    // A disconnects without answering: its interception ends and the
    // request goes on.
    await a.close();
    assert.equal(await pb.evaluate(() => window.__held), 'held1');
  } finally {
    if (a.isConnected()) await a.close();
    await b.close();
  }
});

// A popup the app opened (window.open in the app's own page) while this
// client was connected may be closed by the client; one that was there
// before the client connected is the app's and stays open: page.close()
// still returns (the relay ends this connection's view of it).
test('page.close() on popups the app opened: closes those opened while connected, returns on older ones', T, async () => {
  const a = await connect();
  let b;
  try {
    const page = topPage(a);
    const url = fixture('a.test', '/second.html?apppopup=' + Date.now());
    const [popup] = await Promise.all([page.waitForEvent('popup'), page.evaluate(u => { window.open(u); }, url)]);
    await popup.waitForLoadState();
    // B connects after the popup opened: for B it is one of the app's windows.
    b = await connect();
    const older = await waitFor(() => b.contexts()[0].pages().find(p => p.url() === url), 'the popup in the second connection');
    await older.close();
    assert.ok(older.isClosed(), 'page.close() returned on a window B may not close, and B sees it closed');
    assert.ok((await relayTargets()).some(t => t.url === url), "the app's popup stays open when a later client closes it");
    assert.ok(!popup.isClosed(), 'A still sees the popup');
    // A was connected when the app opened it: A may close it.
    await popup.close();
    assert.ok(popup.isClosed());
    await waitFor(async () => !(await relayTargets()).some(t => t.url === url), 'the popup A closed to go');
    assert.equal(await page.evaluate(() => location.href), topURL(), "the app's own window stays");
  } finally {
    if (b) await b.close();
    await a.close();
  }
});

test("page.close() on the app's own window returns, and the window stays open", T, async () => {
  const a = await connect();
  try {
    const page = topPage(a);
    await page.close();
    assert.ok(page.isClosed(), 'this connection sees the window closed');
    assert.ok((await relayTargets()).some(t => t.url === topURL()), "the app's window is still open");
  } finally {
    await a.close();
  }
  const b = await connect();
  try {
    assert.equal(await topPage(b).evaluate(() => location.href), topURL(), 'a new connection sees the window');
  } finally {
    await b.close();
  }
});
