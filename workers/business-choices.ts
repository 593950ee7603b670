import type { SpendUser } from '../schema/entities/spend-user.ts';
import type { BusinessChoice } from './contracts/session.ts';

/**
 * The businesses a session can switch between, one per live spend user of the identity, named
 * from GET /v1/auth/identity's `businesses` (an id without a name keeps the id, so an older
 * server still lists it). Hidden users stay in the list; the UI filters with switcherUsers.
 */
export function businessChoices(
  spendUsers: readonly Pick<SpendUser, 'id' | 'business_id' | 'role'>[],
  businesses: readonly { id: string; name: string }[] | undefined,
): BusinessChoice[] {
  const names = new Map((businesses ?? []).map((b) => [b.id, b.name]));
  return spendUsers.map((u) => ({ id: u.business_id, name: names.get(u.business_id) ?? u.business_id, role: u.role, user_id: u.id }));
}

/** The §3/§6 switcher rules for the UI (src/ reaches sync/ only through the worker's modules). */
export { showsBusinessSwitcher, switcherUsers } from '../sync/auth.ts';
