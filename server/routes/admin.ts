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
import { ApiError } from '../core/errors.ts';
import { actorOf, ok, type DomainHandlers, type Handler, type HandlerCtx } from '../http/handler.ts';

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

type OrgCalls = typeof departmentCalls | typeof locationCalls;

/** The four handlers of a named collection; the same code serves departments and locations. */
function orgHandlers(kind: OrgKind, calls: OrgCalls, param: string) {
  const idOf = (params: Record<string, string>) => params[param]!;
  const create: Handler<OrgCalls['create']> = async (ctx) => {
    const { businessId } = adminOf(ctx);
    return ok(await createOrg(ctx.db, kind, businessId, ctx.input.body.name), 201);
  };
  const rename: Handler<OrgCalls['rename']> = async (ctx) => {
    const { businessId } = adminOf(ctx);
    return ok(await renameOrg(ctx.db, kind, businessId, idOf(ctx.input.params), ctx.input.body.name));
  };
  const remove: Handler<OrgCalls['remove']> = async (ctx) => {
    const { businessId } = adminOf(ctx);
    return ok(await inWriteTx(ctx, calls.remove, (tx) => deleteOrg(tx, kind, businessId, idOf(ctx.input.params))));
  };
  const owners: Handler<OrgCalls['owners']> = async (ctx) => {
    const { businessId } = adminOf(ctx);
    const ids = ctx.input.body.user_ids;
    return ok(await inWriteTx(ctx, calls.owners, (tx) => setOrgOwners(tx, kind, businessId, idOf(ctx.input.params), ids)));
  };
  return { create, rename, remove, owners };
}

const departments = orgHandlers('departments', departmentCalls, 'department_id');
const locations = orgHandlers('locations', locationCalls, 'location_id');

export const adminHandlers = {
  [departmentCalls.create.id]: departments.create,
  [departmentCalls.rename.id]: departments.rename,
  [departmentCalls.remove.id]: departments.remove,
  [departmentCalls.owners.id]: departments.owners,
  [locationCalls.create.id]: locations.create,
  [locationCalls.rename.id]: locations.rename,
  [locationCalls.remove.id]: locations.remove,
  [locationCalls.owners.id]: locations.owners,

  // Any member may read the entity list (invite forms pick from it); only admins change it.
  [listEntitiesCall.id]: async (ctx) => ok({ data: await listEntities(ctx.db, actorOf(ctx).businessId) }),
  [createEntityCall.id]: async (ctx) => {
    const { businessId } = adminOf(ctx);
    return ok(await createEntity(ctx.db, businessId, ctx.input.body), 201);
  },
  [updateEntityCall.id]: async (ctx) => {
    const { businessId } = adminOf(ctx);
    return ok(await updateEntity(ctx.db, businessId, ctx.input.params.entity_uuid, ctx.input.body));
  },
  [deleteEntityCall.id]: async (ctx) => {
    const { businessId } = adminOf(ctx);
    await inWriteTx(ctx, deleteEntityCall, (tx) => deleteEntity(tx, businessId, ctx.input.params.entity_uuid));
    return ok({ ok: true });
  },
} satisfies DomainHandlers;
