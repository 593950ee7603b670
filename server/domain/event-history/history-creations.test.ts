/**
 * Issue 32, event history: an entity's creation is its first event (migration 080's insert
 * triggers: the person and device of a write through the catalogue, the source of an
 * integration's, the system's otherwise; an entity made before 080 reads its creation from its
 * row), and a device id reads as the device's name, read from the browser of its first write.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { entityHistorySchema, type EventEntityType } from '../../../schema/event-history.ts';
import { applyActing } from '../../http/acting.ts';
import { deviceName } from '../../http/devices.ts';
import { insertBill } from '../../routes/vendor-network-test-kit.ts';
import { useTestApp } from '../../test-app.ts';
import { testDatabases } from '../../test-db.ts';
import { makeBusiness, request, signIn, type Fixture } from '../../test-fixtures.ts';

const CHROME_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const FIREFOX_MAC = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14.5; rv:133.0) Gecko/20100101 Firefox/133.0';

describe('device names', () => {
  it('reads a browser and system from the User-Agent', () => {
    expect(deviceName(CHROME_WINDOWS)).toBe('Chrome on Windows');
    expect(deviceName(FIREFOX_MAC)).toBe('Firefox on macOS');
    expect(deviceName('Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1')).toBe('Safari on iPhone');
    expect(deviceName('Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36')).toBe('Chrome on Android');
    expect(deviceName('Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0')).toBe('Edge on Windows');
    expect(deviceName('Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36')).toBe('Chrome on ChromeOS');
    expect(deviceName('Mozilla/5.0 (X11; Linux x86_64)')).toBe('A device on Linux');
    expect(deviceName('Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36')).toBe('Chrome on Linux');
    expect(deviceName('curl/8.5.0')).toBe('Unknown device');
    expect(deviceName(undefined)).toBe('Unknown device');
  });
});

describe.each(await testDatabases())('event history creations and devices on %s', (kind) => {
  const t = useTestApp(kind);
  let a: Fixture;
  let admin: string;
  const name = (role: string) => `${role[0]!.toUpperCase()}${role.slice(1)} Fixture${a.businessId.slice(0, 8)}`;

  beforeAll(async () => {
    a = await makeBusiness(t.db, { transactions: 2 });
    admin = await signIn(t.app, a.email('admin'));
  });

  const history = async (type: EventEntityType, id: string) => {
    const res = await request(t.app, 'GET', `/v1/auth/event-history/${type}/${id}`, { token: admin });
    expect(res.status, res.text).toBe(200);
    return entityHistorySchema.parse(res.body);
  };
  const oldest = async (type: EventEntityType, id: string) => (await history(type, id)).data.at(-1);

  it('records every insert and update of each entity type, whoever writes (triggers, not writers)', async () => {
    const rows = await t.db.query<{ table: string; trigger: string }>(
      `SELECT c.relname AS table, t.tgname AS trigger FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
        WHERE t.tgname LIKE '%entity_events' OR t.tgname LIKE '%entity_creations' ORDER BY 1, 2`,
    );
    const tables = ['bills', 'cards', 'reimbursements', 'spend_users', 'transactions', 'vendors'];
    expect(rows).toEqual(tables.flatMap((table) => [
      { table, trigger: `${table}_entity_creations` }, { table, trigger: `${table}_entity_events` },
    ]));
  });

  it('records a creation through the catalogue as the first event, naming the person and the device by name', async () => {
    const device = randomUUID();
    const res = await request<{ id: string }>(t.app, 'POST', '/v1/auth/vendors', {
      token: admin, body: { name: 'Blue Bottle' }, headers: { 'X-Ledgerline-Device': device, 'User-Agent': CHROME_WINDOWS },
    });
    expect(res.status, res.text).toBe(201);
    const vendorId = res.body.id;
    expect((await history('vendor', vendorId)).data).toEqual([expect.objectContaining({
      field: 'created', from: null, to: null, actor: { kind: 'user', user_id: a.users.admin, label: name('admin') },
      device_id: device, device_name: 'Chrome on Windows',
    })]);
    // The same device writing from another browser build: its name follows, for every event of it.
    const patch = await request(t.app, 'PATCH', `/v1/auth/vendors/${vendorId}`, {
      token: admin, body: { name: 'Blue Bottle Coffee' }, headers: { 'X-Ledgerline-Device': device, 'User-Agent': FIREFOX_MAC },
    });
    expect(patch.status, patch.text).toBeLessThan(300);
    const h = await history('vendor', vendorId);
    expect(h.data.map((e) => [e.field, e.device_name])).toEqual([['name', 'Firefox on macOS'], ['created', 'Firefox on macOS']]);
    // A device is named per business: nothing of it shows in another's table.
    const rows = await t.db.query<{ business_id: string }>('SELECT business_id::text FROM devices WHERE id = $1', [device]);
    expect(rows).toEqual([{ business_id: a.businessId }]);
  });

  it('names an integration\'s creation by its source, and the system\'s when nobody is behind it', async () => {
    const hris = { kind: 'hris' as const, id: randomUUID(), label: 'HRIS BambooHR' };
    const identity = randomUUID();
    const hire = randomUUID();
    await t.db.transaction(async (tx) => {
      await applyActing(tx, { userId: null, device: null, source: hris });
      await tx.query("INSERT INTO identities (id, email, password_hash) VALUES ($1, 'new.hire@example.test', 'x')", [identity]);
      await tx.query(
        `INSERT INTO spend_users (id, business_id, identity_id, role, first_name, last_name, email, change_seq)
         VALUES ($1, $2, $3, 'BUSINESS_USER', 'New', 'Hire', 'new.hire@example.test', 0)`,
        [hire, a.businessId, identity],
      );
    });
    expect(await oldest('user', hire)).toMatchObject({ field: 'created', actor: { kind: 'hris', user_id: null, label: 'HRIS BambooHR' }, device_id: null });
    const vendorId = randomUUID();
    await t.db.query("INSERT INTO vendors (id, business_id, name, change_seq) VALUES ($1, $2, 'Imported Supplies', 0)", [vendorId, a.businessId]);
    await t.db.transaction(async (tx) => {
      await applyActing(tx, { userId: a.users.admin, device: null, source: { kind: 'api_client', id: randomUUID(), label: 'API client Ledger Sync' } });
      await tx.query("UPDATE vendors SET name = 'Imported Supplies Ltd' WHERE id = $1", [vendorId]);
    });
    expect((await history('vendor', vendorId)).data.map((e) => [e.field, e.actor.kind, e.actor.label])).toEqual([
      ['name', 'api_client', `API client Ledger Sync (for ${name('admin')})`], ['created', 'system', 'System'],
    ]);
  });

  it('reads the creation of an entity made before creations were recorded from its row', async () => {
    const vendor = await request<{ id: string }>(t.app, 'POST', '/v1/auth/vendors', { token: admin, body: { name: 'Acme Paper' } });
    const { billId } = await insertBill(t.db, a.businessId, vendor.body.id, a.users.admin, { status: 'DRAFT', due: '2026-02-01' });
    await t.db.query("DELETE FROM entity_events WHERE entity_id = $1 AND field = 'created'", [billId]);
    const h = await history('bill', billId);
    expect(h.data).toEqual([expect.objectContaining({ id: `created-${billId}`, field: 'created', actor: { kind: 'user', user_id: a.users.admin, label: name('admin') } })]);
    // A claim's is its claimant's; a card charge's the system's.
    const tx = a.transactions.employee[0]!;
    await t.db.query("DELETE FROM entity_events WHERE entity_id = $1 AND field = 'created'", [tx]);
    expect(await oldest('transaction', tx)).toMatchObject({ field: 'created', actor: { kind: 'system', label: 'System' } });
  });
});
