// Builds production_validate test artifacts with the npm packages that
// define the formats, and prints what those packages read back (the oracle).
//
//   node build.mjs OUT_DIR SPEC_JSON
//
// SPEC_JSON: {"files": {"rel/path": "content" | {"random": N} | {"repeat": "x", "size": N}},
//             "unpack": "*.node", "fuses": {"EnableNodeCliInspectArguments": false, ...},
//             "sentinelAt": N, "binarySize": N, "binaryTokens": "…"}
// Writes OUT_DIR/app (an unpacked app folder: app binary + resources/app.asar)
// and prints {"files": [...listPackage], "header": headerString, "fuses": {...}}.
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import asar from '@electron/asar';
import { flipFuses, getCurrentFuseWire, FuseVersion, FuseV1Options, FuseState } from '@electron/fuses';

const [out, specJSON] = process.argv.slice(2);
const spec = JSON.parse(specJSON);
const src = path.join(out, 'src');
const app = path.join(out, 'app');
fs.mkdirSync(path.join(app, 'resources'), { recursive: true });
for (const [rel, content] of Object.entries(spec.files)) {
  const p = path.join(src, rel);
  fs.mkdirSync(path.dirname(p), { recursive: true });
  if (typeof content === 'string') fs.writeFileSync(p, content);
  else if (content.random !== undefined) fs.writeFileSync(p, crypto.randomBytes(content.random));
  else fs.writeFileSync(p, Buffer.alloc(content.size, content.repeat));
}
const archive = path.join(app, 'resources', 'app.asar');
await asar.createPackageWithOptions(src, archive, spec.unpack ? { unpack: spec.unpack } : {});

let fuses = null;
if (spec.fuses) {
  // A stand-in binary: ELF magic, padding, the sentinel and a v1 wire of 9
  // fuses all enabled ('1'), then padding; @electron/fuses flips it.
  const size = spec.binarySize || 1 << 21;
  const bin = Buffer.alloc(size, 0);
  Buffer.from('\x7fELF\x02\x01\x01').copy(bin, 0);
  if (spec.binaryTokens) Buffer.from(spec.binaryTokens).copy(bin, 4096);
  const at = spec.sentinelAt || 100000;
  const wire = Buffer.concat([Buffer.from('dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX'), Buffer.from([1, 9]), Buffer.from('111111111')]);
  wire.copy(bin, at);
  const binPath = path.join(app, 'myapp');
  fs.writeFileSync(binPath, bin, { mode: 0o755 });
  const config = { version: FuseVersion.V1 };
  for (const [name, on] of Object.entries(spec.fuses)) config[FuseV1Options[name]] = on;
  await flipFuses(binPath, config);
  const wireRead = await getCurrentFuseWire(binPath);
  fuses = {};
  for (const [k, v] of Object.entries(wireRead)) {
    if (k === 'version') continue;
    fuses[FuseV1Options[k]] = FuseState[v];
  }
}
const files = asar.listPackage(archive, { isPack: false }).map((f) => f.replace(/^[\\/]/, '').split(path.sep).join('/'));
const header = asar.getRawHeader(archive).headerString;
process.stdout.write(JSON.stringify({ files, header, fuses }));
