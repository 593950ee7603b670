import type { BusinessChoice, BusinessSessionInfo as SessionInfo } from '../data-access/types.ts';
import { showsBusinessSwitcher, switcherUsers } from '../../workers/business-choices.ts';
import { formatCount } from './format.ts';

/**
 * The business switcher's pure parts (§3, §6): which businesses it lists, which one a tab should
 * show at boot, and what to say about unsent edits left in the business being left.
 */
export type SwitcherEntry = BusinessChoice & { current: boolean };

/** The switcher's buttons: hidden spend users never appear; nothing when there is no choice. */
export function switcherEntries(session: SessionInfo | null): SwitcherEntry[] {
  const choices = session?.businesses ?? [];
  if (!session || !showsBusinessSwitcher(choices)) return [];
  return switcherUsers(choices).map((b) => ({ ...b, current: b.id === session.business.id }));
}

/**
 * The business a tab asks for at boot (`business_id` link, else the tab's own choice; both are
 * already in the tab's storage) when it differs from the session's and the identity has it.
 */
export function bootSwitchTarget(session: SessionInfo | null, tabBusinessId: string | null): string | null {
  if (!session || !tabBusinessId || tabBusinessId === session.business.id) return null;
  return switcherUsers(session.businesses ?? []).some((b) => b.id === tabBusinessId) ? tabBusinessId : null;
}

/** Said after switching away from a business whose outbox still holds edits. */
export function leftBehindText(left: { business_name: string; changes: number }): string {
  const what = left.changes === 1 ? '1 change' : `${formatCount(left.changes)} changes`;
  const verb = left.changes === 1 ? "hasn't" : "haven't";
  return `${what} in ${left.business_name} ${verb} synced yet; they'll sync when you switch back`;
}

/** The link's `business_id` is kept in the tab's storage at boot; the URL then drops it. */
export function withoutBusinessParam(href: string): string | null {
  const url = new URL(href);
  if (!url.searchParams.has('business_id')) return null;
  url.searchParams.delete('business_id');
  return url.pathname + url.search + url.hash;
}
