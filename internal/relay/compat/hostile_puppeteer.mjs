// hostile_puppeteer.mjs KIND: Puppeteer (puppeteer-core) through the relay
// sends what would end the app, on one kind of socket:
//   browser  Puppeteer's own Connection on the relay's browser socket
//   session  page.createCDPSession(): a flat page session on the browser socket
//   tunnel   a Connection on the page's tunnel (/devtools/page/ID from /json/list)
// Each destructive command must be refused by the relay; Browser.close may
// only close this connection. The Go test (TestHostilePuppeteer) then checks
// the browser process and the app's page are alive.
import assert from 'node:assert/strict';
import puppeteer, { Connection } from 'puppeteer-core';
import { NodeWebSocketTransport } from 'puppeteer-core/internal/node/NodeWebSocketTransport.js';
import { relayWS, topURL, relayTargets } from './env.mjs';

const kind = process.argv[2];
const destructive = [
  ['Browser.crash', {}],
  ['Browser.crashGpuProcess', {}],
  ['Target.createTarget', { url: 'chrome://quit/' }],
  ['Target.createTarget', { url: 'chrome://crash/' }],
  ['Page.navigate', { url: 'chrome://restart' }],
  ['Page.navigate', { url: 'chrome://kill' }],
];

async function rawConnection(url) {
  const transport = await NodeWebSocketTransport.create(url);
  return new Connection(url, transport, 0, 30000);
}

// refuseAll sends every destructive command through send and wants the
// relay's refusal for each.
async function refuseAll(send, extra = []) {
  for (const [method, params] of [...destructive, ...extra]) {
    await assert.rejects(send(method, params), /relay:/, `${kind}: ${method} ${JSON.stringify(params)} was not refused`);
    console.log(`refused ${method} ${JSON.stringify(params)}`);
  }
}

// closeOnlyMe sends Browser.close and wants this connection, and only it,
// to end.
async function closeOnlyMe(send, closed) {
  const result = send('Browser.close', {}).then(() => 'answered', e => 'rejected: ' + e.message);
  await Promise.race([closed, new Promise((_, reject) => setTimeout(() => reject(new Error(kind + ': Browser.close did not close the connection')), 10000))]);
  console.log('Browser.close: ' + await Promise.race([result, new Promise(r => setTimeout(() => r('pending'), 100))]) + '; connection closed');
}

switch (kind) {
  case 'browser': {
    const conn = await rawConnection(relayWS());
    const ended = new Promise(r => { const t = setInterval(() => { if (conn._closed) { clearInterval(t); r(); } }, 20); });
    await refuseAll((m, p) => conn.send(m, p));
    await closeOnlyMe((m, p) => conn.send(m, p), ended);
    break;
  }
  case 'session': {
    const browser = await puppeteer.connect({ browserWSEndpoint: relayWS(), defaultViewport: null, protocolTimeout: 30000 });
    const page = (await browser.pages()).find(p => p.url() === topURL());
    assert.ok(page, 'Puppeteer does not see ' + topURL());
    const session = await page.createCDPSession();
    await refuseAll((m, p) => session.send(m, p), [['Page.close', {}]]);
    // A refused Target.closeTarget also ends that connection's view of the
    // window (docs/adr/028): on a connection of its own.
    {
      const other = await puppeteer.connect({ browserWSEndpoint: relayWS(), defaultViewport: null, protocolTimeout: 30000 });
      const op = (await other.pages()).find(p => p.url() === topURL());
      const os = await op.createCDPSession();
      await assert.rejects(os.send('Target.closeTarget', { targetId: op.target()._targetId }), /relay:/, 'session: Target.closeTarget was not refused');
      console.log('refused Target.closeTarget');
      await other.disconnect();
    }
    const disconnected = new Promise(r => browser.once('disconnected', r));
    await closeOnlyMe((m, p) => session.send(m, p), disconnected);
    break;
  }
  case 'tunnel': {
    const t = (await relayTargets()).find(x => x.url === topURL());
    assert.ok(t && t.webSocketDebuggerUrl, 'the relay lists no tunnel for ' + topURL());
    const conn = await rawConnection(t.webSocketDebuggerUrl);
    const ended = new Promise(r => { const i = setInterval(() => { if (conn._closed) { clearInterval(i); r(); } }, 20); });
    await refuseAll((m, p) => conn.send(m, p), [['Page.close', {}]]);
    await closeOnlyMe((m, p) => conn.send(m, p), ended);
    break;
  }
  default:
    throw new Error('usage: node hostile_puppeteer.mjs browser|session|tunnel');
}
console.log('DONE');
process.exit(0);
