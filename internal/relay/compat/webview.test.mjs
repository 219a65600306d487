// An Electron-shaped upstream (the fixture's proxy relabels guest.html as a
// webview) seen through the relay: the guest is a page to Playwright and
// Puppeteer. Run by TestWebviewGuestCompat; GUEST_URL is the guest's URL.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chromium } from 'playwright-core';
import puppeteer from 'puppeteer-core';
import { relayHTTP, waitFor } from './env.mjs';

const T = { timeout: 60000 };
const guestURL = () => process.env.GUEST_URL;

test('Playwright sees the webview guest as a page and drives it', T, async () => {
  const browser = await chromium.connectOverCDP(relayHTTP());
  try {
    const guest = browser.contexts()[0].pages().find(p => p.url() === guestURL());
    assert.ok(guest, `pages: ${browser.contexts()[0].pages().map(p => p.url())}`);
    assert.equal(await guest.evaluate(() => document.title), 'Guest');
    await guest.click('#btn');
    await waitFor(() => guest.evaluate(() => window.__events.some(e => e.type === 'click' && e.target === 'btn')), 'the click');
  } finally {
    await browser.close();
  }
});

test('Puppeteer sees the webview guest as a page', T, async () => {
  const browser = await puppeteer.connect({ browserURL: relayHTTP(), defaultViewport: null });
  try {
    assert.match(await browser.version(), /Electron/);
    const guest = (await browser.pages()).find(p => p.url() === guestURL());
    assert.ok(guest);
    assert.equal(await guest.evaluate(() => document.title), 'Guest');
  } finally {
    await browser.disconnect();
  }
});
