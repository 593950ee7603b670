import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDb, type TestDb } from './test-db.ts';
import { TEST_TOKEN_SECRET } from './test-app.ts';
import { makeBusiness, signIn, sseReader } from './test-fixtures.ts';
import { listen } from './serve.ts';

describe('listen', () => {
  let t: TestDb;
  beforeAll(async () => {
    t = await openTestDb('pglite');
  });
  afterAll(() => t.close());

  it('serves over HTTP and closes promptly even with an open event stream', async () => {
    const server = await listen({ db: t.db, tokenSecret: TEST_TOKEN_SECRET, host: '127.0.0.1', port: 0 });
    const f = await makeBusiness(t.db, { transactions: 2 });
    const token = await signIn(server.app, f.email('admin'));
    const res = await fetch(`${server.url}/v1/auth/sync/stream`, { headers: { 'RAMP-ID-TOKEN': token } });
    const sse = sseReader(res);
    await sse.until(() => sse.seqs().length === 1);
    const started = performance.now();
    await server.close();
    expect(performance.now() - started).toBeLessThan(1_500);
    await expect(sse.until(() => false)).rejects.toThrow(/stream ended/);
  });
});
