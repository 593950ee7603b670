import type { Command } from '../../lib/commands.ts';

/**
 * The travel feature's palette command "Plan a trip". Run from another page it goes to /travel
 * and asks the page to open the New trip dialog once mounted (as reimbursements' "New …" do).
 */
let newTripRequested = false;

/** Read by the page as it mounts (its first state)… */
export const peekNewTripRequest = (): boolean => newTripRequested;
/** …and cleared once the page is mounted, so a later visit opens nothing. */
export function clearNewTripRequest(): void {
  newTripRequested = false;
}

export function planTripCommand(open: (ctx: Parameters<Command['run']>[0]) => void): Command {
  return { id: 'travel.newTrip', label: 'Plan a trip', group: 'Travel', keywords: ['travel', 'trip', 'new', 'flight', 'hotel'], run: open };
}

export const travelCommands: readonly Command[] = [
  planTripCommand((ctx) => {
    newTripRequested = true;
    ctx.navigate('/travel');
  }),
];
