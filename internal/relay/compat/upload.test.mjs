// Files a client hands a page through the relay (DOM.setFileInputFiles):
// only from under the operator's file roots, symlinks resolved.
// Run by TestSetInputFilesUnderRoots; IN_ROOT is a file under the roots,
// LINK_OUT a symlink under the roots to a file outside them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chromium } from 'playwright-core';
import puppeteer from 'puppeteer-core';
import { relayHTTP, relayWS, fixture } from './env.mjs';

const T = { timeout: 60000 };
const inRoot = process.env.IN_ROOT, linkOut = process.env.LINK_OUT;
const form = () => { document.body.innerHTML = '<input type=file id=f multiple>'; };
const read = () => {
  const f = document.getElementById('f').files;
  return Promise.all([...f].map(x => x.text().then(t => x.name + ':' + t)));
};
const refusal = /relay: DOM\.setFileInputFiles with the file .* is refused: .*--relay-allow DOM\.setFileInputFiles/;

// Playwright sends DOM.setFileInputFiles only when told the browser is on
// its host (isLocal: true); otherwise it reads the files itself and hands
// the page their bytes (the next test).
test('Playwright setInputFiles (isLocal): a file under the roots; /etc/passwd and a symlink out are refused', T, async () => {
  const browser = await chromium.connectOverCDP(relayHTTP(), { isLocal: true });
  const page = await browser.contexts()[0].newPage();
  try {
    await page.goto(fixture('a.test', '/second.html'));
    await page.evaluate(form);
    await page.setInputFiles('#f', inRoot);
    assert.deepEqual(await page.evaluate(read), ['upload.txt:under the root']);
    // An element handle's setInputFiles reports the relay's refusal; a
    // locator's retries any protocol error until its timeout.
    const input = await page.$('#f');
    await assert.rejects(input.setInputFiles('/etc/passwd'), refusal);
    await assert.rejects(input.setInputFiles(linkOut), refusal);
    await assert.rejects(input.setInputFiles([inRoot, '/etc/passwd']), refusal);
    await assert.rejects(page.setInputFiles('#f', '/etc/passwd', { timeout: 1000 }), /Timeout/);
    // What was refused never reached the page.
    assert.deepEqual(await page.evaluate(read), ['upload.txt:under the root']);
  } finally {
    await page.close();
    await browser.close();
  }
});

test('Playwright setInputFiles (default): the client reads the file and hands the page its bytes', T, async () => {
  const browser = await chromium.connectOverCDP(relayHTTP());
  const page = await browser.contexts()[0].newPage();
  try {
    await page.goto(fixture('a.test', '/second.html'));
    await page.evaluate(form);
    await page.setInputFiles('#f', inRoot);
    assert.deepEqual(await page.evaluate(read), ['upload.txt:under the root']);
  } finally {
    await page.close();
    await browser.close();
  }
});

test('Puppeteer uploadFile: a file under the roots; /etc/passwd is refused', T, async () => {
  const browser = await puppeteer.connect({ browserWSEndpoint: relayWS(), defaultViewport: null });
  const page = await browser.newPage();
  try {
    await page.goto(fixture('a.test', '/second.html'));
    await page.evaluate(form);
    const input = await page.$('#f');
    await input.uploadFile(inRoot);
    assert.deepEqual(await page.evaluate(read), ['upload.txt:under the root']);
    await assert.rejects(input.uploadFile('/etc/passwd'), refusal);
  } finally {
    await page.close();
    await browser.disconnect();
  }
});
