/**
 * Vendors under concurrency (issue 11): two API processes sharing one PostgreSQL. Merges naming
 * overlapping payees in opposite orders neither deadlock nor half-apply (every payee is locked in
 * id order after the business row), and bulk uploads of one sheet racing create each vendor once.
 */
import { describe, expect, it } from 'vitest';
import { withPgBusiness } from '../test-pg-race.ts';
import { pgAvailable } from '../testing.ts';
import { request } from '../test-fixtures.ts';

const VENDORS = '/v1/auth/vendors';

describe.skipIf(!(await pgAvailable()))('vendor races on PostgreSQL', () => {
  it('settles racing merges one way, and creates a raced sheet once', async () => {
    await withPgBusiness({ transactions: 0 }, async ({ dbA, appA, appB, f, admin }) => {
    const ids: string[] = [];
    for (const name of ['Race P', 'Race Q', 'Race R']) {
      const res = await request(appA, 'POST', VENDORS, { token: admin, body: { name, contacts: [{ name: `${name} contact` }] } });
      expect(res.status, res.text).toBe(201);
      ids.push(res.body.id);
    }
    const [p, q, r] = ids as [string, string, string];
    // P absorbs Q and R while R absorbs P and Q: exactly one can win.
    const [one, two] = await Promise.all([
      request(appA, 'POST', `${VENDORS}/merge-payees`, { token: admin, body: { survivor_payee_id: p, merged_payee_ids: [q, r] } }),
      request(appB, 'POST', `${VENDORS}/merge-payees`, { token: admin, body: { survivor_payee_id: r, merged_payee_ids: [q, p] } }),
    ]);
    expect([one.status, two.status].sort(), `${one.text} ${two.text}`).toEqual([200, 404]);
    const live = await dbA.query<{ id: string }>('SELECT id::text FROM vendors WHERE business_id = $1 AND NOT deleted', [f.businessId]);
    expect(live).toHaveLength(1);
    const contacts = await dbA.query<{ vendor_id: string }>('SELECT DISTINCT vendor_id::text FROM vendor_contacts WHERE business_id = $1', [f.businessId]);
    expect(contacts).toEqual(live.map((v) => ({ vendor_id: v.id })));

    const rows = Array.from({ length: 20 }, (_, i) => ({ name: `Sheet ${i}` }));
    const uploads = await Promise.all([appA, appB, appA, appB].map((app) =>
      request(app, 'POST', `${VENDORS}/bulk-upload`, { token: admin, body: { rows } })));
    for (const u of uploads) expect([200, 201, 422]).toContain(u.status);
    expect(uploads.filter((u) => u.status === 201)).toHaveLength(1);
    const sheet = await dbA.query<{ n: number }>(`SELECT count(*) AS n FROM vendors WHERE business_id = $1 AND name LIKE 'Sheet %'`, [f.businessId]);
    expect(Number(sheet[0]!.n)).toBe(20);
    });
  });
});
