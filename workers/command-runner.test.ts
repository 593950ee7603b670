import { describe, expect, it } from 'vitest';
import { COMMAND_NAMES, COMMANDS, type CommandInput, type CommandName } from '../schema/commands/index.ts';
import { BULK_CODE_MAX } from '../schema/constants.ts';
import type { MirroredCollection } from '../schema/sync-feed.ts';
import type { EntityRefs, OutboxEntry } from '../sync/ports.ts';
import { CommandRunner } from './command-runner.ts';
import { OutboxIndex } from './outbox-index.ts';
import { testUuid } from './test-fixtures.ts';

const ROW = (n: number) => testUuid(1, n);
const GL = testUuid(5, 1);

/** One valid input per command: a command added to COMMANDS without one here does not compile. */
const SAMPLES: { [N in CommandName]: CommandInput<N> } = {
  'transaction.code': { transaction_id: ROW(1), patch: { memo: 'one' } },
  'transaction.bulkCode': { transaction_ids: [ROW(1), ROW(2), ROW(3)], patch: { gl_account_id: GL } },
  'reimbursement.create': { id: ROW(1), amount: 1250, currency: 'USD', transaction_date: '2026-03-01' },
  'reimbursement.createMileage': { id: ROW(1), distance_miles: 12, start_location: 'Office', end_location: 'Client', trip_date: '2026-03-01' },
  'reimbursement.createPerDiem': { id: ROW(1), location: 'Chicago', start_date: '2026-03-01', end_date: '2026-03-03' },
  'reimbursement.update': { reimbursement_id: ROW(1), patch: { memo: 'one' } },
  'reimbursement.submit': { reimbursement_id: ROW(1) },
  'reimbursement.saveDraft': { reimbursement_id: ROW(1), draft: { type: 'OUT_OF_POCKET', amount: 1250, currency: 'USD', transaction_date: '2026-03-01' } },
  'reimbursement.resubmit': { reimbursement_id: ROW(1) },
  'reimbursement.cancel': { reimbursement_id: ROW(1) },
  'reimbursement.pay': { reimbursement_id: ROW(1) },
  'reimbursement.cancelPayment': { reimbursement_id: ROW(1) },
  'reimbursement.delete': { reimbursement_id: ROW(1) },
  'approval.approve': { approval_id: ROW(1) },
  'approval.reject': { approval_id: ROW(1), reason: 'No receipt' },
  'receipt.upload': { receipt_id: testUuid(7, 1), content_type: 'image/png', size: 10, sha256: 'a'.repeat(64) },
  'receipt.discard': { receipt_id: testUuid(7, 1) },
  'transaction.attachReceipt': { transaction_id: ROW(1), receipt_id: testUuid(7, 1) },
  'transaction.detachReceipt': { transaction_id: ROW(1), receipt_id: testUuid(7, 1) },
  'card.issue': { id: ROW(1), user_id: testUuid(2, 1), display_name: 'Travel', limit: { amount: 200_000, currency: 'USD', interval: 'MONTHLY' } },
  'card.update': { card_id: ROW(1), patch: { display_name: 'Software' } },
  'card.activate': { card_id: ROW(1), last_four: '4242' },
  'card.lock': { card_id: ROW(1) },
  'card.unlock': { card_id: ROW(1) },
  'card.bulkLock': { card_ids: [ROW(1), ROW(2), ROW(3)], lock: true },
  'card.suspend': { card_id: ROW(1) },
  'card.unsuspend': { card_id: ROW(1) },
  'card.terminate': { card_id: ROW(1) },
  'card.reissue': { card_id: ROW(1), successor_id: ROW(2) },
  'card.setPrimary': { card_id: ROW(1), previous_ids: [ROW(2)] },
  'card.favorite': { card_ids: [ROW(1), ROW(2)] },
  'card.unfavorite': { card_ids: [ROW(1)] },
  'cardRequest.create': { id: ROW(1), amount: 200_000, currency: 'USD', interval: 'MONTHLY', reason: 'Client travel' },
  'cardRequest.requestPhysical': { id: ROW(1), amount: 50_000, currency: 'USD', interval: 'WEEKLY', reason: 'Field work' },
  'cardRequest.cancel': { request_id: ROW(1) },
  'bill.create': {
    id: ROW(1), vendor_id: testUuid(8, 1), invoice_number: 'INV-1', invoice_date: '2026-11-01', due_date: '2026-11-30', currency: 'USD',
    line_items: [{ description: 'Paper', amount: 12_000 }],
  },
  'bill.update': { bill_id: ROW(1), patch: { memo: 'one' } },
  'bill.delete': { bill_id: ROW(1) },
  'bill.payNow': { bill_ids: [ROW(1)] },
  'provisionalBill.create': { id: ROW(1), invoice_file_id: testUuid(7, 1) },
  'provisionalBill.update': { provisional_bill_id: ROW(1), patch: { invoice_number: 'INV-1' } },
  'provisionalBill.delete': { provisional_bill_ids: [ROW(1)] },
  'savedReport.save': { id: ROW(1), name: 'Spend by month', chart: 'bar', query: { collection: 'transactions', time_grain: 'month', dimension: 'none', measure: 'sum' } },
  'savedReport.delete': { id: ROW(1) },
  'dashboard.save': { id: ROW(1), name: 'Month end', items: [{ report_id: ROW(2), size: 'half' }] },
  'dashboard.delete': { id: ROW(1) },
  'transaction.fraudResponse': { transaction_id: ROW(1), response: 'NOT_RECOGNIZED' },
  'trip.create': { id: ROW(1), name: 'Client visit', destination: 'JFK', start_date: '2026-12-01', end_date: '2026-12-03' },
  'trip.update': { trip_id: ROW(1), patch: { name: 'Client visit, day two' } },
  'trip.delete': { trip_id: ROW(1) },
  'trip.linkSpend': { trip_id: ROW(1), transaction_ids: [ROW(2)], reimbursement_ids: [] },
  'trip.unlinkSpend': { trip_id: ROW(1), transaction_ids: [ROW(2)] },
  'spendRequest.create': { id: ROW(1), type: 'GENERAL_EXPENSE', amount: { amount: 50_000, currency: 'USD' }, description: 'Team offsite' },
  'spendRequest.update': { spend_request_id: ROW(1), patch: { description: 'Team offsite, two days' } },
  'spendRequest.cancel': { spend_request_id: ROW(1) },
  'spendRequest.delete': { spend_request_id: ROW(1) },
  'itemReceipt.create': { id: ROW(2), purchase_order_id: ROW(1), lines: [{ po_line_id: ROW(3), quantity: 3 }], received_at: '2026-11-29T10:00:00Z' },
  'notification.markRead': { ids: [ROW(1)], read_at: '2026-11-29T10:00:00Z' },
  'transaction.dismissSuggestion': { transaction_id: ROW(1), dismissed_at: '2026-11-29T10:00:00Z' },
  'transfer.create': {
    id: ROW(3), wallet_account_id: ROW(4), to_account_id: ROW(5), amount: { amount: 250_000, currency: 'USD' }, memo: 'To reserve',
    expected_fee: { amount: 0, currency: 'USD' }, from_name: 'Operating', to_name: 'Reserve', expected_settlement_date: '2026-11-30',
  },
  'transfer.cancel': {
    transfer_id: ROW(1), wallet_account_id: ROW(4), from_account_id: ROW(4), to_account_id: ROW(5), amount: 250_000, fee: 0,
    canceled_at: '2026-11-29T10:00:00Z',
  },  'transaction.splitAttendees': { transaction_id: ROW(1), split: { mode: 'even', attendees: [{ kind: 'external', name: 'Bo Chen' }] } },
  'transaction.clearAttendeeSplit': { transaction_id: ROW(1) },
  'transaction.copyReceipts': { transaction_id: ROW(1), source_transaction_id: ROW(2), receipt_ids: [ROW(3)] },
};

