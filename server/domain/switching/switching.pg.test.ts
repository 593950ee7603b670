/**
 * A vendor moves onto exactly one card: eight requests racing through two API processes on one
 * PostgreSQL (with and without Idempotency-Keys) make one card and link it.
 */
import { describe, expect, it } from 'vitest';
import { withPgBusiness } from '../../test-pg-race.ts';
import { pgAvailable } from '../../testing.ts';
import { request } from '../../test-fixtures.ts';

const CSV = 'Date,Description,Amount\n09/03/2026,LINEAR APP,8.00\n10/03/2026,LINEAR APP,8.00';

describe.skipIf(!(await pgAvailable()))('switching races on PostgreSQL', () => {
  it('issues one card for a vendor however many requests race', async () => {
    await withPgBusiness({ transactions: 0 }, async ({ dbA, appA, appB, admin, f }) => {
      const up = await request(appA, 'POST', '/v1/auth/switching/statements', { token: admin, rawBody: CSV, headers: { 'content-type': 'text/csv' } });
      expect(up.status, up.text).toBe(201);
      const vendor = up.body.overview.data[0].id as string;
      const body = { user_id: f.users.admin, limit: { amount: 900, interval: 'MONTHLY' } };
      const racers = await Promise.all(Array.from({ length: 8 }, (_, i) =>
        request(i % 2 ? appB : appA, 'POST', `/v1/auth/switching/vendors/${vendor}/card`, {
          token: admin, body, headers: i < 4 ? { 'Idempotency-Key': `k-${i % 2}` } : {},
        })));
      for (const r of racers) expect([200, 201, 409]).toContain(r.status);
      const ids = new Set(racers.filter((r) => r.status < 300).map((r) => r.body.card.id));
      expect(ids.size).toBe(1);
      const cards = await dbA.query<{ id: string }>(`SELECT id::text FROM cards WHERE business_id = $1 AND display_name = 'Linear App'`, [f.businessId]);
      expect(cards.map((c) => c.id)).toEqual([...ids]);
      const linked = await dbA.query<{ card_id: string }>('SELECT card_id::text FROM switching_vendors WHERE id = $1', [vendor]);
      expect(linked[0]!.card_id).toBe(cards[0]!.id);
    });
  });
});
