import type { Command } from '../../lib/commands.ts';

/**
 * The transactions feature's palette commands (exported by `index.ts`, like its routes and nav).
 * "Search transactions" from another page goes to the list and asks it to focus its search box
 * once mounted; on the list, the page's own command (same id) focuses it at once.
 */
let searchFocusRequested = false;

/** Read once by the page when it mounts: whether a command asked for the search box. */
export function takeSearchFocusRequest(): boolean {
  const requested = searchFocusRequested;
  searchFocusRequested = false;
  return requested;
}

export const SEARCH_COMMAND_ID = 'transactions.search';
export const CODE_COMMAND_ID = 'transactions.code';

export const transactionsCommands: readonly Command[] = [
  {
    id: SEARCH_COMMAND_ID,
    label: 'Search transactions',
    group: 'Transactions',
    keywords: ['find', 'filter'],
    shortcut: 'list.search',
    run: (ctx) => {
      searchFocusRequested = true;
      ctx.navigate('/transactions');
    },
  },
];
