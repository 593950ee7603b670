// `node scripts/run-parallel.mjs typecheck lint build`: runs those npm scripts at once, prints
// each one's output whole when it ends (never interleaved), and exits non-zero if any failed,
// after all have ended. `npm test` runs tsc, eslint and `vite build` side by side: tsc and eslint
// each keep one core busy and end at different times, and the build (which no unit or server test
// needs, only e2e) fills the core the first of them leaves idle, instead of taking its own turn
// between the unit and e2e projects.
import { spawn } from 'node:child_process';

const names = process.argv.slice(2);
if (names.length === 0) {
  console.error('usage: node scripts/run-parallel.mjs <npm script>…');
  process.exit(2);
}

const run = (name) =>
  new Promise((resolve) => {
    const started = Date.now();
    const child = spawn('npm', ['run', name], { stdio: ['ignore', 'pipe', 'pipe'] });
    const out = [];
    child.stdout.on('data', (d) => out.push(d));
    child.stderr.on('data', (d) => out.push(d));
    child.on('close', (code, signal) => {
      const seconds = ((Date.now() - started) / 1000).toFixed(0);
      const text = Buffer.concat(out).toString();
      process.stdout.write(`\n── npm run ${name}: ${code === 0 ? 'passed' : `FAILED (${signal ?? `exit ${code}`})`} in ${seconds} s\n${text}`);
      resolve(code === 0);
    });
  });

const results = await Promise.all(names.map(run));
process.exit(results.every(Boolean) ? 0 : 1);
