// hostile.mjs: Playwright's CDP session on a page (newCDPSession, a flat page
// session through the relay's browser socket) sends what would end the app.
// Each must be refused or close only this connection; the Go test
// (TestHostilePlaywrightSession) then checks the browser is alive.
import assert from 'node:assert/strict';
import { chromium } from 'playwright-core';
import { relayHTTP, topURL } from './env.mjs';

const browser = await chromium.connectOverCDP(relayHTTP());
const page = browser.contexts()[0].pages().find(p => p.url() === topURL());
assert.ok(page, 'Playwright does not see ' + topURL());
const session = await page.context().newCDPSession(page);
for (const [method, params] of [
  ['Browser.crash', {}],
  ['Browser.crashGpuProcess', {}],
  ['Target.createTarget', { url: 'chrome://quit/' }],
  ['Page.navigate', { url: 'chrome://restart' }],
  ['Page.close', {}],
]) {
  await assert.rejects(session.send(method, params), /relay:/, method + ' was not refused');
  console.log('refused ' + method);
}
// The browser-level session (Target.attachToBrowserTarget through the
// browser socket) is refused the same.
const bs = await browser.newBrowserCDPSession();
for (const [method, params] of [
  ['Browser.crash', {}],
  ['Browser.crashGpuProcess', {}],
  ['Target.createTarget', { url: 'chrome://quit/' }],
  ['Target.createTarget', { url: 'chrome://quit/', URL: 'about:blank' }],
]) {
  await assert.rejects(bs.send(method, params), /relay:/, 'browser session: ' + method + ' was not refused');
  console.log('browser session refused ' + method + ' ' + JSON.stringify(params));
}
// A refused Target.closeTarget also ends that connection's view of the
// window (docs/adr/028), so it goes on a connection of its own.
{
  const other = await chromium.connectOverCDP(relayHTTP());
  const obs = await other.newBrowserCDPSession();
  const targetId = (await session.send('Target.getTargetInfo')).targetInfo.targetId;
  await assert.rejects(obs.send('Target.closeTarget', { targetId }), /relay:/, 'browser session: Target.closeTarget was not refused');
  console.log('browser session refused Target.closeTarget');
  await other.close();
}
const disconnected = new Promise(r => browser.once('disconnected', r));
await session.send('Browser.close').catch(e => console.log('Browser.close: ' + e.message));
await Promise.race([disconnected, new Promise((_, reject) => setTimeout(() => reject(new Error('not disconnected')), 10000))]);
console.log('DONE');
process.exit(0);
