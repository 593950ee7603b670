import type { Hono } from 'hono';
import {
  createEntity as createEntityCall,
  deleteEntity as deleteEntityCall,
  departmentCalls,
  listEntities as listEntitiesCall,
  locationCalls,
  updateEntity as updateEntityCall,
} from '../../schema/api/calls-admin.ts';
import type { CallDef } from '../../schema/api/define-call.ts';
import { isAdmin } from '../../schema/roles.ts';
import type { Queryable } from '../db/db.ts';
import { createEntity, createOrg, deleteEntity, deleteOrg, listEntities, renameOrg, setOrgOwners, updateEntity, type OrgKind } from '../domain/admin-org.ts';
import type { Actor } from '../core/actor.ts';
import type { AppDeps } from '../core/deps.ts';
import { ApiError } from '../core/errors.ts';
import { actorOf, ok, register, type HandlerCtx } from '../http/register.ts';

/** The acting admin (owner or administrator); anyone else is refused with FORBIDDEN_7003. */
export function adminOf(ctx: { actor: Actor | null }): Actor {
  const actor = actorOf(ctx);
  if (!isAdmin(actor.user)) throw new ApiError('FORBIDDEN_7003', 'Only administrators can manage the business.');
  return actor;
}

/**
 * register() opens a transaction for POST/PATCH only; PUT and DELETE writes open their own so
 * every admin write is atomic.
 */
export function inWriteTx<C extends CallDef, T>(ctx: HandlerCtx<C>, call: C, fn: (tx: Queryable) => Promise<T>): Promise<T> {
  return call.idempotent ? fn(ctx.db) : ctx.deps.db.transaction(fn);
}

function registerOrg(app: Hono, deps: AppDeps, kind: OrgKind, calls: typeof departmentCalls | typeof locationCalls, param: string) {
  const idOf = (params: Record<string, string>) => params[param]!;
  register(app, deps, calls.create, async (ctx) => {
    const { businessId } = adminOf(ctx);
    return ok(await createOrg(ctx.db, kind, businessId, ctx.input.body.name), 201);
  });
  register(app, deps, calls.rename, async (ctx) => {
    const { businessId } = adminOf(ctx);
    return ok(await renameOrg(ctx.db, kind, businessId, idOf(ctx.input.params), ctx.input.body.name));
  });
  register(app, deps, calls.remove, async (ctx) => {
    const { businessId } = adminOf(ctx);
    return ok(await inWriteTx(ctx, calls.remove, (tx) => deleteOrg(tx, kind, businessId, idOf(ctx.input.params))));
  });
  register(app, deps, calls.owners, async (ctx) => {
    const { businessId } = adminOf(ctx);
    const ids = ctx.input.body.user_ids;
    return ok(await inWriteTx(ctx, calls.owners, (tx) => setOrgOwners(tx, kind, businessId, idOf(ctx.input.params), ids)));
  });
}

export function registerAdminRoutes(app: Hono, deps: AppDeps): void {
  registerOrg(app, deps, 'departments', departmentCalls, 'department_id');
  registerOrg(app, deps, 'locations', locationCalls, 'location_id');

  // Any member may read the entity list (invite forms pick from it); only admins change it.
  register(app, deps, listEntitiesCall, async (ctx) => ok({ data: await listEntities(ctx.db, actorOf(ctx).businessId) }));
  register(app, deps, createEntityCall, async (ctx) => {
    const { businessId } = adminOf(ctx);
    return ok(await createEntity(ctx.db, businessId, ctx.input.body), 201);
  });
  register(app, deps, updateEntityCall, async (ctx) => {
    const { businessId } = adminOf(ctx);
    return ok(await updateEntity(ctx.db, businessId, ctx.input.params.entity_uuid, ctx.input.body));
  });
  register(app, deps, deleteEntityCall, async (ctx) => {
    const { businessId } = adminOf(ctx);
    await inWriteTx(ctx, deleteEntityCall, (tx) => deleteEntity(tx, businessId, ctx.input.params.entity_uuid));
    return ok({ ok: true });
  });
}
