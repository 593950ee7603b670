import type { z } from 'zod';
import type { CallDef, CallInput } from '../api/define-call.ts';
import type { MirroredCollection } from '../sync-feed.ts';

/**
 * A command is defined once: args schema, the entities it touches, the API call that carries
 * it, and a pure `apply` that the worker runs optimistically and the server with authority.
 */
export interface CommandDef<A extends z.ZodType, E, C extends CallDef> {
  name: string;
  args: A;
  collection: MirroredCollection;
  entityIds: (args: z.output<A>) => string[];
  call: C;
  request: (args: z.output<A>) => Partial<CallInput<C>>;
  apply: (entity: E, args: z.output<A>) => E;
}

export function defineCommand<A extends z.ZodType, E, C extends CallDef>(
  def: CommandDef<A, E, C>,
): CommandDef<A, E, C> {
  return def;
}
