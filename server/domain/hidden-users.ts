import { isHiddenSpendUser, ROLES, type Role } from '../../schema/roles.ts';

/** The roles of hidden spend users (`isHiddenSpendUser`, §6; issue 31): in no people list, switcher or picker. */
export const HIDDEN_ROLES: readonly Role[] = ROLES.filter((role) => isHiddenSpendUser({ role }));

/** The condition "not a hidden spend user" on spend_users (of `alias`, or unqualified): people lists, pickers, assignees. */
export const shownUserSql = (alias?: string) => `${alias ? `${alias}.` : ''}role NOT IN (${HIDDEN_ROLES.map((r) => `'${r}'`).join(', ')})`;
