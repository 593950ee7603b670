import type { z } from 'zod';
import {
  createEntity, deleteEntity, departmentCalls, locationCalls, updateEntity, type adminDepartmentSchema, type BusinessEntity,
} from '../../schema/api/calls-admin.ts';
import { setEntityOwners } from '../../schema/api/calls-org.ts';
import { getMerchantRestrictions, putMerchantRestrictions, type MerchantRestrictions } from '../../schema/api/calls-business.ts';
import type { OnlineFailure } from '../contracts/views.ts';
import { bindDomain, custom, offlineFailure, onlineDomain, via, type OnlineApi, type OnlinePort, type Sent } from '../online.ts';

/**
 * An organisation call's refusal. `offline`: nothing was sent (departments, locations and
 * entities are changed by direct calls only, online).
 */
export type OrgFailure = OnlineFailure;
/** A department or location as the admin calls answer it (with its owners). */
export type OrgUnit = z.output<typeof adminDepartmentSchema>;
export type OrgUnitKind = 'departments' | 'locations';
export type OrgUnitResult = { ok: true; unit: OrgUnit } | OrgFailure;
export type BusinessEntityResult = { ok: true; entity: BusinessEntity } | OrgFailure;
export type BusinessEntityInput = z.input<typeof createEntity.body>;

/**
 * Refused before any request: organisation changes (departments, locations, business entities)
 * have no outbox command (admin writes answered there and then, like vendors'), so they need a
 * connection. The UI keeps what the person typed.
 */
export const ORG_OFFLINE = offlineFailure('You’re offline. Changes to departments, locations and entities need a connection: nothing was saved.');

const unitCalls = { departments: departmentCalls, locations: locationCalls } as const;
// The two kinds' calls differ only in their parameter's name.
const unitParams = (kind: OrgUnitKind, id: string) => ({ [kind === 'departments' ? 'department_id' : 'location_id']: id });
const unit = (r: Sent<OrgUnit>): OrgUnitResult => (r.ok ? { ok: true, unit: r.data } : r);
const entity = (e: BusinessEntity) => ({ entity: e });
const entityId = (id: string) => ({ entity_uuid: id });
const restrictions = (r: MerchantRestrictions) => ({ restrictions: r });

/**
 * Issue 14's team administration: departments, locations and business entities, admins only,
 * direct calls (online only). The lists are mirrored reference data (`referenceData()`:
 * departments, locations, entities, owners included), so the pages read them offline; every
 * write's row comes back through the feed too.
 */
export const ORG_CALLS = onlineDomain(ORG_OFFLINE, {
  createOrgUnit: custom((send) => async (kind: OrgUnitKind, name: string) => unit(await send(unitCalls[kind].create, { body: { name } }))),
  renameOrgUnit: custom((send) => async (kind: OrgUnitKind, id: string, name: string) =>
    unit(await send(unitCalls[kind].rename, { params: unitParams(kind, id), body: { name } }))),
  /** People in it move to none (each user row changes); transactions keep their coding. */
  deleteOrgUnit: custom((send) => async (kind: OrgUnitKind, id: string) => unit(await send(unitCalls[kind].remove, { params: unitParams(kind, id) }))),
  /** The whole owner list (users of the business). */
  setOrgUnitOwners: custom((send) => async (kind: OrgUnitKind, id: string, userIds: string[]) =>
    unit(await send(unitCalls[kind].owners, { params: unitParams(kind, id), body: { user_ids: userIds } }))),
  createEntity: via(createEntity, (body: BusinessEntityInput) => ({ body }), entity),
  updateEntity: via(updateEntity, (id: string, patch: Partial<BusinessEntityInput>) => ({ params: entityId(id), body: patch }), entity),
  /** Refused (REQUEST_7001, the server's words) while live users belong to it. */
  deleteEntity: via(deleteEntity, (id: string) => ({ params: entityId(id) })),
  setEntityOwners: via(setEntityOwners, (id: string, userIds: string[]) => ({ params: entityId(id), body: { user_ids: userIds } }), entity),
  /** Issue 29: the categories every card of the business is refused at (read by anyone; admins replace them). */
  merchantRestrictions: via(getMerchantRestrictions, () => ({}), restrictions),
  setMerchantRestrictions: via(putMerchantRestrictions, (categories: string[]) => ({ body: { blocked_merchant_categories: categories } }), restrictions),
});

export type OrgApi = OnlineApi<typeof ORG_CALLS>;

export const orgHandlers = (port: OnlinePort): OrgApi => bindDomain(port, ORG_CALLS);
