// A relay that requires a token, as docs/relay.md tells clients to pass it.
// Run by TestTokenCompat; RELAY_HTTP and RELAY_WS carry ?token=, TOKEN is it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chromium } from 'playwright-core';
import puppeteer from 'puppeteer-core';
import { relayHTTP, relayWS, topURL } from './env.mjs';

const T = { timeout: 60000 };
const bare = u => u.replace(/\?token=.*$/, '');

test('Playwright with ?token= in the HTTP URL', T, async () => {
  const browser = await chromium.connectOverCDP(relayHTTP());
  try {
    assert.ok(browser.contexts()[0].pages().some(p => p.url() === topURL()));
  } finally {
    await browser.close();
  }
});

test('Playwright with an Authorization header', T, async () => {
  const browser = await chromium.connectOverCDP(bare(relayHTTP()), { headers: { Authorization: 'Bearer ' + process.env.TOKEN } });
  try {
    assert.ok(browser.contexts()[0].pages().some(p => p.url() === topURL()));
  } finally {
    await browser.close();
  }
});

test('Playwright without the token is refused', T, async () => {
  await assert.rejects(chromium.connectOverCDP(bare(relayHTTP()), { timeout: 5000 }));
});

test('Puppeteer with ?token= in the WebSocket URL', T, async () => {
  const browser = await puppeteer.connect({ browserWSEndpoint: relayWS(), defaultViewport: null });
  try {
    assert.ok((await browser.pages()).some(p => p.url() === topURL()));
  } finally {
    await browser.disconnect();
  }
});
