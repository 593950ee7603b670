import type { ComponentType } from 'react';
import type { SpendUser } from '../../schema/entities/spend-user.ts';

/**
 * What a feature hands the router (src/router.tsx): its routes, built under the parent the shell
 * gives them (signed-out pages or the signed-in layout), and its entries in the main navigation.
 * The session guards stay in the shell, so a feature's routes are only path, search and view.
 */
export interface NavItem {
  /** A path of one of the feature's signed-in routes. */
  to: string;
  label: string;
  /** The label in the phone's bottom navigation, where five entries share 360 px (default: `label`). */
  short?: string;
  /** Shown (and offered as "Go to …") only to the users it answers true for; absent: everyone. */
  visible?: (user: SpendUser) => boolean;
  /**
   * A hook: shows the entry to a user `visible` leaves out while it answers true (approvals: the
   * person has decisions waiting because a chain names them). Called on every render of the shell.
   */
  useAlsoVisible?: () => boolean;
  /** A small count beside the label (e.g. pending approvals); renders nothing when there is none. */
  badge?: ComponentType;
}

/**
 * The entries the signed-in user sees. `also`: the `to` of entries their `useAlsoVisible` hook
 * shows now, newline-separated (AppLayout's; the palette's "Go to" list passes none).
 */
export function visibleNav(nav: readonly NavItem[], user: SpendUser | null | undefined, also = ''): NavItem[] {
  const extra = new Set(also.split('\n'));
  return nav.filter((item) => !item.visible || (user != null && item.visible(user)) || extra.has(item.to));
}
