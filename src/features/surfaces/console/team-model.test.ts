import { describe, expect, it } from 'vitest';
import type { FirmClient, FirmView } from '../../../../workers/api.ts';
import { clientsText, fullName, inviteRows, isFirmAdmin, teamRows } from './team-model.ts';

type Member = FirmView['members'][number];
const member = (id: string, first: string, role: Member['role']): Member => ({
  id, firm_id: 'f', identity_id: `i-${id}`, role, first_name: first, last_name: 'Lind', email: `${first.toLowerCase()}@firm.test`,
});
const client = (name: string, ids: string[]): FirmClient => ({
  business_id: `b-${name}`, business_name: name, authorization_id: `a-${name}`, rights: ['READ'], assigned_firm_user_ids: ids,
  open_items: { uncoded: 0, missing_receipts: 0, unsynced: 0, pending_bills: 0 },
});

describe('team rows', () => {
  const zoe = member('z', 'Zoe', 'EXTERNAL_FIRM_USER');
  const amy = member('a', 'Amy', 'EXTERNAL_FIRM_USER');
  const bo = member('b', 'Bo', 'EXTERNAL_FIRM_ADMIN');
  const me = member('m', 'Max', 'EXTERNAL_FIRM_USER');
  const clients = [client('harbor Bakery', ['z', 'b']), client('Acme', ['z']), client('Delta', ['b'])];

  it('puts you first, then admins, then members by name, each with their clients by name', () => {
    const rows = teamRows({ me, members: [zoe, amy, bo, me] }, clients);
    expect(rows.map((r) => [r.name, r.isMe, r.clients])).toEqual([
      ['Max Lind', true, []],
      ['Bo Lind', false, ['Delta', 'harbor Bakery']],
      ['Amy Lind', false, []],
      ['Zoe Lind', false, ['Acme', 'harbor Bakery']],
    ]);
    // The clients themselves ride along, in the same order: an admin unassigns by their authorization.
    expect(rows[3]!.work.map((c) => c.authorization_id)).toEqual([clients[1]!.authorization_id, clients[0]!.authorization_id]);
  });

  it('says what a member cannot see rather than “no clients”', () => {
    const [mine, , amyRow, zoeRow] = teamRows({ me, members: [zoe, amy, bo, me] }, clients);
    expect(clientsText(zoeRow!, false)).toBe('Works on Acme, harbor Bakery');
    expect(clientsText(mine!, false)).toBe('No clients assigned');
    expect(clientsText(amyRow!, false)).toBe('No clients you share');
    expect(clientsText(amyRow!, true)).toBe('No clients assigned');
  });

  it('names a person by email when they have no name', () => {
    expect(fullName({ first_name: '', last_name: '', email: 'x@y.test' })).toBe('x@y.test');
  });

  it('knows a firm admin by role', () => {
    expect(isFirmAdmin({ me: bo })).toBe(true);
    expect(isFirmAdmin({ me })).toBe(false);
  });
});

describe('invite rows', () => {
  const invite = (email: string, status: 'OPEN' | 'EXPIRED', expires_at: string) =>
    ({ id: email, email, role: 'EXTERNAL_FIRM_USER' as const, status, expires_at, resend_count: 0 });

  it('lists open invites first, the soonest to expire first', () => {
    const rows = inviteRows([
      invite('c@x.test', 'EXPIRED', '2026-11-01T00:00:00.000Z'),
      invite('b@x.test', 'OPEN', '2026-12-09T00:00:00.000Z'),
      invite('a@x.test', 'OPEN', '2026-12-02T00:00:00.000Z'),
    ]);
    expect(rows.map((r) => r.email)).toEqual(['a@x.test', 'b@x.test', 'c@x.test']);
  });
});