function setup(opts: { rows?: number; failWrite?: boolean } = {}) {
  const index = new OutboxIndex();
  const stored: OutboxEntry[][] = [];
  const refreshed: EntityRefs[] = [];
  const queued: OutboxEntry[][] = [];
  const rows = new Set(Array.from({ length: opts.rows ?? 10 }, (_, i) => ROW(i + 1)));
  const asked: MirroredCollection[] = [];
  const runner = new CommandRunner({
    index,
    store: {
      putMany: async (entries) => {
        if (opts.failWrite) throw new Error('quota');
        stored.push([...entries]);
      },
    },
    ready: Promise.resolve(),
    rows: (collection) => (asked.push(collection), { has: (id) => rows.has(id) }),
    refresh: (refs) => refreshed.push(refs),
    onQueued: (entries) => queued.push([...entries]),
    now: () => 1_000,
  });
  return { runner, index, stored, refreshed, queued, asked };
}

describe('CommandRunner', () => {
  it.each(COMMAND_NAMES)('runs %s: checked on its collection, durable, indexed, its rows re-derived', async (name) => {
    const t = setup();
    const { result, entries } = await t.runner.run(name, SAMPLES[name] as never);
    expect(result).toMatchObject({ ok: true, command_id: entries[0]!.id });
    const collection = COMMANDS[name].collection;
    expect(t.asked.every((c) => c === collection)).toBe(true);
    expect(t.stored).toEqual([entries]);
    expect(t.queued).toEqual([entries]);
    expect(t.refreshed.map((r) => r.collection)).toEqual(entries.map(() => collection));
    for (const e of entries) expect(t.index.get(e.id)).toBe(e);
  });

  it('splits a large selection once into FIFO entries (strictly increasing created_at)', async () => {
    const t = setup({ rows: 2 * BULK_CODE_MAX + 1 });
    const ids = Array.from({ length: 2 * BULK_CODE_MAX + 1 }, (_, i) => ROW(i + 1));
    const { result, entries } = await t.runner.run('transaction.bulkCode', { transaction_ids: [...ids, ids[0]!], patch: { memo: 'x' } });
    expect(result).toMatchObject({ ok: true, affected: ids.length });
    expect(entries.map((e) => [e.command, e.entity_ids.length])).toEqual([
      ['transaction.bulkCode', BULK_CODE_MAX],
      ['transaction.bulkCode', BULK_CODE_MAX],
      ['transaction.code', 1],
    ]);
    expect(entries.map((e) => e.created_at)).toEqual([1_000, 1_001, 1_002]);
    expect(t.stored).toHaveLength(1); // one durable write for the whole action
  });

  it('refuses invalid input (§5 messages) and unknown rows (the check) and queues nothing', async () => {
    const t = setup();
    const bad = await t.runner.run('transaction.code', { transaction_id: 'nope', patch: { memo: 'x' } });
    expect(bad.result).toMatchObject({ ok: false, error: { error_code: 'REQUEST_7001', errors: { transaction_id: expect.any(String) } } });
    const missing = await t.runner.run('transaction.bulkCode', { transaction_ids: [ROW(1), ROW(99)], patch: { memo: 'x' } });
    expect(missing.result).toMatchObject({ ok: false, error: { error_code: 'REQUEST_7004' } });
    expect(t.stored).toEqual([]);
    expect(t.index.entries()).toEqual([]);
  });

  it('shows nothing (index, rows) until the durable write has committed', async () => {
    let commit: () => void = () => undefined;
    const index = new OutboxIndex();
    const refreshed: EntityRefs[] = [];
    const runner = new CommandRunner({
      index,
      store: { putMany: () => new Promise<void>((resolve) => (commit = resolve)) },
      ready: Promise.resolve(),
      rows: () => ({ has: () => true }),
      refresh: (refs) => refreshed.push(refs),
      onQueued: () => undefined,
      now: () => 1_000,
    });
    const run = runner.run('transaction.code', SAMPLES['transaction.code']);
    await new Promise((r) => setTimeout(r, 10));
    expect(index.entries()).toEqual([]);
    expect(index.counts().pending).toBe(0);
    expect(refreshed).toEqual([]);
    const writing = [...(runner as unknown as { writingIds: Set<string> }).writingIds];
    expect(writing).toHaveLength(1);
    expect(runner.writing(writing[0]!)).toBe(true);
    commit();
    const { entries } = await run;
    expect(index.get(entries[0]!.id)).toBe(entries[0]);
    expect(refreshed).toHaveLength(1);
    expect(runner.writing(entries[0]!.id)).toBe(false);
  });

  it('takes the entries back out of the index when the durable write fails', async () => {
    const t = setup({ failWrite: true });
    await expect(t.runner.run('transaction.code', SAMPLES['transaction.code'])).rejects.toThrow('quota');
    expect(t.index.entries()).toEqual([]);
    expect(t.refreshed).toHaveLength(0); // never shown: nothing was durable
    expect(t.runner.busy).toBe(false);
  });

  it('does not compile for a name no command has', async () => {
    const t = setup();
    // @ts-expect-error: unknown command names are refused by the type of run().
    await expect(t.runner.run('transaction.delete', {})).rejects.toThrow(/unknown command/);
  });
});
