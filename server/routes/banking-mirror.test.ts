import { beforeAll, describe, expect, it } from 'vitest';
import { syncChanges } from '../../schema/api/calls.ts';
import { linkedBankAccountSchema, type LinkedBankAccount } from '../../schema/api/calls-banking.ts';
import { bankAccountSchema, linkedOf } from '../../schema/entities/bank-account.ts';
import type { Change } from '../../schema/sync-feed.ts';
import { highWater } from '../db/change-seq.ts';
import { readMicroDeposits } from '../domain/banking/debit-check.ts';
import { testDatabases } from '../test-db.ts';
import { useTestApp } from '../test-app.ts';
import { FIXTURE_PASSWORD, request, useTwoBusinesses, type FixtureRole } from '../test-fixtures.ts';

/**
 * Issue 30: linked bank accounts are mirrored (`bank_accounts`, visibility `treasury`). Migration
 * 064's trigger gives the row a fresh seq on every write, so each banking write path (link, patch,
 * debit check start, each answer, delete) reaches the feed without stamping seqs itself; the feed
 * carries them to admins only, the delete as a tombstone; a row's doc is its list answer.
 */
const B = '/v1/auth/banking';
const MANUAL = { name: 'Payroll account', bank_name: 'First Bank', account_type: 'CHECKING', routing_number: '021000021', account_number: '000123456789' };

