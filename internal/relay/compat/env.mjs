// env.mjs: what the Go tests pass to the compatibility scripts, and small
// helpers they share. Every script talks only to the relay (and the fixture
// server, through the browser); nothing here launches a browser.
//
//   RELAY_HTTP    http://127.0.0.1:PORT of the relay
//   RELAY_WS      ws://127.0.0.1:PORT/devtools/browser/ID of the relay
//   FIXTURE_PORT  port of the fixture server (a.test, b.test, c.example)
//   TOP_URL       a page the test opened before it ran the script
import assert from 'node:assert/strict';

function need(name) {
  const v = process.env[name];
  assert.ok(v, `environment variable ${name} is not set (run this script from the Go tests in internal/relay)`);
  return v;
}

export const relayHTTP = () => need('RELAY_HTTP');
export const relayWS = () => need('RELAY_WS');
export const topURL = () => need('TOP_URL');
export const fixture = (host, path) => `http://${host}:${need('FIXTURE_PORT')}${path}`;

// waitFor polls fn until it returns a truthy value or the time is up.
export async function waitFor(fn, what, ms = 10000) {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise(r => setTimeout(r, 50));
  }
}

// relayTargets reads the relay's /json/list.
export async function relayTargets() {
  const res = await fetch(relayHTTP() + '/json/list');
  assert.equal(res.status, 200);
  return res.json();
}
