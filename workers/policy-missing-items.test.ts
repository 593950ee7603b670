import { describe, expect, it } from 'vitest';
import { expensePolicySchema } from '../schema/entities/expense-policy.ts';
import { defaultPolicyRules } from '../schema/expense-policy.ts';
import { jsonResponse } from '../sync/testing.ts';
import { missingItemsFrom } from './handlers/policy-handlers.ts';
import { makeTransaction, makeUser, testUuid } from './test-fixtures.ts';
import { feedChange, mirrorDevice, outboxOver, serverRows } from './testing/mirror-device.ts';

/**
 * The missing-items list over a real mirror (issue 29): a 100 USD charge under a policy asking a
 * memo above 75 USD is listed; the memo saved offline takes it off at once (the row as shown),
 * and neither the server's answer nor the feed's row brings it back.
 */
const ME = makeUser(1, 'Emma', 'Employee');
const ACTOR = { user_id: ME.id, business_id: ME.business_id };
const TXN = testUuid(1, 1);
const policy = expensePolicySchema.parse({
  id: testUuid(0x29, 1), name: 'Company expense policy', description: null, scope: { kind: 'everyone' },
  rules: { ...defaultPolicyRules(), receipt_required_from: null, memo_required_above: { amount: 7500, currency: 'USD' } },
  enabled: true, created_by: ME.id, created_at: '2026-11-01T00:00:00.000Z', updated_by: null,
  business_id: ME.business_id, change_seq: 2, updated_at: '2026-11-01T00:00:00.000Z', deleted: false,
});

describe('missing items from the mirror', () => {
  it('lists the charge, drops it at once when the memo is saved offline, and never lists it again as the server confirms', async () => {
    const rt = await mirrorDevice('missing-items', ACTOR)();
    const charge = makeTransaction({ id: TXN, user_id: ME.id, amount: 10_000, change_seq: 3 });
    await serverRows(rt, [feedChange('users', ME), feedChange('expense_policies', policy), feedChange('transactions', charge)]);
    expect((await missingItemsFrom(rt, ME.id)).items).toMatchObject([{ object_id: TXN, merchant: 'Starbucks', violations: [{ code: 'missing_memo' }] }]);

    const { result } = await rt.commands.run('transaction.code', { transaction_id: TXN, patch: { memo: 'Team lunch' } });
    expect(result).toMatchObject({ ok: true });
    expect(await missingItemsFrom(rt, ME.id)).toEqual({ items: [], total: 0 });

    const stored = { ...charge, memo: 'Team lunch', change_seq: 4 };
    const net = outboxOver(rt, [jsonResponse(200, stored)]);
    net.outbox.kick();
    await net.outbox.whenIdle();
    expect(net.transport.requests).toHaveLength(1);
    expect(await missingItemsFrom(rt, ME.id)).toEqual({ items: [], total: 0 });
    await serverRows(rt, [feedChange('transactions', stored)]);
    expect(await missingItemsFrom(rt, ME.id)).toEqual({ items: [], total: 0 });
    // Another person's charge is never the signed-in person's missing item.
    await serverRows(rt, [feedChange('transactions', makeTransaction({ id: testUuid(1, 2), user_id: testUuid(2, 9), amount: 10_000, change_seq: 5 }))]);
    expect((await missingItemsFrom(rt, ME.id)).total).toBe(0);
  });
});
