import type { Command } from '../../lib/commands.ts';

export const NEW_BILL_COMMAND_ID = 'bills.new';

/**
 * "New bill" opens the bill form: on the Bills page at once (the page's own command, same id),
 * from anywhere else by going to /bills and asking the page to open the form once mounted (as
 * the reimbursements' and cards' "New …" do). The route sends anyone who does not manage bill
 * pay home, so the command opens nothing for them.
 */
let newBillRequested = false;

/** Read by the page as it mounts (its first state)… */
export const peekNewBillRequest = (): boolean => newBillRequested;
/** …and cleared once the page is mounted, so a later visit opens nothing. */
export function clearNewBillRequest(): void {
  newBillRequested = false;
}

export function newBillCommand(run: Command['run']): Command {
  return { id: NEW_BILL_COMMAND_ID, label: 'New bill', group: 'Bills', keywords: ['invoice', 'bill pay', 'vendor', 'payable', 'create'], run };
}

export const billsCommands: readonly Command[] = [
  newBillCommand((ctx) => {
    newBillRequested = true;
    ctx.navigate('/bills');
  }),
];
