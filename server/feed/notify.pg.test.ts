/**
 * Several API processes on one PostgreSQL: each has its own pool and LISTEN connection, and a
 * write through one reaches the SSE streams of another (the scale-out promise). Also: processes
 * starting together run the migrations once.
 */
import { describe, expect, it } from 'vitest';
import { loadMigrations, migrate } from '../db/migrate.ts';
import { twoProcessesOnOnePg } from '../test-app.ts';
import { pgAvailable } from '../testing.ts';
import { makeBusiness, request, signIn, sseReader } from '../test-fixtures.ts';

describe.skipIf(!(await pgAvailable()))('two API processes on one PostgreSQL', () => {
  it('migrates once when processes start together, and fans writes out through LISTEN/NOTIFY', async () => {
    const procs = await twoProcessesOnOnePg();
    const { dbA, dbB, appA, appB } = procs;
    try {
      const [appliedA, appliedB] = await Promise.all([migrate(dbA), migrate(dbB)]);
      const all = (await loadMigrations()).map((m) => m.name);
      expect([...appliedA, ...appliedB].sort()).toEqual(all.sort());

      const f = await makeBusiness(dbA, { transactions: 5 });
      const tokenB = await signIn(appB, f.email('employee'));
      const tokenA = await signIn(appA, f.email('admin'));
      const sse = sseReader(await appB.request('/v1/auth/sync/stream', { headers: { 'RAMP-ID-TOKEN': tokenB } }));
      await sse.until(() => sse.seqs().length >= 1);
      const patched = await request(appA, 'PATCH', `/v1/auth/transactions/${f.allTransactions[0]}`, { token: tokenA, body: { memo: 'from A' } });
      expect(patched.status).toBe(200);
      await sse.until(() => sse.seqs().length >= 2);
      expect(sse.seqs().at(-1)).toBe(patched.body.change_seq);
      await sse.cancel();
    } finally {
      await procs.close();
    }
  });
});
