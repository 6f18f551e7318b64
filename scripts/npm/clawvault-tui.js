#!/usr/bin/env node
// The npm package's command: it starts the clawvault-tui binary of the
// platform package npm installed beside it (clawvault-tui-<os>-<cpu>, an
// optional dependency whose os and cpu fields let npm pick the one that
// fits), passes the arguments, the terminal and the exit status through.
// Nothing is downloaded.
"use strict";
const { spawn } = require("node:child_process");
const path = require("node:path");

const platform = `${process.platform}-${process.arch}`;
const pkg = `clawvault-tui-${platform}`;
const exe = process.platform === "win32" ? "clawvault-tui.exe" : "clawvault-tui";

let bin;
try {
  bin = path.join(path.dirname(require.resolve(`${pkg}/package.json`)), "bin", exe);
} catch {
  process.stderr.write(
    `clawvault-tui: no binary for ${platform}: the package ${pkg} is not installed.\n` +
      `Builds exist for linux, darwin and win32 on x64 and arm64; reinstall without --no-optional ` +
      `(or --omit=optional), or install ${pkg} itself.\n`,
  );
  process.exit(1);
}

const child = spawn(bin, process.argv.slice(2), { stdio: "inherit", windowsHide: false });

// A signal sent to this process alone (kill, a closed terminal) goes on to
// the binary; an interrupt typed at the terminal reaches both, and the
// binary decides what it means (in the TUI, Ctrl-C is a key).
for (const sig of ["SIGINT", "SIGTERM", "SIGHUP"]) {
  process.on(sig, () => {
    if (sig !== "SIGINT") child.kill(sig);
  });
}

child.on("error", (err) => {
  process.stderr.write(`clawvault-tui: cannot start ${bin}: ${err.message}\n`);
  process.exit(1);
});
child.on("exit", (code, signal) => {
  if (signal) {
    process.removeAllListeners(signal);
    process.kill(process.pid, signal);
    return;
  }
  process.exit(code ?? 1);
});
