import type { CommandInput, CommandName } from '../../../schema/commands/index.ts';
import type { DataClient } from '../../data-access/types.ts';
import type { Command } from '../../lib/commands.ts';
import { errorText } from '../../lib/error-text.ts';
import { toastError, toastInfo } from '../../lib/toast-store.ts';

/**
 * Runs one card command through the worker: optimistic, durable in the outbox, shown at once
 * with its "waiting to sync" mark, offline too. A local refusal (bad input, a card not in the
 * mirror) is toasted in the catalogue's words; true when the command was queued.
 */
export async function runCardCommand<N extends CommandName>(client: DataClient, name: N, input: CommandInput<N>, done?: string): Promise<boolean> {
  const result = await client.run(name, input);
  if (!result.ok) {
    toastError(errorText(result.error));
    return false;
  }
  if (done) toastInfo(done);
  return true;
}

export const REQUEST_COMMAND_ID = 'cards.request';
export const ISSUE_COMMAND_ID = 'cards.issue';

export type CardForm = 'request' | 'issue';

/**
 * The cards feature's palette commands (exported by `index.ts`). Run from another page, a
 * command goes to /cards and asks the page to open its form once mounted; on the page, its own
 * commands (same ids, `cardFormCommands(open)`) open the form at once. Issuing is for admins and
 * managers: the page says so to anyone else instead of opening the form.
 */
let formRequested: CardForm | null = null;

/** Read by the page as it mounts (its first state): the form a command asked for, if any… */
export const peekCardFormRequest = (): CardForm | null => formRequested;
/** …and cleared once the page is mounted, so a later visit opens nothing. */
export function clearCardFormRequest(): void {
  formRequested = null;
}

export function cardFormCommands(open: (form: CardForm, ctx: Parameters<Command['run']>[0]) => void): Command[] {
  return [
    {
      id: REQUEST_COMMAND_ID,
      label: 'Request a card',
      group: 'Cards',
      keywords: ['new card', 'virtual', 'physical', 'limit'],
      run: (ctx) => open('request', ctx),
    },
    {
      id: ISSUE_COMMAND_ID,
      label: 'Issue card',
      group: 'Cards',
      keywords: ['new card', 'create card', 'virtual', 'physical', 'admin', 'manager'],
      run: (ctx) => open('issue', ctx),
    },
  ];
}

export const cardsCommands: readonly Command[] = cardFormCommands((form, ctx) => {
  formRequested = form;
  ctx.navigate('/cards');
});
