import { errorBody } from '../../schema/errors.ts';
import { commandDef, type CommandInput, type CommandName } from '../../schema/commands/index.ts';
import { fieldConflicts, resolvedPatch, type ConflictChoice } from '../../schema/commands/conflicts.ts';
import { withDuplicateConfirmed } from '../../schema/commands/bill.ts';
import { transition } from '../../sync/index.ts';
import type { CommandApi, ConflictResolution } from '../api.ts';
import { call } from '../online.ts';
import type { WorkerContext } from '../worker-context.ts';

/**
 * Commands: every command goes through the open mirror's CommandRunner (command-runner.ts),
 * then the leader's sync engine is kicked. Retry and discard work in any tab: the leader's
 * engine makes the transition, a follower makes the same one in the shared outbox.
 */
export function commandHandlers(ctx: WorkerContext): CommandApi {
  // The outbox path of the one `call` (workers/online.ts): the runner, then the engine is kicked.
  const run: CommandApi['run'] = (name, input) => call(ctx, commandDef(name), input as never);
  return {
    run,
    codeTransactions: (ids, patch) => run('transaction.bulkCode', { transaction_ids: ids, patch }),
    outbox: async () => ctx.host.runtime?.outboxIndex.entries() ?? [],
    retryCommand: (id) => retryEntry(ctx, id),
    confirmDuplicate: (id) => confirmDuplicate(ctx, id),
    async discardCommand(id) {
      const { engine, runtime: rt } = ctx.host;
      if (engine) {
        await engine.discard(id);
        return;
      }
      const entry = await rt?.outboxStore.get(id);
      if (!rt || !entry || entry.state === 'sending') return;
      await rt.outboxStore.remove(id);
    },
    resolveConflict: (id, choices) => resolveConflict(ctx, id, choices),
  };
}

/** Conflicts being resolved in this worker: a double click resolves once. */
const resolving = new Set<string>();

/**
 * Issue 24: the conflict drawer's choice as one new command (the fields kept as mine and the
 * unnamed ones, If-Match = the conflict's current_version), written in the same outbox write
 * that finishes the conflicted entry; theirs everywhere only drops it. Works in any tab: the
 * outbox is shared and the leader sends what lands in it.
 */
async function resolveConflict(ctx: WorkerContext, id: string, choices: Record<string, ConflictChoice>): Promise<ConflictResolution> {
  const rt = ctx.host.runtime;
  if (!rt) return { ok: false, error: errorBody('AUTH_7002').error_v2 };
  const gone = { ok: false as const, error: { ...errorBody('REQUEST_7004').error_v2, message: 'This change was already resolved.' } };
  if (resolving.has(id)) return gone;
  resolving.add(id);
  try {
    const entry = await rt.outboxStore.get(id);
    const details = entry?.state === 'conflict' ? fieldConflicts(entry.last_error) : null;
    if (!entry || !details) return gone;
    const def = commandDef(entry.command);
    const args: unknown = def.args.parse(entry.args);
    const patch = def.edits ? resolvedPatch(def.edits.patch(args), details.conflicts, choices) : null;
    if (!def.edits || !patch) {
      // Theirs everywhere: nothing to send; the entry was rolled back when it was refused.
      if (ctx.host.engine) await ctx.host.engine.discard(id);
      else await rt.outboxStore.remove(id);
      return { ok: true, queued: null };
    }
    const input = def.edits.withPatch(args, patch) as CommandInput<CommandName>;
    const { result } = await rt.commands.run(entry.command, input, { baseSeq: details.current_version, replaces: entry });
    if (!result.ok) return { ok: false, error: result.error };
    ctx.host.engine?.kick();
    return { ok: true, queued: result.command_id };
  } finally {
    resolving.delete(id);
  }
}

/**
 * Issue 25: a bill create or update the server refused as a duplicate invoice
 * (BILL_PAY_DUPLICATE_INVOICE) is sent again with `confirm_duplicate: true`, in its place in the
 * queue (edits queued behind it still follow it). False when the entry is gone or was refused
 * for something else.
 */
async function confirmDuplicate(ctx: WorkerContext, id: string): Promise<boolean> {
  const entry = await ctx.host.runtime?.outboxStore.get(id);
  if (!entry || entry.state !== 'failed' || entry.last_error?.error_code !== 'BILL_PAY_DUPLICATE_INVOICE') return false;
  const amend = (args: unknown) => withDuplicateConfirmed(entry.command, args);
  if (amend(entry.args) === null) return false;
  await retryEntry(ctx, id, (args) => amend(args) ?? args);
  return true;
}

/** failed / conflict / needs_step_up → pending, from any tab (also after a step-up); `amend`: the args to send instead. */
export async function retryEntry(ctx: WorkerContext, id: string, amend?: (args: unknown) => unknown): Promise<void> {
  const { engine, runtime: rt } = ctx.host;
  if (engine) {
    await engine.retry(id, amend);
    return;
  }
  // Follower: make the same transition in the shared store; the leader sees it and sends.
  const entry = await rt?.outboxStore.get(id);
  if (!rt || !entry || !['failed', 'conflict', 'needs_step_up'].includes(entry.state)) return;
  // Rows follow by themselves: every reader re-applies the entry when its state changes.
  const retried = transition(entry, { type: 'retry', newKey: crypto.randomUUID() }, ctx.deps.clock.now());
  await rt.outboxStore.put(amend ? { ...retried, args: amend(retried.args) } : retried);
}
