import { APPLICATION_ID_HEADER } from '../../schema/api/calls-application-steps.ts';
import { isEditable } from '../../schema/application-rules.ts';
import { ApiError } from '../core/errors.ts';
import type { Queryable } from '../db/db.ts';
import { draftOf, findApplication, type ApplicationRow } from '../domain/applications/draft.ts';
import { ok, surfaceActorOf, type HandlerCtx, type Reply } from '../http/handler.ts';
import type { CallDef } from '../../schema/api/define-call.ts';

/**
 * The applicant's access to its application (issue 31): the token's application, named again in
 * `X-RAMP-FINANCING-APPLICATION-ID` (another id, or none: 404, so a client never writes into an
 * application it did not mean); membership was checked live by authentication (holdsSurface).
 */
type Ctx = HandlerCtx<CallDef>;

export const todayOf = (ctx: { deps: { now: () => number } }) => new Date(ctx.deps.now()).toISOString().slice(0, 10);

export function applicationIdOf(ctx: Pick<Ctx, 'surfaceActor' | 'c'>): string {
  const actor = surfaceActorOf(ctx, 'FINANCING_APPLICATION');
  const id = actor.surface.financing_application_id;
  if (ctx.c.req.header(APPLICATION_ID_HEADER)?.toLowerCase() !== id.toLowerCase()) throw new ApiError('REQUEST_7004', 'There is no such application.');
  return id;
}

export async function readApplication(ctx: Pick<Ctx, 'surfaceActor' | 'c'>, db: Queryable, lock = false): Promise<ApplicationRow> {
  const row = await findApplication(db, applicationIdOf(ctx), lock);
  if (!row) throw new ApiError('REQUEST_7004', 'There is no such application.');
  return row;
}

/**
 * A write to the draft: in one transaction (POST/PATCH run in register's; DELETE opens its own),
 * the application row locked first (so a submit and a write never interleave), refused with
 * APPLICATION_7001 once submitted — unless `afterSubmit` lets this write through (the documents
 * operations asked for) — its version bumped, and the whole draft answered.
 */
export async function writeDraft(
  ctx: Pick<Ctx, 'surfaceActor' | 'c' | 'db' | 'deps'>,
  write: (tx: Queryable, app: ApplicationRow) => Promise<void>,
  afterSubmit?: (tx: Queryable, app: ApplicationRow) => Promise<boolean>,
): Promise<Reply> {
  const run = async (tx: Queryable) => {
    const app = await readApplication(ctx, tx, true);
    if (!isEditable(app.status) && !(afterSubmit && await afterSubmit(tx, app))) throw new ApiError('APPLICATION_7001');
    await write(tx, app);
    await tx.query('UPDATE financing_applications SET version = version + 1, updated_at = $2 WHERE id = $1', [app.id, new Date(ctx.deps.now())]);
    const fresh = await findApplication(tx, app.id);
    return ok(await draftOf(tx, fresh!, todayOf(ctx)));
  };
  return ctx.c.req.method === 'DELETE' ? ctx.deps.db.transaction(run) : run(ctx.db);
}

/** Sets one step's answer (the steps kept as a whole in `answers`). */
export const setAnswer = (tx: Queryable, id: string, step: string, value: unknown) =>
  tx.query("UPDATE financing_applications SET answers = jsonb_set(answers, ARRAY[$2::text], $3::jsonb) WHERE id = $1", [id, step, JSON.stringify(value)]);
