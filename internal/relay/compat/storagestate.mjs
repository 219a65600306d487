// storagestate.mjs: Playwright's storageState through the relay, for
// internal/tool's TestStorageStatePlaywright. It loads the state the agent
// exported (STATE_IN) into a new context and reports what a page of TOP_URL
// sees there; then it seeds the app's own context (a cookie and a
// localStorage key in the page the agent drives) and saves that context
// with context.storageState() to STATE_OUT for the agent to import.
import { chromium } from 'playwright-core';

const env = (k) => { const v = process.env[k]; if (!v) throw new Error(`${k} is not set`); return v; };
const browser = await chromium.connectOverCDP(env('RELAY_WS'));
try {
  const ctx = await browser.newContext({ storageState: env('STATE_IN') });
  const page = await ctx.newPage();
  await page.goto(env('TOP_URL'));
  const seen = await page.evaluate(() => ({ cookie: document.cookie, flag: localStorage.getItem('flag') }));
  await ctx.close();

  const app = browser.contexts()[0];
  const top = app.pages().find(p => p.url() === env('TOP_URL'));
  if (!top) throw new Error(`no page of ${env('TOP_URL')} in ${app.pages().map(p => p.url())}`);
  await top.evaluate(() => localStorage.setItem('fromPlaywright', 'yes'));
  // Playwright lists an origin in storageState only after it saw a document
  // of it commit; the page was open before it connected, so reload it.
  await top.reload();
  await app.addCookies([{ name: 'pw', value: 'cookie-from-playwright', url: env('TOP_URL') }]);
  await app.storageState({ path: env('STATE_OUT') });
  console.log(JSON.stringify(seen));
} finally {
  await browser.close();
}
