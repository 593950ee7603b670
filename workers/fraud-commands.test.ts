import { describe, expect, it } from 'vitest';
import type { Card } from '../schema/entities/card.ts';
import type { Transaction } from '../schema/entities/transaction.ts';
import { jsonResponse } from '../sync/testing.ts';
import { makeCard, makeTransaction, testUuid } from './test-fixtures.ts';
import { feedChange as put, mirrorDevice, outboxOver } from './testing/mirror-device.ts';

/**
 * The fraud answer in the worker (issue 24): made offline, the transaction shows answered and a
 * NOT_RECOGNIZED card shows LOCKED at once (pending); back online, the answer is the first request
 * sent, before an older queued edit; a RECOGNIZED answer leaves the card alone.
 */
const ACTOR = { user_id: testUuid(2, 1), business_id: testUuid(0xb, 1) };
const CARD = testUuid(7, 1);
const HELD = testUuid(1, 1);
const OTHER = testUuid(1, 2);

const device = (name: string) => mirrorDevice(name, ACTOR)();

const card: Card = { ...makeCard(1, 1), change_seq: 1 };
const held: Transaction = makeTransaction({ id: HELD, card_id: CARD, amount: 81_240, fraud_status: 'FLAGGED', fraud_reasons: ['AMOUNT_ABOVE_USUAL'], change_seq: 2 });
const other: Transaction = makeTransaction({ id: OTHER, card_id: CARD, change_seq: 3 });

async function seeded(name: string) {
  const rt = await device(name);
  await rt.mirror.applyChanges([put('cards', card), put('transactions', held), put('transactions', other)], { seq: 3, epoch: 'e' });
  return rt;
}

describe('answering a held charge offline', () => {
  it("NOT_RECOGNIZED shows the answer and the card locked at once, and is sent before an older queued edit", async () => {
    const rt = await seeded('fraud-offline');
    expect((await rt.commands.run('transaction.code', { transaction_id: OTHER, patch: { memo: 'Team lunch' } })).result.ok).toBe(true);
    const { result } = await rt.commands.run('transaction.fraudResponse', { transaction_id: HELD, response: 'NOT_RECOGNIZED' });
    expect(result).toMatchObject({ ok: true });
    expect(await rt.get('transactions', HELD)).toMatchObject({ fraud_status: 'NOT_RECOGNIZED', pending: 'pending' });
    expect(await rt.get('cards', CARD)).toMatchObject({ status: 'LOCKED', pending: 'pending' });

    const answered = { response: 'NOT_RECOGNIZED', transaction: { ...held, fraud_status: 'NOT_RECOGNIZED', change_seq: 4 }, card: { ...card, status: 'LOCKED', change_seq: 5 },
      card_locked: true, dispute: null, reissue: null, change_seq: 5 };
    const net = outboxOver(rt, [jsonResponse(200, answered), jsonResponse(200, { ...other, memo: 'Team lunch', change_seq: 6 })]);
    net.outbox.kick();
    await net.outbox.whenIdle();
    expect(net.transport.requests.map((r) => `${r.method} ${r.url}`)).toEqual([
      `POST http://api.test/v1/auth/transactions/${HELD}/fraud-response`,
      `PATCH http://api.test/v1/auth/transactions/${OTHER}`,
    ]);
    expect(net.transport.requests[0]!.body).toEqual({ response: 'NOT_RECOGNIZED' });
  });

  it('RECOGNIZED clears the hold and leaves the card active', async () => {
    const rt = await seeded('fraud-recognized');
    expect((await rt.commands.run('transaction.fraudResponse', { transaction_id: HELD, response: 'RECOGNIZED' })).result.ok).toBe(true);
    expect(await rt.get('transactions', HELD)).toMatchObject({ fraud_status: 'RECOGNIZED' });
    expect(await rt.get('cards', CARD)).toMatchObject({ status: 'ACTIVE', pending: null });
  });

  it('a transaction that is not held shows no change', async () => {
    const rt = await seeded('fraud-not-held');
    await rt.commands.run('transaction.fraudResponse', { transaction_id: OTHER, response: 'NOT_RECOGNIZED' });
    expect(await rt.get('transactions', OTHER)).toMatchObject({ fraud_status: null });
  });
});
