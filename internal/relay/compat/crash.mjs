// crash.mjs: a Playwright and a Puppeteer client on the relay; when both
// are ready it prints READY and the Go test kills the browser. Both clients
// must see their page close and their connection end; then it prints
// DISCONNECTED and exits 0. Run by TestUpstreamCrashCompat.
import { chromium } from 'playwright-core';
import puppeteer from 'puppeteer-core';
import { relayHTTP, topURL } from './env.mjs';

const pw = await chromium.connectOverCDP(relayHTTP());
const pwPage = pw.contexts()[0].pages().find(p => p.url() === topURL());
if (!pwPage) throw new Error('Playwright does not see ' + topURL());
const pp = await puppeteer.connect({ browserURL: relayHTTP(), defaultViewport: null });
const ppPage = (await pp.pages()).find(p => p.url() === topURL());
if (!ppPage) throw new Error('Puppeteer does not see ' + topURL());

const waits = [
  new Promise(r => pwPage.once('close', () => r('playwright page closed'))),
  new Promise(r => pw.once('disconnected', () => r('playwright disconnected'))),
  new Promise(r => ppPage.once('close', () => r('puppeteer page closed'))),
  new Promise(r => pp.once('disconnected', () => r('puppeteer disconnected'))),
];
const timeout = new Promise((_, reject) => setTimeout(() => reject(new Error('timed out waiting for the clients to see the crash')), 20000));
console.log('READY');
for (const w of waits) console.log(await Promise.race([w, timeout]));
console.log('DISCONNECTED');
process.exit(0);
