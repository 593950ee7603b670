import { describe, expect, it } from 'vitest';
import type { Bill } from '../schema/entities/bill.ts';
import type { Change } from '../schema/sync-feed.ts';
import { createHttpClient } from '../sync/http.ts';
import { createOutbox } from '../sync/outbox.ts';
import { createFakeClock, fakeToken, jsonResponse, scriptedTransport } from '../sync/testing.ts';
import type { MirrorRuntime } from './mirror-runtime.ts';
import { makeBill, testUuid } from './test-fixtures.ts';
import { mirrorDevice } from './testing/mirror-device.ts';

/**
 * Issue 25 item 8 across a reload: a refusal is moot once the server's row changed after the
 * refusal was first shown. What it was shown against is kept in the mirror's meta store, so a
 * reload between the refusal and the feed's change still recognises it (in memory only, the
 * reloaded worker took the changed row for the first sighting and showed the refusal again).
 */
const ACTOR = { user_id: testUuid(2, 1), business_id: testUuid(0xb, 1) };

const device = (name: string) => mirrorDevice(name, ACTOR);

const put = (doc: Bill): Change => ({ collection: 'bills', seq: doc.change_seq, id: doc.id, deleted: false, doc }) as Change;
const serverRows = (rt: MirrorRuntime, docs: Bill[]) =>
  rt.mirror.applyChanges(docs.map(put), { seq: Math.max(...docs.map((d) => d.change_seq)), epoch: 'e' });
const paid = (bill: Bill, seq: number): Bill => ({ ...bill, status: 'PAID', payment_attempt: 1, change_seq: seq });

/** Pays both bills now; the server refuses each (200, per-item refusal). Answers the entries' ids. */
async function refusedPayments(rt: MirrorRuntime, bills: Bill[]): Promise<string[]> {
  const ids: string[] = [];
  for (const bill of bills) {
    const { result } = await rt.commands.run('bill.payNow', { bill_ids: [bill.id] });
    if (!result.ok) throw new Error('refused locally');
    ids.push(result.command_id);
  }
  const clock = createFakeClock(Date.now() + 1_000);
  const transport = scriptedTransport(bills.map((b) =>
    jsonResponse(200, { results: [{ id: b.id, ok: false, error_v2: { error_code: 'REQUEST_7001', message: 'Cannot be paid now.' } }] })));
  const session = { getToken: () => fakeToken(['default', 'low-risk']), onUnauthorized: () => undefined };
  const http = createHttpClient({ baseUrl: 'http://api.test', transport, clock, session });
  const outbox = createOutbox({ store: rt.outboxStore, http, optimistic: rt.mirror, clock, session });
  outbox.kick();
  await outbox.whenIdle();
  return ids;
}

const mootRecords = async (rt: MirrorRuntime) =>
  (await rt.db.meta.find().exec()).filter((d) => d.id.startsWith('moot|')).map((d) => [d.id.slice(5), d.value]);

describe('a moot refusal after a reload (issue 25 leftover)', () => {
  it('is recognised from the stored sighting: the feed’s changed row after the reload clears it; an unchanged row keeps its refusal', async () => {
    const open = device('moot-reload');
    const rt = await open();
    const bill = makeBill(5, 1, { status: 'APPROVED' });
    const other = makeBill(6, 1, { status: 'APPROVED' });
    await serverRows(rt, [bill, other]);
    const [id, otherId] = await refusedPayments(rt, [bill, other]);
    // Shown failed (first sighting: the rows as they were, seq 5 and 6), with Retry.
    await expect.poll(async () => (await rt.get('bills', bill.id))?.pending).toBe('failed');
    expect(await rt.get('bills', other.id)).toMatchObject({ pending: 'failed' });
    await expect.poll(() => mootRecords(rt)).toEqual(expect.arrayContaining([[id, 5], [otherId, 6]]));
    await rt.close();

    // Reload; the feed then brings the bill PAID (paid elsewhere): paying it again changes nothing.
    const again = await open();
    await serverRows(again, [paid(bill, 30)]);
    expect(await again.get('bills', bill.id)).toMatchObject({ status: 'PAID', pending: null, failure: null });
    await expect.poll(async () => again.outboxStore.get(id!)).toBeNull();
    await expect.poll(() => again.outboxIndex.counts().failed).toBe(1);
    // Its record goes with it; the other bill did not change on the server: still refused, with Retry.
    await expect.poll(() => mootRecords(again)).toEqual([[otherId, 6]]);
    expect(await again.get('bills', other.id)).toMatchObject({ status: 'APPROVED', pending: 'failed', failure: { command_id: otherId } });
  });

  it('drops a record whose entry left the outbox while the worker was away', async () => {
    const open = device('moot-prune');
    const rt = await open();
    const bill = makeBill(7, 1, { status: 'APPROVED' });
    await serverRows(rt, [bill]);
    const [id] = await refusedPayments(rt, [bill]);
    await expect.poll(async () => (await rt.get('bills', bill.id))?.pending).toBe('failed');
    await expect.poll(() => mootRecords(rt)).toEqual([[id, 7]]);
    // Removed behind the runtime's back (as a crash between the removal and the record's would leave it).
    await rt.db.outbox.findOne(id!).exec().then((doc) => doc?.remove());
    await rt.db.meta.upsert({ id: `moot|${id}`, value: 7 });
    await rt.close();
    const again = await open();
    await expect.poll(() => mootRecords(again)).toEqual([]);
  });
});
