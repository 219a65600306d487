#!/usr/bin/env node
// Starts the understudy binary of this platform, installed by npm as one of
// this package's optional dependencies (@understudy-dev/understudy-<os>-<cpu>),
// with this process's arguments, stdin, stdout and stderr. stdout stays the
// binary's alone: MCP hosts speak JSON-RPC over it.
"use strict";
const { spawn } = require("child_process");
const path = require("path");

const pkg = `@understudy-dev/understudy-${process.platform}-${process.arch}`;
const exe = process.platform === "win32" ? "understudy.exe" : "understudy";

function binary() {
  if (process.env.UNDERSTUDY_BINARY) return process.env.UNDERSTUDY_BINARY;
  try {
    return require.resolve(`${pkg}/bin/${exe}`);
  } catch (e) {
    process.stderr.write(
      `understudy: no binary for ${process.platform}-${process.arch}: the package ${pkg} is not installed.\n` +
        `npm installs it as an optional dependency; reinstall without --no-optional (or --omit=optional),\n` +
        `or download a release archive and set UNDERSTUDY_BINARY to its understudy binary.\n`
    );
    process.exit(1);
  }
}

const child = spawn(binary(), process.argv.slice(2), { stdio: "inherit", windowsHide: true });
for (const sig of ["SIGINT", "SIGTERM", "SIGHUP"]) {
  process.on(sig, () => {
    if (!child.killed) child.kill(sig);
  });
}
child.on("error", (err) => {
  process.stderr.write(`understudy: cannot start ${path.basename(binary())}: ${err.message}\n`);
  process.exit(1);
});
child.on("exit", (code, signal) => {
  if (signal) {
    process.kill(process.pid, signal);
    return;
  }
  process.exit(code === null ? 1 : code);
});
