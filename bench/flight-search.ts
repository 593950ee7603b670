/**
 * Issue 27: flight search latency on the server. `npx tsx bench/flight-search.ts [--requests 200] [--pg]`
 * signs an employee in, then makes N `POST /v1/auth/booking/flights/search` requests through the
 * app (authentication, validation, inventory, policy stamps, the offers' insert) over a spread of
 * routes and dates (bench/flight-search-load.ts, as the benchmark run's flight_search_p95_ms), one at a time, and prints the
 * p50/p95/max and the offers answered. Not part of `npm test`.
 */
import { parseArgs } from 'node:util';
import { createApp } from '../server/app.ts';
import { migrate } from '../server/db/migrate.ts';
import { TEST_TOKEN_SECRET } from '../server/test-app.ts';
import { makeBusiness, request, signIn } from '../server/test-fixtures.ts';
import { openBenchDb } from './open-db.ts';
import { measureFlightSearch } from './flight-search-load.ts';

const { values } = parseArgs({ options: { requests: { type: 'string' }, pg: { type: 'boolean' } } });
const n = Number(values.requests ?? 200);

const { db, close } = await openBenchDb(values.pg);
const app = createApp({ db, tokenSecret: TEST_TOKEN_SECRET });
try {
  await migrate(db);
  const f = await makeBusiness(db, { transactions: 0 });
  const token = await signIn(app, f.email('employee'));
  const load = await measureFlightSearch(async (body) => {
    const res = await request(app, 'POST', '/v1/auth/booking/flights/search', { token, body });
    return { status: res.status, offers: res.status === 200 ? res.body.data.length : 0, text: res.text };
  }, n);
  console.log(JSON.stringify({
    engine: db.kind, requests: n, p50_ms: load.p50Ms, p95_ms: load.p95Ms, max_ms: load.maxMs, offers_per_search: load.offersPerSearch,
  }));
} finally {
  await app.close();
  await close();
}
