import { createComment, deleteComment, listComments } from '../../schema/api/calls-comments.ts';
import {
  createComment as writeComment, deleteComment as removeComment, listComments as readThread,
} from '../domain/comments/comments.ts';
import { actorOf, ok, type DomainHandlers } from '../http/handler.ts';
import { inWriteTx } from './admin.ts';

/** Comment threads (issue 29): whoever sees the item reads and writes its thread (rules in domain/comments/). */
export const commentHandlers = {
  [listComments.id]: async (ctx) => {
    const { subject_type, subject_id } = ctx.input.query;
    return ok(await readThread(ctx.db, actorOf(ctx).user, subject_type, subject_id));
  },

  // POST runs in register's transaction (ctx.db), under the Idempotency-Key when one is sent.
  [createComment.id]: async (ctx) => ok(await writeComment(ctx.db, actorOf(ctx).user, ctx.input.body, new Date(ctx.deps.now())), 201),

  [deleteComment.id]: async (ctx) => {
    const { user } = actorOf(ctx);
    return ok(await inWriteTx(ctx, deleteComment, (tx) => removeComment(tx, user, ctx.input.params.comment_id, new Date(ctx.deps.now()))));
  },
} satisfies DomainHandlers;
