import type { CallDef } from '../../schema/api/define-call.ts';
import { ETAG_HEADER, formatEtag, IF_MATCH_HEADER, parseIfMatch } from '../../schema/conflicts.ts';
import type { Queryable } from '../db/db.ts';
import { ApiError, validationError } from '../core/errors.ts';
import { ConflictError, findConflicts, rowVersion, type ConflictCollection } from '../domain/conflicts.ts';
import { visibilityOf, type Visibility } from '../domain/visibility.ts';
import { requestDevice } from '../http/acting.ts';
import { actorOf, ok, type Handler, type HandlerCtx, type Reply } from '../http/handler.ts';

/**
 * Versions for the single-row reads and PATCHes of the six edited collections (issue 24 item 9):
 * a GET answers `ETag: "<change_seq>"`; a PATCH answers the row's new ETag, and one sent with
 * `If-Match` is merged field by field (domain/conflicts.ts): a field someone else changed since
 * that version refuses the whole request with 409 CONFLICT. Without If-Match a PATCH is as before.
 */

const rowIdOf = <C extends CallDef>(ctx: HandlerCtx<C>, param: string): string =>
  (ctx.input.params as Record<string, string>)[param]!;

const succeeded = (reply: Reply | Response): reply is Reply => !(reply instanceof Response) && reply.status >= 200 && reply.status < 300;

/** A single-row GET that answers the row's version as its ETag. */
export function versionedGet<C extends CallDef>(collection: ConflictCollection, param: string, handler: Handler<C>): Handler<C> {
  return async (ctx) => {
    const actor = actorOf(ctx);
    const id = rowIdOf(ctx, param);
    // Read before the row: if it changes in between, the ETag is older than the answer, never
    // newer (an older base can only cost a needless conflict, a newer one an overwrite).
    const before = await rowVersion(ctx.db, collection, actor.businessId, id);
    const reply = await handler(ctx);
    if (succeeded(reply)) {
      const answered = (reply.body as { change_seq?: unknown } | null)?.change_seq;
      const seq = typeof answered === 'number' ? answered : before;
      if (seq !== null) ctx.c.header(ETAG_HEADER, formatEtag(seq));
    }
    return reply;
  };
}

/**
 * The versioned GET of a row only the people who see it (§6 visibility) may read: its doc, else
 * 404 REQUEST_7004, as if it did not exist.
 */
export function visibleRowGet<C extends CallDef>(
  collection: ConflictCollection,
  param: string,
  find: (db: Queryable, businessId: string, vis: Visibility, id: string) => Promise<unknown>,
): Handler<C> {
  return versionedGet<C>(collection, param, async (ctx) => {
    const actor = actorOf(ctx);
    const doc = await find(ctx.db, actor.businessId, await visibilityOf(ctx.db, actor.user), rowIdOf(ctx, param));
    if (!doc) throw new ApiError('REQUEST_7004');
    return ok(doc);
  });
}

/** A PATCH of one row: If-Match merges field by field; the answer carries the row's new ETag. */
export function versionedPatch<C extends CallDef>(collection: ConflictCollection, param: string, handler: Handler<C>): Handler<C> {
  return async (ctx) => {
    const actor = actorOf(ctx);
    const id = rowIdOf(ctx, param);
    const header = ctx.c.req.header(IF_MATCH_HEADER);
    let found: Awaited<ReturnType<typeof findConflicts>> = null;
    if (header !== undefined) {
      const base = parseIfMatch(header);
      if (base === null) throw validationError({ [IF_MATCH_HEADER]: `${IF_MATCH_HEADER} must be a valid version ("<change_seq>")` });
      const body = (ctx.input.body ?? {}) as Record<string, unknown>;
      found = await findConflicts(ctx.db, collection, actor.businessId, id, body, base, requestDevice(ctx.c));
    }
    // The handler runs first either way: it decides whether the caller may write this row at all
    // (404/403 before any 409, so a conflict never shows a row's values to someone who may not
    // see it). A conflict then rolls its write back with the whole transaction.
    const reply = await handler(ctx);
    if (!succeeded(reply)) return reply;
    if (found && found.conflicts.length > 0) throw new ConflictError(found.conflicts, found.version);
    // The answered doc's change_seq is the row's version as this write left it (issue 33: no
    // statement more while the write holds its business's lock); read only for a doc without one.
    // A workflow that wrote the row again after it leaves the ETag older than the row, which can
    // only cost a needless conflict, never an overwrite (see versionedGet).
    const answered = (reply.body as { change_seq?: unknown } | null)?.change_seq;
    const seq = typeof answered === 'number' ? answered : await rowVersion(ctx.db, collection, actor.businessId, id);
    if (seq !== null) ctx.c.header(ETAG_HEADER, formatEtag(seq));
    return reply;
  };
}
