import { describe, expect, it } from 'vitest';
import type { Change } from '../schema/sync-feed.ts';
import type { Approval } from '../schema/entities/approval.ts';
import type { Reimbursement } from '../schema/entities/reimbursement.ts';
import type { OutboxEntry } from '../sync/ports.ts';
import type { MirrorRuntime } from './mirror-runtime.ts';
import { sampleRows, testUuid } from './test-fixtures.ts';
import { entryOf, mirrorDevice } from './testing/mirror-device.ts';

/**
 * Optimistic commands beyond editing a row the engine holds: a command with a `blank` creates
 * its row at once (kept through a reload, gone when discarded, replaced by the server's row,
 * kept and marked when refused), and a command with `also` changes rows of another collection.
 */
const ACTOR = { user_id: testUuid(1, 1), business_id: testUuid(2, 1) };
const CLAIM = testUuid(3, 1);
const APPROVAL = testUuid(4, 1);

const mirror = (name: string) => mirrorDevice(name, ACTOR);

const claims = (rt: MirrorRuntime) => rt.query('reimbursements', { filter: {}, sort: 'date_desc', offset: 0, limit: 100 });
const create = (rt: MirrorRuntime) =>
  rt.commands.run('reimbursement.create', { id: CLAIM, merchant: 'Taxi', amount: 2300, currency: 'USD', transaction_date: '2026-03-05', submit: true });

async function serverRows(rt: MirrorRuntime, changes: Change[], seq: number) {
  await rt.mirror.applyChanges(changes, { seq, epoch: 'e' });
}

describe('a command that creates its row', () => {
  it('shows the row at once, pending, in query, get and totals; keeps it through a reload', async () => {
    const open = mirror('opt-create');
    const rt = await open();
    const { result } = await create(rt);
    expect(result.ok).toBe(true);
    const page = await claims(rt);
    expect(page.total).toBe(1);
    expect(page.rows[0]).toMatchObject({ id: CLAIM, ...ACTOR, type: 'OUT_OF_POCKET', status: 'SUBMITTED', amount: 2300, merchant: 'Taxi', pending: 'pending', failure: null });
    expect(await rt.get('reimbursements', CLAIM)).toMatchObject({ id: CLAIM, pending: 'pending' });
    expect(rt.engines.reimbursements.totals({}, { amount: 'amount', currency: 'currency' })).toMatchObject({ count: 1, sums: [{ currency: 'USD', amount: 2300 }] });
    // An edit on top of the created row, then a reload over the same database (offline).
    await rt.commands.run('reimbursement.update', { reimbursement_id: CLAIM, patch: { memo: 'airport' } });
    await rt.close();
    const again = await open();
    expect((await claims(again)).rows).toMatchObject([{ id: CLAIM, merchant: 'Taxi', memo: 'airport', pending: 'pending' }]);
    expect(await again.get('reimbursements', CLAIM)).toMatchObject({ memo: 'airport' });
  });

  it('is gone once its command is discarded', async () => {
    const rt = await mirror('opt-discard')();
    const { result } = await create(rt);
    await rt.outboxStore.remove(result.ok ? result.command_id : '');
    await expect.poll(async () => (await claims(rt)).total).toBe(0);
    expect(await rt.get('reimbursements', CLAIM)).toBeNull();
  });

  it('is replaced by the server row (one row, not pending) when the server confirms it', async () => {
    const rt = await mirror('opt-confirm')();
    const { result } = await create(rt);
    const entry = await entryOf(rt, result.ok ? result.command_id : '');
    const shown = (await claims(rt)).rows[0]!;
    const server: Reimbursement = { ...(shown as unknown as Reimbursement), memo: 'from the server', change_seq: 7, deleted: false };
    // As the outbox does: confirm (the answer is stored), then the entry goes.
    await rt.mirror.confirm(entry, server);
    // The stored answer reaches the engine before the entry goes: the row never disappears.
    expect(rt.engines.reimbursements.get(CLAIM)).toMatchObject({ memo: 'from the server' });
    await rt.outboxStore.remove(entry.id);
    expect(rt.engines.reimbursements.get(CLAIM)).toMatchObject({ memo: 'from the server' });
    await expect.poll(async () => (await claims(rt)).rows.map((r) => [r.id, r.pending, r.memo])).toEqual([[CLAIM, null, 'from the server']]);
    // The feed delivering the same row later changes nothing.
    await serverRows(rt, [{ collection: 'reimbursements', seq: 7, id: CLAIM, deleted: false, doc: server }], 7);
    expect((await claims(rt)).total).toBe(1);
  });

  it('is replaced by the row the feed delivers before the answer (one row throughout)', async () => {
    const rt = await mirror('opt-feed-first')();
    const { result } = await create(rt);
    const shown = (await claims(rt)).rows[0]!;
    const server: Reimbursement = { ...(shown as unknown as Reimbursement), change_seq: 3, deleted: false };
    await serverRows(rt, [{ collection: 'reimbursements', seq: 3, id: CLAIM, deleted: false, doc: server }], 3);
    expect((await claims(rt)).rows.map((r) => [r.id, r.pending])).toEqual([[CLAIM, 'pending']]);
    await rt.outboxStore.remove(result.ok ? result.command_id : '');
    await expect.poll(async () => (await claims(rt)).rows.map((r) => [r.id, r.pending, r.status])).toEqual([[CLAIM, null, 'SUBMITTED']]);
  });

  it('stays, marked failed with the server’s reason, when the server refuses it', async () => {
    const rt = await mirror('opt-refused')();
    const { result } = await create(rt);
    const entry = await entryOf(rt, result.ok ? result.command_id : '');
    const failed: OutboxEntry = { ...entry, state: 'failed', last_error: { message: 'Amount too large', error_code: 'REQUEST_7001' } as OutboxEntry['last_error'] };
    await rt.outboxStore.put(failed);
    await rt.mirror.rollback(failed);
    await expect.poll(async () => (await claims(rt)).rows[0]?.pending).toBe('failed');
    expect((await claims(rt)).rows).toMatchObject([{ id: CLAIM, merchant: 'Taxi', failure: { command_id: entry.id, message: 'Amount too large' } }]);
    // Discarding the refused create removes the row.
    await rt.outboxStore.remove(entry.id);
    await expect.poll(async () => (await claims(rt)).total).toBe(0);
  });

  it('saveDraft under a new id creates the draft', async () => {
    const rt = await mirror('opt-draft')();
    await rt.commands.run('reimbursement.saveDraft', {
      reimbursement_id: CLAIM, draft: { type: 'PER_DIEM', location: 'Chicago', start_date: '2026-03-02', end_date: '2026-03-04' },
    });
    expect((await claims(rt)).rows).toMatchObject([{ id: CLAIM, type: 'PER_DIEM', status: 'DRAFT', amount: 17000, pending: 'pending' }]);
  });
});

