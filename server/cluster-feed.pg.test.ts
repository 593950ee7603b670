/**
 * Issue 33: the feed and the SSE stream are exact across server processes. Two processes (two
 * pools and LISTEN connections on one PostgreSQL, as WEB_CONCURRENCY workers are): a client of
 * process B is part-way through its pull (B has prepared its next page, feed/page-cache.ts) and
 * has a stream open on B when a write goes through process A. The stream on B announces the
 * write's seq, B's feed then hands the write over, and what the client mirrors from B is exactly
 * what a full pull from A gives.
 */
import { describe, expect, it } from 'vitest';
import type { Hono } from 'hono';
import { migrate } from './db/migrate.ts';
import { twoProcessesOnOnePg } from './test-app.ts';
import { pgAvailable } from './testing.ts';
import { makeBusiness, request, signIn, sseReader } from './test-fixtures.ts';

type Change = { collection: string; seq: number; id: string; deleted: boolean; doc: Record<string, unknown> | null };
type Page = { changes: Change[]; checkpoint: number; has_more: boolean };

async function pull(app: Hono, token: string, after: number, limit: number): Promise<Page> {
  const res = await request<Page>(app, 'GET', `/v1/auth/sync/changes?after=${after}&limit=${limit}`, { token });
  expect(res.status).toBe(200);
  return res.body;
}

/** Pulls forward from `after` to the end; the mirror it builds (last doc per collection and id) and the checkpoint. */
async function pullToEnd(app: Hono, token: string, after: number, limit: number, into = new Map<string, Change>()) {
  let checkpoint = after;
  for (let more = true; more;) {
    const page = await pull(app, token, checkpoint, limit);
    for (const c of page.changes) into.set(`${c.collection}:${c.id}`, c);
    checkpoint = page.checkpoint;
    more = page.has_more;
  }
  return { mirror: into, checkpoint };
}

describe.skipIf(!(await pgAvailable()))('feed and SSE across two server processes', () => {
  it('a write through process A reaches the stream and the feed of process B, and B\'s mirror equals A\'s', async () => {
    const procs = await twoProcessesOnOnePg();
    const { dbA, appA, appB } = procs;
    try {
      await migrate(dbA);
      const f = await makeBusiness(dbA, { transactions: 40 });
      const tokenA = await signIn(appA, f.email('admin'));
      const tokenB = await signIn(appB, f.email('admin'));
      // The client of B: a first page (B prepares the next one in the background), then its stream.
      const first = await pull(appB, tokenB, 0, 10);
      expect(first.has_more).toBe(true);
      const mirrorB = new Map(first.changes.map((c) => [`${c.collection}:${c.id}`, c]));
      const sse = sseReader(await appB.request('/v1/auth/sync/stream', { headers: { 'RAMP-ID-TOKEN': tokenB } }));
      await sse.until(() => sse.seqs().length >= 1);

      const target = f.allTransactions[0]!;
      const patched = await request(appA, 'PATCH', `/v1/auth/transactions/${target}`, {
        token: tokenA, body: { memo: 'written through A' }, headers: { 'Idempotency-Key': 'cluster-feed-1' },
      });
      expect(patched.status).toBe(200);
      const seq = Number(patched.body.change_seq);
      await sse.until(() => sse.seqs().includes(seq));
      await sse.cancel();

      const b = await pullToEnd(appB, tokenB, first.checkpoint, 10, mirrorB);
      expect(b.checkpoint).toBeGreaterThanOrEqual(seq);
      const written = b.mirror.get(`transactions:${target}`);
      expect(written?.seq).toBe(seq);
      expect(written?.doc?.memo).toBe('written through A');

      const a = await pullToEnd(appA, tokenA, 0, 500);
      expect(a.checkpoint).toBe(b.checkpoint);
      expect([...b.mirror.keys()].sort()).toEqual([...a.mirror.keys()].sort());
      for (const [key, change] of a.mirror) expect(b.mirror.get(key), key).toEqual(change);
      // And B answers a pull from zero with the same mirror too.
      expect((await pullToEnd(appB, tokenB, 0, 500)).mirror).toEqual(a.mirror);
    } finally {
      await procs.close();
    }
  });
});
