import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { listMissingItems, type MissingItem } from '../../schema/api/calls-expense-policies.ts';
import {
  evaluatePolicies, fixableViolations, inWizardClaim, inWizardTransaction, itemKey, policyItemFromReimbursement, policyItemFromTransaction,
  type EvaluatedPolicy, type PolicyItem, type PolicyPerson,
} from '../../schema/expense-policy.ts';
import { Rng } from '../seed/prng.ts';
import { testDatabases } from '../test-db.ts';
import { useTestApp } from '../test-app.ts';
import { request, useTwoBusinesses } from '../test-fixtures.ts';
import { attachReceipt, insertClaim, insertTx, rules } from './expense-policies-test-kit.ts';

/**
 * The wizard's SQL filter (domain/expense-policies/items.ts `fixableSql`) against the evaluator:
 * random items of one person (states, refunds, currencies, blank memos of every kind, receipts,
 * coding, exported or not; claims of every status and type) under random policies (thresholds per
 * currency, coding, scopes, enabled or not), round after round. The server's list, walked page by
 * page, must be exactly what `evaluatePolicies` + `fixableViolations` say over the same rows,
 * computed here from what was inserted, newest first.
 */
const ROUNDS = 12;
const NOW = '2026-11-20T12:00:00Z';
const MEMOS = [null, '', '   ', '\u00a0', '\t\n', '\u2003', 'Client lunch'];

