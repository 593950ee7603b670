import { describe, expect, it } from 'vitest';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { bankAccountSchema, linkedOf, type BankAccount, type LinkedBankAccount } from '../../schema/entities/bank-account.ts';
import type { Change } from '../../schema/sync-feed.ts';
import { errorBody } from '../../schema/errors.ts';
import { fakeToken, jsonResponse } from '../../sync/testing.ts';
import type { Transport } from '../../sync/ports.ts';
import { mirrorStorage, openMirrorDatabase } from '../db.ts';
import { RxMirrorStore } from '../mirror-store.ts';
import { OutboxIndex } from '../outbox-index.ts';
import { signedInAdmin, testUuid } from '../test-fixtures.ts';
import { testDevice } from '../testing/signed-in-worker.ts';
import { BANKING_OFFLINE } from './banking.ts';

/**
 * Issue 30: the linked bank accounts are mirrored (`bank_accounts` in `refs`), so `bankAccounts()`
 * answers offline from the mirror, across reloads, marked with when the mirror last synced (the
 * time Settings → Offline data shows), instead of a list kept in the worker's memory.
 */
const { user, business, identity, dbName } = signedInAdmin();
const AT = '2026-11-29T10:00:00.000Z';

const row = (i: number, over: Partial<BankAccount> = {}): BankAccount => bankAccountSchema.parse({
  id: testUuid(0xba, i), uuid: testUuid(0xba, i), name: `Account ${i}`, bank_name: 'First Bank', account_type: 'CHECKING',
  routing_number: '121000358', account_number_masked: `••••000${i}`, currency: 'USD', entity_id: null, status: 'VERIFIED',
  verified_at: AT, attempts_left: null, created_at: `2026-11-2${i}T10:00:00.000Z`,
  business_id: business.id, change_seq: i, updated_at: AT, deleted: false, ...over,
});
const change = (r: BankAccount, seq: number, deleted = false): Change =>
  ({ collection: 'bank_accounts', seq, id: r.id, deleted, doc: deleted ? null : r });

/** A device whose mirror holds `changes` (applied as the sync engine would) before the worker starts. */
async function mirroredDevice(changes: Change[]) {
  const idb = new IDBFactory();
  const storage = mirrorStorage({ indexedDB: idb, IDBKeyRange });
  const db = await openMirrorDatabase({ name: dbName, storage, multiInstance: false });
  await new RxMirrorStore(db, new OutboxIndex()).applyChanges(changes, { seq: changes.length, epoch: 'e', mirrored: true });
  await db.close();
  const server = { reachable: true, accounts: [] as LinkedBankAccount[], sent: 0 };
  const transport: Transport = async (input) => {
    const path = new URL(String(input)).pathname;
    if (path === '/v1/public/sign-in') return jsonResponse(200, { id_token: fakeToken(['default']), mfa_required: false });
    if (path === '/v1/auth/identity') return jsonResponse(200, { identity, user, business });
    if (path === '/v1/auth/feature_flags') return jsonResponse(200, { flags: {} });
    if (path === '/v1/auth/banking/accounts') {
      server.sent++;
      if (!server.reachable) throw new TypeError('Failed to fetch');
      return jsonResponse(200, { accounts: server.accounts });
    }
    return jsonResponse(404, errorBody('REQUEST_7004'));
  };
  const device = testDevice({ transport, idb, storage });
  const open = async () => {
    const service = device.make();
    await service.init({ baseUrl: 'http://api.test' });
    await service.signIn(user.email, 'demo-password-1');
    return service;
  };
  return { open, server };
}

describe('bankAccounts() from the mirror', () => {
  it('offline: the mirrored accounts in the server’s order, without their mirror fields, marked with the last sync; again after a reload', async () => {
    const [first, second, gone] = [row(1), row(2, { status: 'PENDING_VERIFICATION', verified_at: null, attempts_left: 2 }), row(3)];
    // Applied newest first, and the third removed by its tombstone: the answer is ordered by created_at, live rows only.
    const { open } = await mirroredDevice([change(second, 1), change(first, 2), change(gone, 3), change(gone, 4, true)]);
    const service = await open();
    await service.setOnline(false);
    const answer = await service.bankAccounts();
    const { last_synced_at } = await service.offlineData();
    expect(last_synced_at).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(answer).toEqual({ ok: true, accounts: [linkedOf(first), linkedOf(second)], cached_at: last_synced_at });
    expect(answer.ok && answer.accounts[0]).not.toHaveProperty('change_seq');
    await service.dispose();

    const reloaded = await open();
    await reloaded.setOnline(false);
    expect(await reloaded.bankAccounts()).toEqual({ ok: true, accounts: [linkedOf(first), linkedOf(second)], cached_at: last_synced_at });
  });

  it('online: the server’s answer (not the mirror’s); when the server cannot be reached, the mirror’s', async () => {
    const { open, server } = await mirroredDevice([change(row(1), 1)]);
    const fresh = linkedOf(row(4, { name: 'Linked a moment ago' }));
    server.accounts = [fresh];
    const service = await open();
    expect(await service.bankAccounts()).toEqual({ ok: true, accounts: [fresh], cached_at: null });
    server.reachable = false;
    const kept = await service.bankAccounts();
    expect(server.sent).toBe(2);
    expect(kept).toMatchObject({ ok: true, accounts: [linkedOf(row(1))] });
    expect(kept.ok && kept.cached_at).toMatch(/^\d{4}-\d\d-\d\dT/);
  });

  it('offline with a mirror that never synced: the offline refusal, not an empty list', async () => {
    const idb = new IDBFactory();
    const transport: Transport = async (input) => {
      const path = new URL(String(input)).pathname;
      if (path === '/v1/public/sign-in') return jsonResponse(200, { id_token: fakeToken(['default']), mfa_required: false });
      if (path === '/v1/auth/identity') return jsonResponse(200, { identity, user, business });
      return jsonResponse(404, errorBody('REQUEST_7004'));
    };
    const service = testDevice({ transport, idb }).make();
    await service.init({ baseUrl: 'http://api.test' });
    await service.signIn(user.email, 'demo-password-1');
    await service.setOnline(false);
    expect(await service.bankAccounts()).toEqual(BANKING_OFFLINE);
  });
});
