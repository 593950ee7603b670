// Run after any `npm install` that rewrites package-lock.json: node scripts/fix-lock.mjs package-lock.json
// Adds lock entries for optional platform packages that the lock's parents declare but the lock
// lacks (the registry reachable here has no tarballs for other platforms, so `npm install`
// silently skipped them and `npm ci` then refuses the lock). os/cpu/libc come from the names.
import { readFileSync, writeFileSync } from 'node:fs';
const path = process.argv[2];
const lock = JSON.parse(readFileSync(path, 'utf8'));
const pkgs = lock.packages;
const platform = (name) => {
  const tail = name.split('/').pop().replace(/^(rollup|resolver-binding)-/, '');
  const [os, cpuRaw, abi] = tail.split('-');
  const cpu = cpuRaw;
  const entry = { os: [os], cpu: [cpu] };
  if (os === 'linux' && abi) entry.libc = [abi.startsWith('musl') ? 'musl' : 'glibc'];
  return entry;
};
let added = 0;
for (const [key, meta] of Object.entries(pkgs)) {
  for (const [dep, version] of Object.entries(meta.optionalDependencies ?? {})) {
    if (!/^@(rollup\/rollup|unrs\/resolver-binding)-/.test(dep)) continue;
    const base = key === '' ? '' : `${key}/`;
    const nested = `${base}node_modules/${dep}`;
    const top = `node_modules/${dep}`;
    if (pkgs[nested] || pkgs[top]) continue;
    const p = platform(dep);
    pkgs[top] = { version, ...p, dev: meta.dev, optional: true, license: 'MIT' };
    if (!meta.dev) delete pkgs[top].dev;
    added++;
  }
}
// Keep npm's ordering: keys sorted within packages (root first).
const sorted = {};
for (const k of Object.keys(pkgs).sort((a, b) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b)))) sorted[k] = pkgs[k];
lock.packages = sorted;
writeFileSync(path, JSON.stringify(lock, null, 2) + '\n');
console.log(`added ${added} entries`);
