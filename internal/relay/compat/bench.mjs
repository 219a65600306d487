// bench.mjs: Playwright through the relay against Playwright connected
// straight to the same Chromium, in one run. Run by BenchmarkRelayPeers
// (go test -run '^$' -bench RelayPeers -benchtime 1x ./internal/relay/),
// which starts the browser, the fixture server and the relay and prints the
// table; it can also be run by hand:
//
//   node bench.mjs eval    RELAY_HTTP DIRECT_HTTP PAGE_URL [N]   page.evaluate('1'), N calls (500)
//   node bench.mjs connect RELAY_HTTP DIRECT_HTTP [N [PAGE_URL]] connectOverCDP + close, N times (10);
//                                                               with PAGE_URL, each connect must show it
//   node bench.mjs flood   ENDPOINT FLOOD_URL CLIENTS REQUESTS    CLIENTS clients evaluate while the
//                                                               page floods (REQUESTS fetches and
//                                                               console messages)
//
// Each mode prints one JSON line.
import { fork } from 'node:child_process';
import { chromium } from 'playwright-core';

const [mode, ...args] = process.argv.slice(2);

function stats(ms) {
  const s = [...ms].sort((a, b) => a - b);
  const q = p => s[Math.min(s.length - 1, Math.floor(p * s.length))];
  const mean = s.reduce((a, b) => a + b, 0) / s.length;
  return { n: s.length, mean: +mean.toFixed(3), p50: +q(0.5).toFixed(3), p99: +q(0.99).toFixed(3), max: +s[s.length - 1].toFixed(3) };
}

async function pageAt(endpoint, url) {
  const browser = await chromium.connectOverCDP(endpoint);
  const page = browser.contexts()[0].pages().find(p => p.url().startsWith(url));
  if (!page) throw new Error(`no page ${url} at ${endpoint}`);
  return { browser, page };
}

async function evalRun(endpoint, url, n) {
  const { browser, page } = await pageAt(endpoint, url);
  for (let i = 0; i < 50; i++) await page.evaluate('1'); // warm up
  const ms = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await page.evaluate('1');
    ms.push(performance.now() - t);
  }
  await browser.close();
  return ms;
}

async function evalBench(relay, direct, url, n = 500) {
  // Interleaved halves, so that neither side gets the quieter moment.
  const r = [], d = [];
  for (let round = 0; round < 2; round++) {
    d.push(...await evalRun(direct, url, n / 2));
    r.push(...await evalRun(relay, url, n / 2));
  }
  const rs = stats(r), ds = stats(d);
  return { mode: 'eval', relay: rs, direct: ds, ratio_mean: +(rs.mean / ds.mean).toFixed(3), ratio_p50: +(rs.p50 / ds.p50).toFixed(3) };
}

async function connectOnce(endpoint, url) {
  const t = performance.now();
  const browser = await chromium.connectOverCDP(endpoint);
  const ms = performance.now() - t;
  if (url && !browser.contexts()[0].pages().some(p => p.url() === url)) throw new Error(`no page ${url} at ${endpoint}`);
  await browser.close();
  return ms;
}

async function connectBench(relay, direct, n = 10, url = '') {
  await connectOnce(direct, url); await connectOnce(relay, url); // warm up
  const r = [], d = [];
  for (let i = 0; i < n; i++) {
    d.push(await connectOnce(direct, url));
    r.push(await connectOnce(relay, url));
  }
  const rs = stats(r), ds = stats(d);
  return { mode: 'connect', relay: rs, direct: ds, ratio_p50: +(rs.p50 / ds.p50).toFixed(3), ratio_mean: +(rs.mean / ds.mean).toFixed(3) };
}

// flood: CLIENTS child processes connect; when all are ready the first one
// starts the flood and every client evaluates in a loop until it is done.
async function floodBench(endpoint, url, clients, requests) {
  const kids = [];
  for (let i = 0; i < clients; i++) kids.push(fork(new URL(import.meta.url).pathname, ['flood-client', endpoint, url, String(i), String(requests)]));
  const ready = kids.map(k => new Promise(r => k.once('message', r)));
  await Promise.all(ready);
  const t0 = performance.now();
  const results = kids.map(k => new Promise(r => k.once('message', r)));
  kids.forEach(k => k.send('go'));
  const all = await Promise.all(results);
  const per = all.map(x => stats(x.ms));
  const merged = stats(all.flatMap(x => x.ms));
  return { mode: 'flood', endpoint, clients, requests, seconds: +((performance.now() - t0) / 1000).toFixed(2),
    all: merged, worst_client_p99: Math.max(...per.map(s => s.p99)), per_client: per,
    console_events: all.map(x => x.console), responses_seen: all.map(x => x.responses) };
}

async function floodClient(endpoint, url, id, requests) {
  const { browser, page } = await pageAt(endpoint, url);
  let consoleEvents = 0, responses = 0;
  page.on('console', () => consoleEvents++);
  page.on('response', () => responses++);
  process.send('ready');
  await new Promise(r => process.once('message', r));
  if (id === '0') await page.evaluate(n => { window.flood(n); }, Number(requests));
  const ms = [];
  for (;;) {
    const t = performance.now();
    const done = await page.evaluate('window.__floodDone === true');
    ms.push(performance.now() - t);
    if (done) break;
  }
  process.send({ ms, console: consoleEvents, responses });
  await browser.close();
  process.exit(0);
}

let out;
switch (mode) {
  case 'eval': out = await evalBench(args[0], args[1], args[2], Number(args[3] || 500)); break;
  case 'connect': out = await connectBench(args[0], args[1], Number(args[2] || 10), args[3] || ''); break;
  case 'flood': out = await floodBench(args[0], args[1], Number(args[2] || 8), Number(args[3] || 20000)); break;
  case 'flood-client': await floodClient(args[0], args[1], args[2], args[3]); break;
  default: throw new Error('mode: eval | connect | flood');
}
if (out) console.log(JSON.stringify(out));
process.exit(0);
