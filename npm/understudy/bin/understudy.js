#!/usr/bin/env node
// Starts the understudy binary of this platform, installed by npm as one of
// this package's optional dependencies (@understudy-dev/understudy-<os>-<cpu>),
// with this process's arguments, stdin, stdout and stderr. stdout stays the
// binary's alone: MCP hosts speak JSON-RPC over it. When the binary cannot be
// found, stderr names the package looked for, where, and the other routes.
"use strict";
const { spawn } = require("child_process");
const path = require("path");

const pkg = `@understudy-dev/understudy-${process.platform}-${process.arch}`;
const exe = process.platform === "win32" ? "understudy.exe" : "understudy";

// optionalDeps are the platform packages this launcher's release lists.
function optionalDeps() {
  try {
    return Object.keys(require("../package.json").optionalDependencies || {});
  } catch (e) {
    return [];
  }
}

// omitsOptional says whether npm was told to skip optional dependencies,
// the one case where reinstalling without that setting is the fix.
function omitsOptional(env) {
  const omit = (env.npm_config_omit || "").split(/[\s,]+/);
  return omit.includes("optional") || env.npm_config_optional === "false";
}

function notFound(err) {
  const where = (require.resolve.paths(pkg) || []).slice(0, 4);
  const listed = optionalDeps();
  const lines = [
    `understudy: no binary for ${process.platform}-${process.arch}: the package ${pkg} is not installed.`,
    `  looked for ${pkg}/bin/${exe} from ${__dirname}, in:`,
    ...where.map((p) => `    ${p}`),
  ];
  if (listed.length > 0 && !listed.includes(pkg)) {
    lines.push(`  this release has no package for ${process.platform}-${process.arch} (it has ${listed.join(", ")}).`);
  } else if (omitsOptional(process.env)) {
    lines.push("  npm was told to skip optional dependencies (omit=optional or --no-optional), and the binary is one:",
      "  reinstall without that setting.");
  } else {
    lines.push("  npm installs this launcher even when it cannot download the platform package: the packages",
      "  are not on the npm registry yet (until they are, use a route below), or the download failed.");
  }
  lines.push(
    "  other routes:",
    "    - set UNDERSTUDY_BINARY to an understudy binary (make build writes bin/understudy; or unpack a release archive);",
    `    - install the launcher and ${pkg} together from the tarballs of make release`,
    "      (README, \"Install\": npm pack dist/npm/understudy dist/npm/understudy-<os>-<cpu>, then npm install both .tgz files).",
  );
  if (err && err.code && err.code !== "MODULE_NOT_FOUND") lines.push(`  (${err.message})`);
  process.stderr.write(lines.join("\n") + "\n");
  process.exit(1);
}

function binary() {
  if (process.env.UNDERSTUDY_BINARY) return process.env.UNDERSTUDY_BINARY;
  try {
    return require.resolve(`${pkg}/bin/${exe}`);
  } catch (e) {
    return notFound(e);
  }
}

const bin = binary();
const child = spawn(bin, process.argv.slice(2), { stdio: "inherit", windowsHide: true });
for (const sig of ["SIGINT", "SIGTERM", "SIGHUP"]) {
  process.on(sig, () => {
    if (!child.killed) child.kill(sig);
  });
}
child.on("error", (err) => {
  const from = process.env.UNDERSTUDY_BINARY ? " (from UNDERSTUDY_BINARY)" : "";
  process.stderr.write(`understudy: cannot start ${bin}${from}: ${err.message}\n`);
  process.exit(1);
});
child.on("exit", (code, signal) => {
  if (signal) {
    process.kill(process.pid, signal);
    return;
  }
  process.exit(code === null ? 1 : code);
});
