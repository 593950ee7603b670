import { describe, expect, it } from 'vitest';
import { testDatabases } from '../test-db.ts';
import { useTestApp } from '../test-app.ts';
import { appCall, fillApplication, startApplication } from './application-test-kit.ts';
import { OPS_REVIEW_USAGE, runOpsReview } from '../domain/applications/ops-review.ts';

let n = 0;
const fresh = () => `ops-${Date.now()}-${++n}@example.test`;

describe.each(await testDatabases())('ops:review on %s', (kind) => {
  const t = useTestApp(kind, { devOutbox: true });

  async function inReview() {
    const who = await startApplication(t.app, fresh());
    await fillApplication(t.app, who, { ownerName: 'Marta Verbotene' });
    expect((await appCall(t.app, who, 'PATCH', '/submit', {})).body.status).toBe('MANUAL_REVIEW');
    return who;
  }

  it('approve makes the business, clears the applicant\'s flag; a second review is refused', async () => {
    const who = await inReview();
    const line = await runOpsReview(t.db, [who.appId, 'approve'], new Date());
    const [row] = await t.db.query<{ status: string; business_id: string }>('SELECT status, business_id::text FROM financing_applications WHERE id = $1', [who.appId]);
    expect(row!.status).toBe('APPROVED');
    expect(line).toBe(`Application ${who.appId} approved: business ${row!.business_id}.`);
    expect(await t.db.query('SELECT role FROM spend_users WHERE business_id = $1', [row!.business_id])).toEqual([{ role: 'BUSINESS_OWNER' }]);
    expect(await t.db.query('SELECT ofac_status FROM identities WHERE lower(email) = $1', [who.email])).toEqual([{ ofac_status: 'PASSED' }]);
    expect((await appCall(t.app, who, 'GET', '')).body.decision.outcome).toBe('APPROVED');
    await expect(runOpsReview(t.db, [who.appId, 'reject'], new Date())).rejects.toThrow('is APPROVED, not in manual review');
  });

  it('reject ends it with no business, the flag kept; bad arguments print the usage', async () => {
    const who = await inReview();
    expect(await runOpsReview(t.db, [who.appId, 'reject'], new Date())).toBe(`Application ${who.appId} rejected.`);
    expect(await t.db.query('SELECT status, business_id FROM financing_applications WHERE id = $1', [who.appId])).toEqual([{ status: 'REJECTED', business_id: null }]);
    expect(await t.db.query('SELECT ofac_status FROM identities WHERE lower(email) = $1', [who.email])).toEqual([{ ofac_status: 'MANUAL_REVIEW' }]);
    for (const args of [[], [who.appId, 'maybe'], ['not-a-uuid', 'approve'], [who.appId, 'approve', 'extra']]) {
      await expect(runOpsReview(t.db, args, new Date())).rejects.toThrow(OPS_REVIEW_USAGE);
    }
  });
});