describe.each(await testDatabases())('the wizard\'s SQL agrees with the evaluator on %s', (kind) => {
  const t = useTestApp(kind, { now: () => Date.parse(NOW) });
  const two = useTwoBusinesses(t, ['employee']);

  it(`lists exactly what the evaluator finds fixable, over ${ROUNDS} rounds of random policies`, async () => {
    const { a } = two;
    const rng = new Rng(29, 'missing-items-agreement');
    const pick = <T>(xs: readonly T[]) => xs[rng.int(0, xs.length - 1)]!;
    const items: { item: PolicyItem; at: string; wizard: boolean }[] = [];
    for (let i = 0; i < 60; i++) {
      const at = new Date(Date.parse('2026-11-10T00:00:00Z') + rng.int(0, 5 * 24) * 3_600_000).toISOString();
      const spec = {
        amount: rng.chance(0.1) ? -rng.int(100, 5000) : rng.int(1, 20000), at, currency: pick(['USD', 'USD', 'EUR']),
        state: pick(['CLEARED', 'CLEARED', 'PENDING', 'DECLINED', 'REVERSED']), memo: pick(MEMOS), category: pick(['Restaurants', 'Travel']),
        gl: rng.chance(0.5) ? a.glAccounts.active[0]! : null, department: rng.chance(0.5) ? a.departments[1]! : null,
        location: rng.chance(0.5) ? a.locations[0]! : null, synced: rng.chance(0.15),
      };
      const id = await insertTx(t.db, a, 'employee', spec);
      const receipt_ids = rng.chance(0.4) ? [await attachReceipt(t.db, a, 'employee', id)] : [];
      const row = {
        id, user_id: a.users.employee, amount: spec.amount, currency: spec.currency, occurred_at: at, state: spec.state,
        merchant_category: spec.category, memo: spec.memo, receipt_ids, gl_account_id: spec.gl, department_id: spec.department,
        location_id: spec.location, accounting_synced_at: spec.synced ? at : null,
      };
      const item = policyItemFromTransaction(row);
      if (item) items.push({ item, at, wizard: inWizardTransaction(row) });
    }
    for (let i = 0; i < 25; i++) {
      const date = `2026-11-1${rng.int(0, 5)}`;
      const type = pick(['OUT_OF_POCKET', 'OUT_OF_POCKET', 'MILEAGE', 'PER_DIEM'] as const);
      const spec = {
        amount: rng.int(1, 20000), date, type, status: pick(['DRAFT', 'REJECTED', 'SUBMITTED', 'APPROVED', 'CANCELED']), memo: pick(MEMOS),
        receipts: type === 'OUT_OF_POCKET' && rng.chance(0.4) ? [randomUUID()] : [],
        gl: rng.chance(0.5) ? a.glAccounts.active[0]! : null, department: rng.chance(0.5) ? a.departments[1]! : null,
      };
      const id = await insertClaim(t.db, a, 'employee', spec);
      const row = {
        id, user_id: a.users.employee, amount: spec.amount, currency: 'USD', transaction_date: date, status: spec.status, type, memo: spec.memo,
        receipt_ids: spec.receipts, gl_account_id: spec.gl, department_id: spec.department, distance_miles: type === 'MILEAGE' ? 12 : null,
        start_date: type === 'PER_DIEM' ? date : null, end_date: type === 'PER_DIEM' ? date : null,
      };
      const item = policyItemFromReimbursement(row);
      if (item) items.push({ item, at: `${date}T00:00:00.000Z`, wizard: inWizardClaim(row) });
    }
    const person: PolicyPerson = { id: a.users.employee, role: 'BUSINESS_USER', department_id: a.departments[0]! };
    const money = () => (rng.chance(0.6) ? { amount: rng.int(0, 15000), currency: pick(['USD', 'EUR']) } : null);

    let nonEmpty = 0;
    for (let round = 0; round < ROUNDS; round++) {
      await t.db.query('UPDATE expense_policies SET deleted = true WHERE business_id = $1', [a.businessId]);
      const policies: EvaluatedPolicy[] = Array.from({ length: rng.int(1, 3) }, (_, i) => ({
        id: randomUUID(), name: `Round ${round} policy ${i}`, enabled: rng.chance(0.85),
        scope: pick([{ kind: 'everyone' }, { kind: 'departments', department_ids: [a.departments[0]!] }, { kind: 'departments', department_ids: [a.departments[2]!] },
          { kind: 'roles', roles: ['BUSINESS_USER'] }, { kind: 'roles', roles: ['BUSINESS_ADMIN'] }] as const),
        rules: rules({
          receipt_required_from: money(), memo_required_above: money(),
          coding_required: { gl_account: rng.chance(0.2), department: rng.chance(0.2), location: rng.chance(0.2) },
        }),
      }));
      for (const [i, p] of policies.entries()) {
        await t.db.query(
          `INSERT INTO expense_policies (id, business_id, name, scope, rules, enabled, created_by, created_at, change_seq)
           VALUES ($1, $2, $3, $4::jsonb, $5::jsonb, $6, $7, $8, (SELECT change_seq FROM businesses WHERE id = $2))`,
          [p.id, a.businessId, p.name, JSON.stringify(p.scope), JSON.stringify(p.rules), p.enabled, a.users.employee,
            new Date(Date.parse(NOW) + round * 60_000 + i * 1000).toISOString()],
        );
      }
      const found = evaluatePolicies(items.map((x) => x.item), policies, new Map([[person.id, person]]));
      const expected = items
        .filter((x) => x.wizard && fixableViolations(found.get(itemKey(x.item)) ?? []).length > 0)
        .sort((x, y) => y.at.localeCompare(x.at) || y.item.id.localeCompare(x.item.id))
        .map((x) => [x.item.id, fixableViolations(found.get(itemKey(x.item))!).map((v) => `${v.code}:${v.policy_id}`)]);
      const got: MissingItem[] = [];
      let start: string | null = null;
      let total = -1;
      do {
        const res: { status: number; text: string; body: { data: MissingItem[]; total_count: number; page: { next: string | null } } } = await request(t.app, 'GET', `${listMissingItems.path}?page_size=7${start ? `&start=${start}` : ''}`, { token: two.tokens.employee });
        expect(res.status, res.text).toBe(200);
        got.push(...res.body.data);
        total = res.body.total_count;
        start = res.body.page.next;
      } while (start);
      expect(got.map((g) => [g.object_id, g.violations.map((v) => `${v.code}:${v.policy_id}`)]), `round ${round}`).toEqual(expected);
      expect(total, `round ${round}`).toBe(expected.length);
      if (expected.length > 0) nonEmpty += 1;
    }
    // The rounds exercise the filter: most find something, not all.
    expect(nonEmpty).toBeGreaterThan(ROUNDS / 2);
  });
});
