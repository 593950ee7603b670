import { errorBody } from '../../schema/errors.ts';
import { transition } from '../../sync/index.ts';
import type { CommandApi } from '../api.ts';
import type { WorkerContext } from '../worker-context.ts';

/**
 * Commands: every command goes through the open mirror's CommandRunner (command-runner.ts),
 * then the leader's sync engine is kicked. Retry and discard work in any tab: the leader's
 * engine makes the transition, a follower makes the same one in the shared outbox.
 */
export function commandHandlers(ctx: WorkerContext): CommandApi {
  const run: CommandApi['run'] = async (name, input) => {
    const rt = ctx.host.runtime;
    if (!rt) return { ok: false, error: errorBody('AUTH_7002').error_v2 };
    const { result } = await rt.commands.run(name, input);
    if (result.ok) ctx.host.engine?.kick();
    return result;
  };
  return {
    run,
    codeTransactions: (ids, patch) => run('transaction.bulkCode', { transaction_ids: ids, patch }),
    outbox: async () => ctx.host.runtime?.outboxIndex.entries() ?? [],
    retryCommand: (id) => retryEntry(ctx, id),
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
  };
}

/** failed / conflict / needs_step_up → pending, from any tab (also after a step-up). */
export async function retryEntry(ctx: WorkerContext, id: string): Promise<void> {
  const { engine, runtime: rt } = ctx.host;
  if (engine) {
    await engine.retry(id);
    return;
  }
  // Follower: make the same transition in the shared store; the leader sees it and sends.
  const entry = await rt?.outboxStore.get(id);
  if (!rt || !entry || !['failed', 'conflict', 'needs_step_up'].includes(entry.state)) return;
  // Rows follow by themselves: every reader re-applies the entry when its state changes.
  await rt.outboxStore.put(transition(entry, { type: 'retry', newKey: crypto.randomUUID() }, ctx.deps.clock.now()));
}
