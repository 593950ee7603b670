import type { SurfaceClaim } from '../schema/api/scopes.ts';
import type { ScopeChoice, ScopeTarget } from '../schema/entities/scope-choice.ts';
import { switcherUsers } from '../sync/auth.ts';
import type { SessionInfo } from './contracts/session.ts';

/**
 * Issue 31, the identity's scopes on the client (pure): what a scope is called before the server's
 * list is read, and which choice is the session's own. Shared by the worker (sign-in, switch) and
 * the UI's scope picker, so it imports no schema values (the UI's chunk would split them out of
 * the first load's shared chunk and lengthen every lazy page's list of chunks): the token's
 * claims are read in token-surface.ts.
 */

/** Each surface but the main app, named as the picker and the shells say it until the scope's own name is known. */
export const SURFACE_NAMES = {
  ADVISOR_CONSOLE: 'Advisor console',
  VENDOR_PORTAL: 'Vendor portal',
  FINANCING_APPLICATION: 'Financing application',
  ADVISOR_CONSOLE_APPLICATION: 'Accounting firm application',
} as const satisfies Record<Exclude<SurfaceClaim['kind'], 'BUSINESS'>, string>;

/** One key per scope: two targets naming the same business, firm user, vendor or application are equal. */
export function targetKey(target: ScopeTarget): string {
  switch (target.kind) {
    case 'BUSINESS': return `BUSINESS:${target.business_id}`;
    case 'ADVISOR_CONSOLE': return `ADVISOR_CONSOLE:${target.external_firm_user_id}`;
    case 'VENDOR_PORTAL': return `VENDOR_PORTAL:${target.network_vendor_id}`;
    case 'FINANCING_APPLICATION': return `FINANCING_APPLICATION:${target.financing_application_id}`;
    case 'ADVISOR_CONSOLE_APPLICATION': return `ADVISOR_CONSOLE_APPLICATION:${target.external_firm_application_id}`;
  }
}

/** The scope a session acts in, as the switch names it. */
export function sessionTarget(session: SessionInfo): ScopeTarget {
  return session.surface.kind === 'BUSINESS' && 'business' in session
    ? { kind: 'BUSINESS', business_id: session.business.id }
    : (session.surface as Exclude<ScopeTarget, { kind: 'BUSINESS' }>);
}

/** The scope's name in the identity's list, else the surface's name. */
export function scopeLabel(surface: Exclude<SurfaceClaim, { kind: 'BUSINESS' }>, choices: readonly ScopeChoice[] | null | undefined): string {
  const key = targetKey(surface);
  return choices?.find((c) => targetKey(c.target) === key)?.label ?? SURFACE_NAMES[surface.kind];
}

/**
 * What the picker offers without the server (offline, or the list not served): the list kept with
 * the session, else the session's switchable businesses (hidden spend users never), and always the
 * session's own scope.
 */
export function offlineChoices(session: SessionInfo): ScopeChoice[] {
  const kept = session.choices ?? [];
  const businesses: ScopeChoice[] = 'businesses' in session
    ? switcherUsers(session.businesses ?? []).map((b) => ({ target: { kind: 'BUSINESS', business_id: b.id }, label: b.name, detail: null }))
    : [];
  const own: ScopeChoice = 'business' in session
    ? { target: { kind: 'BUSINESS', business_id: session.business.id }, label: session.business.name, detail: null }
    : { target: session.surface, label: session.label, detail: null };
  const seen = new Set<string>();
  return [...kept, ...businesses, own].filter((c) => {
    const key = targetKey(c.target);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
