// Puppeteer (puppeteer-core, pinned in package.json) through the relay.
// Run by TestPuppeteer in internal/relay; see env.mjs for the environment.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import puppeteer from 'puppeteer-core';
import { relayHTTP, relayWS, topURL, fixture, waitFor, relayTargets } from './env.mjs';

const T = { timeout: 60000 };

async function connect(opts = { browserURL: relayHTTP() }) {
  return puppeteer.connect({ ...opts, defaultViewport: null, protocolTimeout: 30000 });
}

async function topPage(browser) {
  const pages = await browser.pages();
  const page = pages.find(p => p.url() === topURL());
  assert.ok(page, `the relay shows ${topURL()}; pages: ${pages.map(p => p.url())}`);
  return page;
}

function frameOf(page, url, ms) {
  return waitFor(() => page.frames().find(f => f.url() === url), `the frame ${url}`, ms);
}

// withFrames connects, finds the top page and its frames with these URLs
// (an out-of-process frame nested in another among them), and runs fn.
//
// Puppeteer itself can lose a nested out-of-process frame on connect: the
// parent's and the child's Page.getFrameTree replies come from two renderer
// processes, and when the parent's comes back last, FrameManager's
// #onFrameNavigated for the parent removes the child's frame, which nothing
// adds again on that connection. That was reproduced straight against
// Chromium, without the relay, by holding cross1.html's Page.getFrameTree
// reply 400 ms. The relay's part is the attach, checked on every
// connection: each frame's target reached it (browser.targets()). When
// only Puppeteer's frame is missing, a new connection looks again (at most
// three, each named in the log).
async function withFrames(urls, fn) {
  for (let attempt = 1; ; attempt++) {
    const browser = await connect();
    try {
      const page = await topPage(browser);
      const frames = [];
      for (const url of urls) {
        const target = await waitFor(() => browser.targets().find(t => t.url() === url), `the target ${url} on connection ${attempt}`);
        try {
          frames.push(await frameOf(page, url, 5000));
        } catch (e) {
          assert.ok(attempt < 3, `${e.message} on three connections, although its target (${target.type()}) was attached each time`);
          console.log(`connection ${attempt}: Puppeteer lost the frame ${url} (its target is attached); connecting again`);
          break;
        }
      }
      if (frames.length === urls.length) return await fn(page, ...frames);
    } finally {
      await browser.disconnect();
    }
  }
}

test('connects by browserURL and lists pages with their real URLs', T, async () => {
  const browser = await connect();
  try {
    const urls = (await browser.pages()).map(p => p.url());
    assert.ok(urls.includes(topURL()), `pages: ${urls}`);
    for (const u of urls) assert.ok(u, `a page without a URL: ${JSON.stringify(urls)}`);
    assert.match(await browser.version(), /Chrome|Electron/);
  } finally {
    await browser.disconnect();
  }
});

test('connects by browserWSEndpoint', T, async () => {
  const browser = await connect({ browserWSEndpoint: relayWS() });
  try {
    assert.equal(await (await topPage(browser)).evaluate(() => location.href), topURL());
  } finally {
    await browser.disconnect();
  }
});

test('evaluates in the page and in the cross-site frames', T, async () => {
  await withFrames([fixture('b.test', '/cross1.html'), fixture('c.example', '/cross2.html')], async (page, b, c) => {
    assert.equal(await page.evaluate(() => document.title), 'Top');
    assert.equal(await b.evaluate(() => location.origin), fixture('b.test', ''));
    assert.equal(await c.evaluate(() => location.origin), fixture('c.example', ''));
  });
});

test('clicks a button in the nested cross-site frame', T, async () => {
  await withFrames([fixture('c.example', '/cross2.html')], async (page, c) => {
    const clicks = () => c.evaluate(() => window.__events.filter(e => e.type === 'click' && e.target === 'btn').length);
    const before = await clicks();
    await c.click('#btn');
    await waitFor(async () => (await clicks()) === before + 1, 'the click in cross2');
  });
});

