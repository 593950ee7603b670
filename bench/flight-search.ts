/**
 * Issue 27: flight search latency on the server. `npx tsx bench/flight-search.ts [--requests 200] [--pg]`
 * signs an employee in, then makes N `POST /v1/auth/booking/flights/search` requests through the
 * app (authentication, validation, inventory, policy stamps, the offers' insert) over a spread of
 * routes and dates (one way and return, every cabin and one cabin), one at a time, and prints the
 * p50/p95/max and the offers answered. Not part of `npm test`.
 */
import { parseArgs } from 'node:util';
import { createApp } from '../server/app.ts';
import { migrate } from '../server/db/migrate.ts';
import { TEST_TOKEN_SECRET } from '../server/test-app.ts';
import { makeBusiness, request, signIn } from '../server/test-fixtures.ts';
import { openBenchDb } from './open-db.ts';
import { percentile, roundMs } from './stats.ts';

const { values } = parseArgs({ options: { requests: { type: 'string' }, pg: { type: 'boolean' } } });
const n = Number(values.requests ?? 200);
const ROUTES = [['SFO', 'JFK'], ['LHR', 'SIN'], ['BOS', 'ORD'], ['CDG', 'NRT'], ['SYD', 'AKL'], ['GRU', 'MIA'], ['DXB', 'BOM'], ['YYZ', 'FRA']] as const;

const { db, close } = await openBenchDb(values.pg);
const app = createApp({ db, tokenSecret: TEST_TOKEN_SECRET });
try {
  await migrate(db);
  const f = await makeBusiness(db, { transactions: 0 });
  const token = await signIn(app, f.email('employee'));
  const day = (d: number) => new Date(Date.now() + d * 86_400_000).toISOString().slice(0, 10);
  const samples: number[] = [];
  let offers = 0;
  for (let i = 0; i < n + 10; i++) {
    const [origin, destination] = ROUTES[i % ROUTES.length]!;
    const body = {
      origin, destination, depart_date: day(10 + (i % 40)), ...(i % 2 === 0 ? { return_date: day(14 + (i % 40)) } : {}),
      ...(i % 3 === 0 ? { cabin: 'ECONOMY' } : {}),
    };
    const t0 = performance.now();
    const res = await request(app, 'POST', '/v1/auth/booking/flights/search', { token, body });
    const ms = performance.now() - t0;
    if (res.status !== 200) throw new Error(`search failed: ${res.status} ${res.text}`);
    if (i >= 10) {
      samples.push(ms); // the first 10 warm the JIT and the zones' formatters
      offers += res.body.data.length;
    }
  }
  console.log(JSON.stringify({
    engine: db.kind, requests: n, p50_ms: roundMs(percentile(samples, 50)), p95_ms: roundMs(percentile(samples, 95)),
    max_ms: roundMs(Math.max(...samples)), offers_per_search: Math.round(offers / n),
  }));
} finally {
  await app.close();
  await close();
}