describe.each(await testDatabases())('mirrored bank accounts on %s', (kind) => {
  const t = useTestApp(kind, { devOutbox: true });
  const two = useTwoBusinesses(t, ['owner', 'admin', 'bookkeeper', 'manager', 'employee']);
  let stepped: string;

  beforeAll(async () => {
    const res = await request(t.app, 'POST', '/v1/auth/users/current/step-up', { token: two.tokens.admin, body: { password: FIXTURE_PASSWORD } });
    expect(res.status, res.text).toBe(200);
    stepped = res.body.id_token;
  });

  /** The bank_accounts changes a viewer's forward feed answers after `after`. */
  async function feed(token: string, after: number): Promise<Change[]> {
    const out: Change[] = [];
    for (let checkpoint = after; ;) {
      const res = await request(t.app, 'GET', `/v1/auth/sync/changes?after=${checkpoint}&limit=50`, { token });
      expect(res.status, res.text).toBe(200);
      const page = syncChanges.response.parse(res.body);
      out.push(...page.changes.filter((c) => c.collection === 'bank_accounts'));
      if (!page.has_more) return out;
      checkpoint = page.checkpoint;
    }
  }
  const seqOf = async (id: string) =>
    Number((await t.db.query<{ change_seq: number }>('SELECT change_seq FROM bank_accounts WHERE id = $1', [id]))[0]!.change_seq);
  const listed = async (id: string): Promise<LinkedBankAccount | undefined> => {
    const res = await request(t.app, 'GET', `${B}/accounts`, { token: two.tokens.admin });
    expect(res.status, res.text).toBe(200);
    return (res.body.accounts as LinkedBankAccount[]).find((a) => a.id === id);
  };
  const others: FixtureRole[] = ['bookkeeper', 'manager', 'employee'];

  /**
   * After a write: the row's seq moved past `before` and is within the committed high water; the
   * admin's feed after `before` carries exactly that row at that seq, its doc the list's answer
   * (and the write's own answer); nobody else's feed, nor the other business's, carries it.
   */
  async function mirrored(id: string, before: number, answer: LinkedBankAccount | null): Promise<number> {
    const seq = await seqOf(id);
    expect(seq).toBeGreaterThan(before);
    expect(await highWater(t.db, two.a.businessId)).toBeGreaterThanOrEqual(seq);
    const changes = await feed(two.tokens.admin, before);
    expect(changes.map((c) => [c.id, c.seq])).toEqual([[id, seq]]);
    const change = changes[0]!;
    if (answer === null) {
      expect(change).toMatchObject({ deleted: true, doc: null });
    } else {
      const doc = bankAccountSchema.strict().parse(change.doc);
      expect(doc).toMatchObject({ business_id: two.a.businessId, change_seq: seq, deleted: false });
      expect(linkedOf(doc)).toEqual(await listed(id));
      expect(linkedOf(doc)).toEqual(answer);
    }
    for (const role of others) expect(await feed(two.tokens[role], before), role).toEqual([]);
    expect(await feed(two.bOwner, 0)).toEqual([]);
    return seq;
  }

  it('every banking write takes a fresh seq, and the feed carries the row to admins only; the delete as a tombstone', async () => {
    const start = await highWater(t.db, two.a.businessId);
    const created = await request(t.app, 'POST', `${B}/manual-account`, { token: stepped, body: MANUAL });
    expect(created.status, created.text).toBe(201);
    const account = linkedBankAccountSchema.parse(created.body);
    const id = account.id;
    let seq = await mirrored(id, start, account);

    const renamed = await request(t.app, 'PATCH', `${B}/accounts/${id}`, { token: stepped, body: { name: 'Payroll (old)' } });
    expect(renamed.status, renamed.text).toBe(200);
    seq = await mirrored(id, seq, renamed.body);

    const started = await request(t.app, 'POST', `${B}/debit-check/${id}`, { token: two.tokens.admin });
    expect(started.status, started.text).toBe(200);
    expect(started.body).toMatchObject({ status: 'PENDING_VERIFICATION', attempts_left: 3 });
    seq = await mirrored(id, seq, started.body);

    // A wrong answer is a write too (the attempt counts): the doc's attempts_left is the list's.
    const deposits = (await readMicroDeposits(t.db, two.a.businessId, id))!;
    const wrong = [deposits[0] === 99 ? 98 : deposits[0] + 1, deposits[1]];
    const miss = await request(t.app, 'POST', `${B}/debit-check/${id}/verify`, { token: two.tokens.admin, body: { amounts: wrong } });
    expect(miss.status, miss.text).toBe(422);
    const afterMiss = (await listed(id))!;
    expect(afterMiss.attempts_left).toBe(2);
    seq = await mirrored(id, seq, afterMiss);

    const verified = await request(t.app, 'POST', `${B}/debit-check/${id}/verify`, { token: two.tokens.admin, body: { amounts: deposits } });
    expect(verified.status, verified.text).toBe(200);
    expect(verified.body).toMatchObject({ status: 'VERIFIED', attempts_left: null });
    seq = await mirrored(id, seq, verified.body);

    const deleted = await request(t.app, 'DELETE', `${B}/user/bank-accounts/${id}`, { token: two.tokens.admin });
    expect(deleted.status, deleted.text).toBe(200);
    expect(await listed(id)).toBeUndefined();
    await mirrored(id, seq, null);

    // A first mirror's backfill sends live rows only: the deleted account is not in it.
    const walk = await request(t.app, 'GET', '/v1/auth/sync/changes?backfill=true&limit=500', { token: two.tokens.admin });
    expect(walk.status, walk.text).toBe(200);
    expect(syncChanges.response.parse(walk.body).changes.filter((c) => c.id === id)).toEqual([]);
  });

  it('a refused write changes nothing: no seq taken, nothing in the feed', async () => {
    const created = await request(t.app, 'POST', `${B}/manual-account`, { token: stepped, body: { ...MANUAL, name: 'Refused edits' } });
    expect(created.status, created.text).toBe(201);
    const id = created.body.id as string;
    const seq = await seqOf(id);
    const high = await highWater(t.db, two.a.businessId);
    // BANKING_7003: no debit check running. The refusal rolls back with the write's transaction.
    const refused = await request(t.app, 'POST', `${B}/debit-check/${id}/verify`, { token: two.tokens.admin, body: { amounts: [12, 34] } });
    expect(refused.status, refused.text).toBe(409);
    expect(await seqOf(id)).toBe(seq);
    expect(await highWater(t.db, two.a.businessId)).toBe(high);
    expect(await feed(two.tokens.admin, high)).toEqual([]);
  });
});
