#!/usr/bin/env node
// Makes sure Debian's Chromium is installed before the end-to-end tests run.
//
// Why Debian's package and not Playwright's own download: playwright-core's browser download is
// not reachable on our CI machines, and the Debian build runs headless with the system's fonts.
// Silent when the browser is present, so `npm test` output stays about the tests.
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';

const CHROMIUM = '/usr/bin/chromium';
const HOW_TO = `Chromium is missing at ${CHROMIUM}: install it with \`sudo apt-get install chromium fonts-liberation\` and run the tests again.`;

/** True when a command is on PATH (without a shell, so nothing is interpolated). */
function hasCommand(name) {
  return spawnSync('sh', ['-c', 'command -v "$0"', name], { stdio: 'ignore' }).status === 0;
}

/** Runs a command with inherited output; returns whether it succeeded. */
function run(cmd, args) {
  const res = spawnSync(cmd, args, {
    stdio: 'inherit',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  return res.status === 0;
}

function install() {
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!isRoot || !hasCommand('apt-get')) return false;
  console.log(`Installing Debian's chromium (missing at ${CHROMIUM}) …`);
  return (
    run('apt-get', ['update']) &&
    run('apt-get', ['install', '-y', 'chromium', 'fonts-liberation'])
  );
}

if (!existsSync(CHROMIUM)) {
  if (!install() || !existsSync(CHROMIUM)) {
    console.error(HOW_TO);
    process.exit(1);
  }
}
