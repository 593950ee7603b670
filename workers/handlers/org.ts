import {
  createEntity, deleteEntity, departmentCalls, locationCalls, updateEntity, type BusinessEntity,
} from '../../schema/api/calls-admin.ts';
import { setEntityOwners } from '../../schema/api/calls-org.ts';
import type { CallDef, CallResponse } from '../../schema/api/define-call.ts';
import type { CallOptions } from '../../sync/index.ts';
import type { OrgApi, OrgFailure, OrgUnit } from '../api.ts';
import { actionFailure } from '../identity.ts';
import type { WorkerContext } from '../worker-context.ts';

/**
 * Refused before any request: organisation changes (departments, locations, business entities)
 * have no outbox command (admin writes answered there and then, like vendors'), so they need a
 * connection. The UI keeps what the person typed.
 */
export const ORG_OFFLINE: OrgFailure = {
  ok: false,
  offline: true,
  error: { error_code: 'OFFLINE', message: 'You’re offline. Changes to departments, locations and entities need a connection: nothing was saved.' },
};

/**
 * Issue 14's team administration calls (departments, locations, entities and their owners):
 * direct calls through the session's HTTP client. A failure is data (the server's `error_v2`,
 * a step-up request, or offline); a 401 expires the session like the sync engine's. Every
 * write comes back through the feed too (all three are mirrored reference data).
 */
export function orgHandlers(ctx: WorkerContext): OrgApi {
  async function send<C extends CallDef>(def: C, opts: CallOptions<C>): Promise<{ ok: true; data: CallResponse<C> } | OrgFailure> {
    if (!ctx.hub.online) return ORG_OFFLINE;
    const res = ctx.watch401(await ctx.requireHttp().call(def, opts));
    if (res.ok) return { ok: true, data: res.data };
    // A request that never reached the server is the same as offline: nothing changed there.
    if ((res.kind === 'network' || res.kind === 'timeout') && !res.maybeSent) return ORG_OFFLINE;
    return actionFailure(res);
  }
  const calls = { departments: departmentCalls, locations: locationCalls } as const;
  const unit = (r: { ok: true; data: OrgUnit } | OrgFailure) => (r.ok ? { ok: true as const, unit: r.data } : r);
  const entity = (r: { ok: true; data: BusinessEntity } | OrgFailure) => (r.ok ? { ok: true as const, entity: r.data } : r);
  // The two kinds' calls differ only in their parameter's name.
  const params = (kind: 'departments' | 'locations', id: string) => ({ [kind === 'departments' ? 'department_id' : 'location_id']: id });
  return {
    createOrgUnit: async (kind, name) => unit(await send(calls[kind].create, { body: { name } })),
    renameOrgUnit: async (kind, id, name) => unit(await send(calls[kind].rename, { params: params(kind, id), body: { name } })),
    deleteOrgUnit: async (kind, id) => unit(await send(calls[kind].remove, { params: params(kind, id) })),
    setOrgUnitOwners: async (kind, id, userIds) =>
      unit(await send(calls[kind].owners, { params: params(kind, id), body: { user_ids: userIds } })),
    createEntity: async (body) => entity(await send(createEntity, { body })),
    updateEntity: async (id, patch) => entity(await send(updateEntity, { params: { entity_uuid: id }, body: patch })),
    async deleteEntity(id) {
      const r = await send(deleteEntity, { params: { entity_uuid: id } });
      return r.ok ? { ok: true } : r;
    },
    setEntityOwners: async (id, userIds) => entity(await send(setEntityOwners, { params: { entity_uuid: id }, body: { user_ids: userIds } })),
  };
}
