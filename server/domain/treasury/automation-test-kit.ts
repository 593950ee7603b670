import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/db.ts';
import { fund, openWalletAccount } from '../../ledger/ledger.ts';

/**
 * Issue 30 (sweeps): the victim's operating and reserve wallet accounts (the operating one funded)
 * and a SWEEP_ABOVE policy between them with a FAILED, unacknowledged run (so acknowledging,
 * replacing and deleting all have a target).
 */
export async function seedAutomation(
  db: Db, f: { businessId: string; admin: string; tag: string; accounts?: { operating: string; reserve: string } },
): Promise<{ walletAccounts: string[]; automationPolicies: string[] }> {
  const policy = randomUUID();
  const at = new Date('2026-01-05T12:00:00Z');
  const accounts = await db.transaction(async (tx) => {
    // The victim's own accounts when the caller opened them (one primary OPERATING per currency).
    const { operating, reserve } = f.accounts ?? {
      operating: await openWalletAccount(tx, { businessId: f.businessId, kind: 'OPERATING', currency: 'USD', name: `Operating ${f.tag}`, primary: true, at }),
      reserve: await openWalletAccount(tx, { businessId: f.businessId, kind: 'RESERVE', currency: 'USD', name: `Reserve ${f.tag}`, at }),
    };
    if (!f.accounts) await fund(tx, { businessId: f.businessId, account: operating, amount: 500_000, currency: 'USD', key: `isolation:${f.tag}`, at });
    await tx.query(
      `INSERT INTO automation_policies (id, business_id, kind, account_id, target_account_id, threshold, target, currency, created_by)
       VALUES ($1, $2, 'SWEEP_ABOVE', $3, $4, 100000, 50000, 'USD', $5)`,
      [policy, f.businessId, operating, reserve, f.admin],
    );
    await tx.query(
      `INSERT INTO automation_runs (id, business_id, policy_id, run_day, status, amount, currency, failure_reason)
       VALUES ($1, $2, $3, '2026-01-04', 'FAILED', 1000, 'USD', $4)`,
      [randomUUID(), f.businessId, policy, `Refused ${f.tag}`],
    );
    return [operating, reserve];
  });
  return { walletAccounts: accounts, automationPolicies: [policy] };
}