describe('a command that changes rows of more than one collection', () => {
  async function seeded(name: string) {
    const rt = await mirror(name)();
    const claim: Reimbursement = { ...sampleRows('reimbursements', 1)[0]!, id: CLAIM, status: 'SUBMITTED', user_id: testUuid(5, 1) };
    const approval: Approval = { ...sampleRows('approvals', 1)[0]!, id: APPROVAL, object_id: CLAIM, status: 'PENDING', reason: null, user_id: claim.user_id };
    await serverRows(rt, [
      { collection: 'reimbursements', seq: 1, id: CLAIM, deleted: false, doc: claim },
      { collection: 'approvals', seq: 2, id: APPROVAL, deleted: false, doc: approval },
    ], 2);
    await expect.poll(async () => (await rt.get('approvals', APPROVAL))?.status).toBe('PENDING');
    return { rt, claim, approval };
  }

  it('approving offline shows the claim APPROVED at once; the feed’s rows replace both', async () => {
    const { rt, claim, approval } = await seeded('opt-approve');
    const { result } = await rt.commands.run('approval.approve', { approval_id: APPROVAL });
    expect(result).toMatchObject({ ok: true, affected: 1 });
    expect(await rt.get('approvals', APPROVAL)).toMatchObject({ status: 'APPROVED', pending: 'pending' });
    expect(await rt.get('reimbursements', CLAIM)).toMatchObject({ status: 'APPROVED', pending: 'pending' });
    expect((await rt.query('reimbursements', { filter: { statuses: ['APPROVED'] }, sort: 'date_desc', offset: 0, limit: 10 })).total).toBe(1);

    // A reload keeps both (the claim's id is stored with the entry).
    const entry = await entryOf(rt, result.ok ? result.command_id : '');
    expect(entry.entity_ids).toEqual([APPROVAL, CLAIM]);

    // Confirmed by change seq: the effect stays until the feed has delivered it, then the server rows show.
    await rt.mirror.confirm(entry, { change_seq: 4 });
    await rt.outboxStore.remove(entry.id);
    expect(await rt.get('reimbursements', CLAIM)).toMatchObject({ status: 'APPROVED', pending: null });
    await serverRows(rt, [
      { collection: 'reimbursements', seq: 3, id: CLAIM, deleted: false, doc: { ...claim, status: 'APPROVED', change_seq: 3 } },
      { collection: 'approvals', seq: 4, id: APPROVAL, deleted: false, doc: { ...approval, status: 'APPROVED', change_seq: 4 } },
    ], 4);
    const shown = (await rt.engines.reimbursements.get(CLAIM)) as unknown as { server?: unknown; status: string };
    expect(shown).toMatchObject({ status: 'APPROVED', server: undefined });
  });

  it('rejecting shows the claim REJECTED with the reason; a refusal rolls both back', async () => {
    const { rt } = await seeded('opt-reject');
    const { result } = await rt.commands.run('approval.reject', { approval_id: APPROVAL, reason: 'No receipt' });
    expect(await rt.get('reimbursements', CLAIM)).toMatchObject({ status: 'REJECTED', rejection_reason: 'No receipt', pending: 'pending' });
    const entry = await entryOf(rt, result.ok ? result.command_id : '');
    const failed: OutboxEntry = { ...entry, state: 'failed', last_error: { message: 'Not yours', error_code: 'APPROVAL_7201' } as OutboxEntry['last_error'] };
    await rt.outboxStore.put(failed);
    await expect.poll(async () => (await rt.get('reimbursements', CLAIM))?.status).toBe('SUBMITTED');
    expect(await rt.get('approvals', APPROVAL)).toMatchObject({ status: 'PENDING', pending: 'failed' });
  });

  it('canceling a claim marks its open approval CANCELED', async () => {
    const { rt } = await seeded('opt-cancel');
    await rt.commands.run('reimbursement.cancel', { reimbursement_id: CLAIM });
    expect(await rt.get('reimbursements', CLAIM)).toMatchObject({ status: 'CANCELED', pending: 'pending' });
    expect(await rt.get('approvals', APPROVAL)).toMatchObject({ status: 'CANCELED', pending: 'pending' });
  });
});

