import { z } from 'zod';
import { produce } from 'immer';
import { allInMirror, type CommandCheckContext, type MirrorReader } from './define-command.ts';
import type { MirroredCollection } from '../collections.ts';

/**
 * The parts most commands share, written once: which row a command names and how it reaches the
 * call, a create under the client's id, the tombstone a delete leaves and the review a cancel
 * closes. Each command spreads or calls them beside what is its own.
 */

type IdArgs<K extends string> = { readonly [k in K]: string };

/**
 * A command on one existing row: args naming it (`{ [idArg]: uuid }`; a command that carries
 * more extends `args`), that row as the command's entity, and its id as the call's `param` path
 * parameter. `inMirror` is the check of the commands that refuse a row the mirror does not hold.
 */
export function rowCommand<const C extends MirroredCollection, const K extends string, const P extends string>(collection: C, idArg: K, param: P) {
  const args = z.object({ [idArg]: z.uuid() } as { [k in K]: z.ZodUUID });
  const shared = {
    args,
    collection,
    entityIds: (a: IdArgs<K>) => [a[idArg]],
    request: (a: IdArgs<K>) => ({ params: { [param]: a[idArg] } as { [p in P]: string } }),
  };
  const inMirror = (a: IdArgs<K>, mirror: Pick<CommandCheckContext, 'has'>) => allInMirror([a[idArg]], mirror);
  return { shared, inMirror };
}

/**
 * A create under the client's id: the call's body with the id required (optional in the call),
 * sent in the body so the server creates the row under it (a repeat answers the stored row); the
 * created row is the command's one entity.
 */
export function createWithId<Shape extends z.core.$ZodShape, Config extends z.core.$ZodObjectConfig>(body: z.ZodObject<Shape, Config>) {
  const args = body.extend({ id: z.uuid() });
  return {
    args,
    entityIds: (a: { id: string }) => [a.id],
    request: (a: z.output<typeof args>) => ({ body: a }),
  };
}

/** A delete's optimistic effect: the row as a tombstone at once (the feed then drops it). */
export const asTombstone = <R extends { deleted: boolean }>(row: R): R => produce(row, (d) => {
  (d as { deleted: boolean }).deleted = true;
});

/**
 * A cancel whose server also cancels the object's open review in the same write: the pending
 * approvals naming it, read from the mirror when queued, show canceled at once (the feed brings them).
 */
export function cancelsOpenReview<A>(objectId: (args: A) => string) {
  return {
    approvals: {
      ids: (a: A, mirror: MirrorReader) => mirror.matching('approvals', { object_ids: [objectId(a)], status: ['PENDING'] }),
      apply: <R extends { status: string }>(approval: R): R => (approval.status === 'PENDING' ? { ...approval, status: 'CANCELED' } : approval),
    },
  };
}
