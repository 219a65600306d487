// Performance traces through the relay: Playwright's browser.startTracing
// and Puppeteer's page.tracing read the trace back as a stream (the IO and
// Tracing domains), which the relay allows; a Perfetto config is refused
// (TestTracingStartWithoutHostFiles). Run by TestTracingThroughTheRelay.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chromium } from 'playwright-core';
import puppeteer from 'puppeteer-core';
import { relayHTTP, relayWS, fixture } from './env.mjs';

const T = { timeout: 60000 };
const events = (buf) => {
  const j = JSON.parse(Buffer.from(buf).toString());
  return Array.isArray(j) ? j : j.traceEvents;
};

test('Playwright browser.startTracing / stopTracing', T, async () => {
  const browser = await chromium.connectOverCDP(relayHTTP());
  const page = await browser.contexts()[0].newPage();
  try {
    await browser.startTracing(page, { categories: ['devtools.timeline'] });
    await page.goto(fixture('a.test', '/second.html'));
    const buf = await browser.stopTracing();
    assert.ok(events(buf).length > 0, 'the trace holds events');
  } finally {
    await page.close();
    await browser.close();
  }
});

test('Puppeteer page.tracing.start / stop', T, async () => {
  const browser = await puppeteer.connect({ browserWSEndpoint: relayWS() });
  const page = await browser.newPage();
  try {
    await page.tracing.start({ categories: ['devtools.timeline'] });
    await page.goto(fixture('a.test', '/second.html'));
    const buf = await page.tracing.stop();
    assert.ok(events(buf).length > 0, 'the trace holds events');
  } finally {
    await page.close();
    await browser.disconnect();
  }
});