describe('a claim exported to accounting (issue 12)', () => {
  it('keeps the mark through a restart and refuses, offline, to change its amount or coding; its memo still edits', async () => {
    const open = mirror('opt-synced-claim');
    const rt = await open();
    const claim: Reimbursement = {
      ...sampleRows('reimbursements', 1)[0]!, id: CLAIM, status: 'REJECTED', user_id: ACTOR.user_id, accounting_synced_at: '2026-03-04T08:00:00.000Z',
    };
    await serverRows(rt, [{ collection: 'reimbursements', seq: 1, id: CLAIM, deleted: false, doc: claim }], 1);
    await rt.close();
    const again = await open();
    expect(await again.get('reimbursements', CLAIM)).toMatchObject({ accounting_synced_at: '2026-03-04T08:00:00.000Z' });
    for (const patch of [{ amount: 999 }, { gl_account_id: testUuid(6, 1) }]) {
      const refused = await again.commands.run('reimbursement.update', { reimbursement_id: CLAIM, patch });
      expect(refused.result).toMatchObject({ ok: false, error: { error_code: 'ACCOUNTING_7301' } });
    }
    expect(await again.outboxStore.list()).toEqual([]);
    expect(await again.get('reimbursements', CLAIM)).toMatchObject({ amount: claim.amount, gl_account_id: claim.gl_account_id, pending: null });
    const memo = await again.commands.run('reimbursement.update', { reimbursement_id: CLAIM, patch: { memo: 'Team dinner' } });
    expect(memo.result).toMatchObject({ ok: true });
    expect(await again.get('reimbursements', CLAIM)).toMatchObject({ memo: 'Team dinner', pending: 'pending' });
  });
});
