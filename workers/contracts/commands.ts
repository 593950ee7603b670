import type { CodingPatch } from '../../schema/commands/coding-patch.ts';
import type { ConflictChoice } from '../../schema/commands/conflicts.ts';
import type { CommandInput, CommandName } from '../../schema/commands/index.ts';
import type { ErrorV2 } from '../../schema/errors.ts';
import type { OutboxEntry } from '../../sync/ports.ts';
import type { CommandResult } from './views.ts';

/** Commands and the outbox (handlers/commands.ts). */
export interface CommandApi {
  /**
   * Any command of COMMANDS (schema/commands), optimistic: parsed and checked locally
   * (`REQUEST_7001` with §5 messages, or the command's check, e.g. `REQUEST_7004` for an id not
   * in the mirror), queued in the outbox, applied to what every reader shows; resolves once
   * durable locally. `command_id` is the first entry's id when the command splits.
   */
  run<N extends CommandName>(name: N, input: CommandInput<N>): Promise<CommandResult>;
  /** `run('transaction.bulkCode', { transaction_ids: ids, patch })`, kept for existing callers. */
  codeTransactions(ids: string[], patch: CodingPatch): Promise<CommandResult>;
  outbox(): Promise<OutboxEntry[]>;
  retryCommand(id: string): Promise<void>;
  discardCommand(id: string): Promise<void>;
  /**
   * Issue 25: a `bill.create` / `bill.update` the server refused as a duplicate invoice
   * (BILL_PAY_DUPLICATE_INVOICE) is sent again with `confirm_duplicate: true`, keeping its place
   * in the queue. False when the entry is gone or was refused for something else.
   */
  confirmDuplicate(id: string): Promise<boolean>;
  /**
   * Issue 24: resolves a field-level conflict (an entry the server refused with 409 CONFLICT)
   * from the conflict drawer's choices (field → mine | theirs; unanswered: theirs). The fields
   * kept as mine and those the server did not name become ONE new command of the same kind with
   * `If-Match` = the conflict's `current_version`; the conflicted entry is finished in the same
   * durable write. Nothing left to send (theirs everywhere): the entry is only dropped.
   * `queued`: the new command's id, or null. Refused (`REQUEST_7004`) when the entry is gone or
   * is not such a conflict (resolved already, e.g. in another tab).
   */
  resolveConflict(id: string, choices: Record<string, ConflictChoice>): Promise<ConflictResolution>;
}

export type ConflictResolution = { ok: true; queued: string | null } | { ok: false; error: ErrorV2['error_v2'] };

