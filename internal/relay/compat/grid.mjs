// grid.mjs: Playwright through `understudy relay --grid` (cmd/understudy's
// TestRelayGrid). The relay's upstream is a Selenium Grid session's se:cdp;
// the script opens TOP_URL in the grid's browser and prints its title.
import { chromium } from 'playwright-core';
import { relayHTTP, topURL } from './env.mjs';

const browser = await chromium.connectOverCDP(relayHTTP(), { timeout: 120000 });
const context = browser.contexts()[0];
const page = context.pages()[0] ?? await context.newPage();
await page.goto(topURL(), { timeout: 120000 });
console.log('TITLE ' + await page.title());
const frames = page.frames().map(f => new URL(f.url()).pathname).sort();
console.log('FRAMES ' + frames.join(' '));
await browser.close();
