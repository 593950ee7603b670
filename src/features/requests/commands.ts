import type { Command } from '../../lib/commands.ts';

/**
 * The palette's "New spend request". Run from another page it goes to /requests and asks the
 * page to open the New request dialog once mounted (as travel's "Plan a trip" does).
 */
let newRequestAsked = false;

/** Read by the page as it mounts (its first state)… */
export const peekNewRequest = (): boolean => newRequestAsked;
/** …and cleared once the page is mounted, so a later visit opens nothing. */
export function clearNewRequest(): void {
  newRequestAsked = false;
}

export function newRequestCommand(open: (ctx: Parameters<Command['run']>[0]) => void): Command {
  return { id: 'requests.new', label: 'New spend request', group: 'Requests', keywords: ['request', 'budget', 'purchase', 'card', 'spend', 'new'], run: open };
}

export const requestsCommands: readonly Command[] = [
  newRequestCommand((ctx) => {
    newRequestAsked = true;
    ctx.navigate('/requests');
  }),
];
