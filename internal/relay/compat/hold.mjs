// hold.mjs: connects Playwright over CDP to a browser, takes an aria
// snapshot of every page (so Playwright's injected script and worlds are
// there), prints one line and stays connected until killed. Benchmarks use
// it to measure understudy with a Playwright client on the same tab:
//   node hold.mjs http://127.0.0.1:PORT
import { chromium } from 'playwright-core';

const browser = await chromium.connectOverCDP(process.argv[2]);
const pages = browser.contexts()[0].pages();
for (const p of pages) await p.locator('body').ariaSnapshot().catch(() => {});
console.log('connected', pages.map(p => p.url()).join(' '));
await new Promise(() => {});
