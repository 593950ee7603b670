/**
 * Issue 31, the vendor network on PostgreSQL across two API processes: racing invites of one email
 * leave one link; two accepts of one invite
 * end with one identity, one network vendor, one hidden spend user (the other refused, nothing
 * written); two concurrent ACH updates queue on the network vendor row, so the payer's vendor is
 * filled by one and the other becomes its one pending edit proposal.
 */
import { describe, expect, it } from 'vitest';
import { hashToken } from '../domain/admin-users.ts';
import { withPgBusiness } from '../test-pg-race.ts';
import { pgAvailable } from '../testing.ts';
import { makeVendor, refusal, request } from '../test-fixtures.ts';
import { ACH, ACH2, portalToken } from './vendor-network-test-kit.ts';

const TOKEN = 'race-token-0123456789abcdefghijklmnopqrstuv';
const EMAIL = 'race-vendor@acme.test';

describe.skipIf(!(await pgAvailable()))('vendor network races on PostgreSQL', () => {
  it('two accepts of one invite: one joins, the other is refused; racing ACH details: one fill, one proposal', async () => {
    await withPgBusiness({ transactions: 0 }, async ({ dbA, appA, appB, admin }) => {
      const vendorId = await makeVendor(appA, admin, 'Race vendor');
      // Two invites of one email racing (and two more): one link, re-invited in turn on the business row.
      const invites = await Promise.all([appA, appB, appA, appB].map((app) =>
        request(app, 'POST', `/v1/auth/vendors/${vendorId}/network-invite`, { token: admin, body: { email: EMAIL } })));
      for (const inv of invites) expect(inv.status, inv.text).toBe(201);
      expect(await dbA.query('SELECT status FROM network_vendor_links WHERE vendor_id = $1', [vendorId])).toEqual([{ status: 'INVITED' }]);
      // The mail is only in the log here (no dev outbox): give the link a token the test knows.
      await dbA.query('UPDATE network_vendor_links SET invite_token_hash = $2 WHERE vendor_id = $1', [vendorId, hashToken(TOKEN)]);
      const accept = (app: typeof appA) => request(app, 'POST', `/v1/public/vendor-network/invites/${TOKEN}/accept`, {
        body: { password: 'vendor-password-1', first_name: 'Race', last_name: 'Vendor' },
      });
      const answers = await Promise.all([accept(appA), accept(appB), accept(appA), accept(appB)]);
      expect(answers.filter((r) => r.status === 201)).toHaveLength(1);
      for (const r of answers.filter((x) => x.status !== 201)) expect(refusal(r)).toEqual([422, 'REQUEST_7001']);
      const counts = await dbA.query<{ identities: number; vendors: number; users: number }>(
        `SELECT (SELECT count(*)::int FROM identities WHERE email = $1) AS identities, (SELECT count(*)::int FROM network_vendors WHERE email = $1) AS vendors,
                (SELECT count(*)::int FROM spend_users WHERE email = $1 AND role = 'VENDOR_NETWORK_ADMIN') AS users`,
        [EMAIL],
      );
      expect(counts).toEqual([{ identities: 1, vendors: 1, users: 1 }]);

      const [who] = await dbA.query<{ identity_id: string; network_vendor_id: string }>(
        'SELECT a.identity_id::text, a.network_vendor_id::text FROM network_vendor_admins a JOIN network_vendors nv ON nv.id = a.network_vendor_id WHERE nv.email = $1', [EMAIL],
      );
      const sensitive = await portalToken(appA, dbA, who!.identity_id, who!.network_vendor_id, ['sensitive']);
      const [r1, r2] = await Promise.all([
        request(appA, 'POST', '/v1/auth/vendor-network/ach-details', { token: sensitive, body: ACH }),
        request(appB, 'POST', '/v1/auth/vendor-network/ach-details', { token: sensitive, body: ACH2 }),
      ]);
      expect([r1.status, r2.status]).toEqual([200, 200]);
      const outcomes = [r1.body.payers[0].outcome, r2.body.payers[0].outcome].sort();
      expect(outcomes).toEqual(['filled', 'proposed']);
      const proposals = await dbA.query<{ fields: { bank: { account_last_four: string } } }>(
        `SELECT fields FROM vendor_edit_proposals WHERE vendor_id = $1 AND status = 'PENDING'`, [vendorId],
      );
      expect(proposals).toHaveLength(1);
      const [payer] = await dbA.query<{ last: string }>('SELECT bank_account_last_four AS last FROM vendors WHERE id = $1', [vendorId]);
      const [nv] = await dbA.query<{ last: string }>('SELECT bank_account_last_four AS last FROM network_vendors WHERE id = $1', [who!.network_vendor_id]);
      // The later write is the network vendor's and the proposal's; the earlier one filled the payer.
      expect(proposals[0]!.fields.bank.account_last_four).toBe(nv!.last);
      expect(payer!.last).not.toBe(nv!.last);
    });
  });
});
