import { randomUUID } from 'node:crypto';
import type { Hono } from 'hono';
import { AUTOMATION_CALLS, TREASURY_CALLS } from '../schema/api/calls-treasury.ts';
import { BANKING_CALLS } from '../schema/api/calls-banking.ts';
import { FLOAT_CALLS } from '../schema/api/calls-float.ts';
import { CARD_AUTOPAY_CALLS } from '../schema/api/calls-card-autopay.ts';
import type { Db } from './db/db.ts';
import { seedAutomation } from './domain/treasury/automation-test-kit.ts';
import { linkBank, openWallet } from './routes/treasury-test-kit.ts';

/**
 * Issue 30's part of tenant-isolation.test.ts: the calls only admins reach (TREASURY_7001, flex's
 * FLEX_7001 / FORBIDDEN_7003: the fixture has no AP clerk) and the victim's treasury rows.
 * The statement upload is left out of the role walk: the generated request is JSON, refused 415
 * before any role check (routes/banking.test.ts proves its TREASURY_7001).
 */
export const TREASURY_ROLE_GATED: readonly string[] = [
  ...TREASURY_CALLS, ...AUTOMATION_CALLS, ...FLOAT_CALLS, ...CARD_AUTOPAY_CALLS, ...BANKING_CALLS.filter((c) => c.id !== 'banking.statement.upload'),
].map((c) => c.id);

/** A's wallet: two funded accounts, a pending transfer between them, a verified bank account, a sweep policy with a failed run. */
export async function seedTreasury(db: Db, app: Hono, f: { businessId: string; admin: string; tag: string; token: string }) {
  const wallet = await openWallet(db, f.businessId, 500_000);
  const bank = await linkBank(db, f.businessId, { name: `Bank ${f.tag}` });
  const transfer = randomUUID();
  const created = await app.request(`/v1/auth/treasury/business-accounts/${wallet.operating}/transfers`, {
    method: 'POST', headers: { 'RAMP-ID-TOKEN': f.token, 'content-type': 'application/json' },
    body: JSON.stringify({ id: transfer, to_account_id: wallet.reserve, amount: { amount: 1_000, currency: 'USD' }, memo: `Transfer ${f.tag}` }),
  });
  if (created.status !== 201) throw new Error(`A's transfer: ${created.status} ${await created.text()}`);
  const automation = await seedAutomation(db, { businessId: f.businessId, admin: f.admin, tag: f.tag, accounts: wallet });
  return {
    pool: { ...automation, walletTransfers: [transfer], bankAccounts: [bank] },
    owned: [...automation.walletAccounts, ...automation.automationPolicies, transfer, bank],
  };
}