test('navigates to another origin and reloads', T, async () => {
  const browser = await connect();
  try {
    const page = await browser.newPage();
    await page.goto(fixture('a.test', '/second.html'));
    const resp = await page.goto(fixture('b.test', '/cross1.html'));
    assert.equal(resp.status(), 200);
    assert.equal(await page.evaluate(() => location.origin), fixture('b.test', ''));
    await page.evaluate(() => { window.__marker = 1; });
    await page.reload();
    assert.equal(await page.evaluate(() => window.__marker), undefined);
    await page.close();
  } finally {
    await browser.disconnect();
  }
});

test('newPage and a window.open popup', T, async () => {
  const browser = await connect();
  try {
    const page = await browser.newPage();
    await page.goto(fixture('a.test', '/actions.html'));
    const [popup] = await Promise.all([new Promise(r => page.once('popup', r)), page.click('#popup-link')]);
    await waitFor(() => popup.url() === fixture('a.test', '/second.html'), 'the popup URL');
    assert.equal(await popup.evaluate(() => document.title), 'Second');
    await popup.close();
    await page.close();
  } finally {
    await browser.disconnect();
  }
});

test('closing a page detaches it', T, async () => {
  const browser = await connect();
  try {
    const page = await browser.newPage();
    const url = fixture('a.test', '/second.html?pclosing=' + Date.now());
    await page.goto(url);
    const gone = new Promise(r => browser.once('targetdestroyed', r));
    await page.close();
    await gone;
    assert.ok(page.isClosed());
    await waitFor(async () => !(await relayTargets()).some(t => t.url === url), 'the target to go');
  } finally {
    await browser.disconnect();
  }
});

test('handles dialogs and console messages', T, async () => {
  const browser = await connect();
  try {
    const page = await browser.newPage();
    await page.goto(fixture('a.test', '/actions.html'));
    page.once('dialog', d => d.accept('pp name'));
    await page.click('#prompt');
    await waitFor(async () => (await page.$eval('#dialog-result', e => e.textContent)) === 'prompt: pp name', 'the prompt result');
    const msg = new Promise(r => page.once('console', r));
    await page.click('#log-btn');
    assert.equal((await msg).text(), 'clicked-log 1');
    await page.close();
  } finally {
    await browser.disconnect();
  }
});

test('request interception', T, async () => {
  const browser = await connect();
  try {
    const page = await browser.newPage();
    await page.goto(fixture('a.test', '/second.html'));
    await page.setRequestInterception(true);
    page.on('request', req => {
      if (req.url().includes('/echo?x=intercept')) req.respond({ contentType: 'application/json', body: '{"x":"intercepted"}' });
      else req.continue();
    });
    assert.deepEqual(await page.evaluate(() => fetch('/echo?x=intercept1').then(r => r.json())), { x: 'intercepted' });
    assert.equal((await page.evaluate(() => fetch('/echo?x=plain').then(r => r.json()))).x, 'plain');
    await page.close();
  } finally {
    await browser.disconnect();
  }
});

test('createCDPSession works', T, async () => {
  const browser = await connect();
  try {
    const page = await topPage(browser);
    const session = await page.createCDPSession();
    const { result } = await session.send('Runtime.evaluate', { expression: 'document.title' });
    assert.equal(result.value, 'Top');
    await session.detach();
  } finally {
    await browser.disconnect();
  }
});

test('browser.close() closes only this connection', T, async () => {
  const browser = await connect();
  const closed = new Promise(r => browser.once('disconnected', r));
  await browser.close();
  await closed;
  const again = await connect();
  try {
    assert.equal(await (await topPage(again)).evaluate(() => document.title), 'Top');
  } finally {
    await again.disconnect();
  }
});

test('five sequential connect and disconnect cycles each see the page', T, async () => {
  for (let i = 0; i < 5; i++) {
    const browser = await connect();
    try {
      assert.equal(await (await topPage(browser)).evaluate(() => location.href), topURL(), `cycle ${i}`);
    } finally {
      await browser.disconnect();
    }
  }
});
