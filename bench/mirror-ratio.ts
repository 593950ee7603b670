/**
 * The mirror against its floor, alone and repeated (issue 33): `npx tsx bench/mirror-ratio.ts
 * --transactions 20000 [--rounds 3]`. Uses the built app (dist/: run `npx vite build` first).
 *
 * Seeds the real server once (PGlite, N transactions, N / 5 claims, N / 5 bills, receipts), then
 * each round, in a fresh Chromium profile: the raw IndexedDB floor (bench/raw-idb.ts: the same
 * rows written with plain Dexie `bulkPut`) and the first mirror (sign in → every collection
 * mirrored, as `npm run bench` measures `mirror_ms`). Prints each round's `mirror_ms`,
 * `raw_idb_put_ms` and ratio, then the medians and the median ratio: the figure is the
 * median of three. Faster than the whole benchmark, which measures everything once. Not part of
 * `npm test`.
 *
 * `--compare-dist DIR` (another build of the app, e.g. the base commit's `dist/` copied aside):
 * a second listener over the same seeded database serves DIR, and each round also mirrors from
 * it in a fresh profile, in alternating order (A before B, then B before A). Both builds meet the
 * same seed, the same floor and the same load: the pair the issue asks for without seeding twice.
 * Both listeners run this checkout's server code, so it compares client builds only.
 */
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { SYNC_BATCH_DEFAULT } from '../schema/constants.ts';
import { defaultBills } from '../server/seed/bills.ts';
import { defaultReimbursements } from '../server/seed/reimbursements.ts';
import { startTestServer } from '../server/testing.ts';
import { listen } from '../server/serve.ts';
import { apiSignIn } from '../tests/support/api.ts';
import { launchBrowser } from '../tests/support/browser.ts';
import { installProbe } from './app-probe.ts';
import { countVisible } from './fixtures.ts';
import { ADMIN, measureFirstMirror, mirrorLimitMs } from './phases.ts';
import { fetchMirrorRows, measureRawIdbPut } from './raw-idb.ts';

const argsSchema = z.object({
  transactions: z.coerce.number().int().min(100).max(1_000_000).default(20_000),
  rounds: z.coerce.number().int().min(1).max(9).default(3),
  'compare-dist': z.string().min(1).optional(),
});

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

const load = () => loadavg().map((n) => n.toFixed(2)).join(' ');

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { transactions: { type: 'string' }, rounds: { type: 'string' }, 'compare-dist': { type: 'string' } }, strict: true });
  const args = argsSchema.parse(values);
  const n = args.transactions;
  console.log(`seeding ${n} transactions (untimed)`);
  const server = await startTestServer({
    transactions: n, reimbursements: defaultReimbursements(n), bills: defaultBills(n), receipts: true, serveDist: true,
  });
  const compare = args['compare-dist'] ? await listen({ db: server.db, host: '127.0.0.1', port: 0, distDir: args['compare-dist'] }) : null;
  const rounds: { mirror: number; floor: number; other: number | null; load: string }[] = [];
  try {
    const api = await apiSignIn(server.url, ADMIN.email, ADMIN.password);
    const expected = await countVisible(server.db, server.businessId);
    const port = Number(new URL(server.url).port);
    /** One first mirror from `url`'s build, in a fresh profile. */
    const mirrorFrom = async (url: string) => {
      const browser = await launchBrowser({ baseURL: url });
      try {
        await installProbe(browser.context);
        return (await measureFirstMirror(browser, expected, mirrorLimitMs(n))).mirrorMs;
      } finally {
        await browser.close();
      }
    };
    for (let round = 1; round <= args.rounds; round++) {
      const browser = await launchBrowser({ baseURL: server.url });
      let floor: number;
      let count: number;
      try {
        await installProbe(browser.context);
        const rows = await fetchMirrorRows(api, SYNC_BATCH_DEFAULT);
        floor = await measureRawIdbPut(browser.context, port, rows, SYNC_BATCH_DEFAULT);
        count = rows.length;
        rows.length = 0;
      } finally {
        await browser.close();
      }
      let mirror: number;
      let other: number | null = null;
      if (compare && round % 2 === 0) {
        other = await mirrorFrom(compare.url);
        mirror = await mirrorFrom(server.url);
      } else {
        mirror = await mirrorFrom(server.url);
        if (compare) other = await mirrorFrom(compare.url);
      }
      rounds.push({ mirror, floor, other, load: load() });
      const b = other === null ? '' : `, compare-dist mirror_ms ${Math.round(other)} ratio ${(other / floor).toFixed(2)}`;
      console.log(`round ${round}: ${count} rows, mirror_ms ${Math.round(mirror)}, raw_idb_put_ms ${Math.round(floor)}, ratio ${(mirror / floor).toFixed(2)}${b} (load ${load()})`);
    }
  } finally {
    await compare?.close();
    await server.close();
  }
  const m = median(rounds.map((r) => r.mirror));
  const f = median(rounds.map((r) => r.floor));
  const ratio = median(rounds.map((r) => r.mirror / r.floor));
  console.log(`median of ${rounds.length}: mirror_ms ${Math.round(m)}, raw_idb_put_ms ${Math.round(f)}, median ratio ${ratio.toFixed(2)}`);
  if (compare) {
    const o = rounds.map((r) => r.other!);
    console.log(`compare-dist median: mirror_ms ${Math.round(median(o))}, median ratio ${median(rounds.map((r) => r.other! / r.floor)).toFixed(2)}`);
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
