import type { ScopeChoice, ScopeTarget } from '../../../schema/entities/scope-choice.ts';
import { targetKey } from '../../../workers/scope-choices.ts';

/**
 * The scope picker's list (issue 31, §4 "picks one"): the identity's scopes grouped by what they
 * are, in the order sign-in falls back through them (businesses, firm, vendor portals,
 * applications), each with the server's label (§3: a financing application is named by its
 * business, else "New application (date)") and the current one marked.
 */
export interface ScopeGroup {
  title: string;
  choices: (ScopeChoice & { key: string; current: boolean })[];
}

const GROUPS: readonly [title: string, kinds: readonly ScopeTarget['kind'][]][] = [
  ['Businesses', ['BUSINESS']],
  ['Accounting firm', ['ADVISOR_CONSOLE', 'ADVISOR_CONSOLE_APPLICATION']],
  ['Vendor portals', ['VENDOR_PORTAL']],
  ['Financing applications', ['FINANCING_APPLICATION']],
];

export function scopeGroups(choices: readonly ScopeChoice[], current: ScopeTarget | null): ScopeGroup[] {
  const currentKey = current ? targetKey(current) : null;
  return GROUPS.map(([title, kinds]) => ({
    title,
    choices: choices
      .filter((c) => kinds.includes(c.target.kind))
      .map((c) => ({ ...c, key: targetKey(c.target), current: targetKey(c.target) === currentKey })),
  })).filter((g) => g.choices.length > 0);
}

/** Whether the picker is worth offering in the main app: the identity holds a scope besides its businesses. */
export const hasOtherScopes = (choices: readonly ScopeChoice[] | undefined): boolean =>
  (choices ?? []).some((c) => c.target.kind !== 'BUSINESS');
