/**
 * Issue 33: what one request of the load test's mix costs the server, one at a time, in-process.
 *
 *   npx tsx bench/load-request-cost.ts <DATABASE_URL> [--requests 300] [--email owner@demo.test]
 *
 * On a database a `bench/load-test.ts --keep` run left (PostgreSQL, the 20k demo), builds the app
 * as `npm start` does (createApp), signs in as the person, and sends each call of
 * bench/load-clients.ts through `app.request` one after the other: keyset page (walking the cursor),
 * search (common words, and a word no row holds), one transaction, coding (PATCH + Idempotency-Key),
 * feed pull. For each it reports this process's CPU time per request (user + system,
 * process.cpuUsage: it hardly moves with the machine's load, unlike wall-clock time) and the database
 * statements per request (each a round trip, a pool checkout and a socket write). HTTP parsing of a
 * real socket is not included: the load test's "server CPU per request" has it.
 */
import { randomUUID } from 'node:crypto';
import { loadavg } from 'node:os';
import { ID_TOKEN_HEADER, IDEMPOTENCY_HEADER } from '../schema/api/scopes.ts';
import { DEMO_PASSWORD } from '../server/seed/types.ts';
import { openDb, type Db, type Queryable } from '../server/db/db.ts';
import { createApp } from '../server/app.ts';

const argv = process.argv.slice(2);
const databaseUrl = argv[0];
if (!databaseUrl?.startsWith('postgres')) throw new Error('usage: npx tsx bench/load-request-cost.ts <DATABASE_URL> [--requests N] [--email E]');
const opt = (name: string) => { const i = argv.indexOf(`--${name}`); return i >= 0 ? argv[i + 1] : undefined; };
const requests = Number(opt('requests') ?? 300);
const email = opt('email') ?? 'owner@demo.test';
const ACCEPT_ENCODING = 'gzip, deflate, br, zstd';
const COMMON = ['uber', 'delta', 'amazon', 'coffee', 'hotel', 'office', 'air', 'lyft', 'market', 'cloud'];

/** Counts the statements sent (inside transactions too). */
function counting(db: Db): { db: Db; count: () => number } {
  let n = 0;
  const wrap = (q: Queryable): Queryable => ({
    query: (sql, params) => { n++; if (process.env.SHOW_SQL) console.log('  sql:', sql.replace(/\s+/g, ' ').slice(0, 140)); return q.query(sql, params); },
    exec: (sql) => { n++; return q.exec(sql); },
    notify: (c, p) => { n++; return q.notify(c, p); },
  });
  return {
    db: { ...db, ...wrap(db), transaction: (fn) => { n += 2; return db.transaction((tx) => fn(wrap(tx))); } },
    count: () => n,
  };
}

const raw = await openDb({ databaseUrl });
const counted = counting(raw);
const app = createApp({ db: counted.db });
try {
  const signIn = await app.request('/v1/public/sign-in', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password: DEMO_PASSWORD }) });
  if (!signIn.ok) throw new Error(`sign-in failed: ${signIn.status} ${await signIn.text()}`);
  const token = ((await signIn.json()) as { id_token: string }).id_token;
  const ids = (await raw.query<{ id: string }>('SELECT id::text FROM transactions ORDER BY md5(id::text) LIMIT 200')).map((r) => r.id);
  const gls = (await raw.query<{ id: string }>(`SELECT id::text FROM gl_accounts WHERE active AND classification = 'EXPENSE' LIMIT 20`)).map((r) => r.id);
  const [{ top } = { top: 0 }] = await raw.query<{ top: number }>('SELECT max(change_seq)::int8 AS top FROM transactions');
  const headers = (extra: Record<string, string> = {}) => ({ [ID_TOKEN_HEADER]: token, accept: 'application/json', 'accept-encoding': ACCEPT_ENCODING, ...extra });
  const call = async (method: string, path: string, body?: unknown, extra?: Record<string, string>) => {
    const res = await app.request(path, { method, headers: headers(body === undefined ? extra : { 'content-type': 'application/json', ...extra }), ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    const bytes = new Uint8Array(await res.arrayBuffer());
    if (!res.ok) throw new Error(`${method} ${path} → ${res.status}`);
    return { res, bytes };
  };
  // The keyset walk's cursors, read before measuring (uncompressed), so each measured page is one request.
  const cursors: (string | null)[] = [null];
  while (cursors.length < 60) {
    const at = cursors.at(-1);
    const res = await app.request(`/v1/auth/transactions?page_size=50${at ? `&start=${encodeURIComponent(at)}` : ''}`, { headers: headers({ 'accept-encoding': 'identity' }) });
    const next = ((await res.json()) as { page: { next: string | null } }).page.next;
    if (!next) break;
    cursors.push(next);
  }
  let tick = 0;
  const pick = <T,>(xs: T[], i: number) => xs[i % xs.length]!;
  const ops: Record<string, (i: number) => Promise<{ bytes: Uint8Array }>> = {
    page: (i) => { const at = pick(cursors, i); return call('GET', `/v1/auth/transactions?page_size=50${at ? `&start=${encodeURIComponent(at)}` : ''}`); },
    search: (i) => call('POST', '/v1/auth/transactions/search', { filters: { q: pick(COMMON, i) }, paging: { page_size: 50 } }),
    'search (no match)': (i) => call('POST', '/v1/auth/transactions/search', { filters: { q: `qqxz${i % 7}` }, paging: { page_size: 50 } }),
    get: (i) => call('GET', `/v1/auth/transactions/${pick(ids, i)}`),
    code: (i) => call('PATCH', `/v1/auth/transactions/${pick(ids, i)}`, { memo: `cost ${++tick}`, gl_account_id: pick(gls, i) }, { [IDEMPOTENCY_HEADER]: randomUUID() }),
    feed: () => call('GET', `/v1/auth/sync/changes?after=${Math.max(0, Number(top) - 20)}&limit=500`),
  };
  console.log(`${requests} requests per call, one at a time, as ${email} (load average ${loadavg().map((l) => l.toFixed(2)).join(' ')})`);
  console.log('| call | CPU ms / request | statements / request | answer bytes (sent) |');
  console.log('|---|---:|---:|---:|');
  for (const [name, op] of Object.entries(ops)) {
    for (let i = 0; i < (process.env.SHOW_SQL ? 1 : 20); i++) await op(i);
    if (process.env.SHOW_SQL) continue;
    const n0 = counted.count();
    const cpu0 = process.cpuUsage();
    let bytes = 0;
    for (let i = 0; i < requests; i++) bytes += (await op(i)).bytes.byteLength;
    const cpu = process.cpuUsage(cpu0);
    const statements = (counted.count() - n0) / requests;
    const cpuMs = (cpu.user + cpu.system) / 1000 / requests;
    console.log(`| ${name} | ${cpuMs.toFixed(2)} | ${statements.toFixed(1)} | ${Math.round(bytes / requests)} |`);
  }
} finally {
  await app.close();
  await raw.close();
}
