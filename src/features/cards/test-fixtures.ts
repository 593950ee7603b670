import { newCard } from '../../../schema/commands/card.ts';
import type { CardActor } from '../../../schema/card-rules.ts';
import type { Card } from '../../../schema/entities/card.ts';
import type { UserRow } from '../../../schema/entities/spend-user.ts';

/** Test fixtures built through the schema's own factory (`newCard`), with overrides. */
export const BUSINESS = '00000000-0000-4000-8000-000000000000';
export const ADMIN = '10000000-0000-4000-8000-000000000001';
export const MANAGER = '10000000-0000-4000-8000-000000000002';
export const REPORT = '10000000-0000-4000-8000-000000000003';
export const DEEP_REPORT = '10000000-0000-4000-8000-000000000004';
export const OTHER = '10000000-0000-4000-8000-000000000005';
export const CARD = '20000000-0000-4000-8000-000000000001';

export function card(overrides: Partial<Card> = {}): Card {
  const base = newCard(
    {
      id: CARD, user_id: REPORT, display_name: 'Travel', is_physical: false,
      limit: { amount: 500_000, currency: 'USD', interval: 'MONTHLY', per_transaction: null },
      allowed_categories: [], department_id: null, location_id: null,
    },
    { id: CARD, actor: { user_id: ADMIN, business_id: BUSINESS }, at: '2026-11-01T10:00:00.000Z' },
  );
  return { ...base, status: 'ACTIVE', last_four: '1234', expires: '2029-11', ...overrides };
}

export function user(id: string, overrides: Partial<UserRow> = {}): UserRow {
  return {
    id, role: 'BUSINESS_USER', first_name: 'Ada', last_name: id.slice(-1), email: `u${id.slice(-1)}@x.test`, is_manager: false,
    manager_id: null, department_id: null, location_id: null, status: 'ACTIVE', payroll_currency: null,
    business_id: BUSINESS, change_seq: 1, updated_at: '2026-01-01T00:00:00Z', deleted: false, ...overrides,
  };
}

/** Admin; a manager with a report who has a report of their own; someone outside the team. */
export const USERS: UserRow[] = [
  user(ADMIN, { role: 'BUSINESS_ADMIN' }),
  user(MANAGER, { is_manager: true }),
  user(REPORT, { manager_id: MANAGER }),
  user(DEEP_REPORT, { manager_id: REPORT }),
  user(OTHER),
];

export const actor = (id: string, role: string, isManager: boolean, team: CardActor['team']): CardActor => ({
  id, role, is_manager: isManager, user_permissions: [], team,
});
