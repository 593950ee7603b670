import { z } from 'zod';
import { defineCall } from './define-call.ts';
import { departmentSchema } from '../entities/department.ts';
import { locationSchema } from '../entities/location.ts';
import { userRowSchema } from '../entities/spend-user.ts';
import { roleSchema } from '../roles.ts';

/**
 * Issue 3 business administration: departments, locations, business entities and users
 * (invite, resend, role, suspend, delete) plus invite acceptance. Spread into CATALOGUE by
 * calls.ts as ADMIN_CALLS; this file must not import calls.ts (no cycles).
 * Ids starting with `admin.` are admin-only unless their route says otherwise (the catalogue-wide
 * tenant-isolation test reads that convention).
 */
const fullScopes = { scopes: ['default'] } as const;
/** Matches the identity calls' password rule (PASSWORD_MIN_LENGTH there). */
export const INVITE_PASSWORD_MIN_LENGTH = 10;

const name = z.string().trim().min(1).max(200);
const ownerFields = { owner_ids: z.array(z.uuid()) };
export const adminDepartmentSchema = departmentSchema.extend(ownerFields);
const adminLocationSchema = locationSchema.extend(ownerFields);

export const businessEntitySchema = z.object({
  id: z.uuid(),
  business_id: z.uuid(),
  name: z.string(),
  country: z.string().length(2),
  currency: z.string().length(3),
  /** Issue 14: the entity's owners (users of the business), set with `admin.entities.owners` (calls-org.ts). */
  owner_ids: z.array(z.uuid()),
  created_at: z.iso.datetime({ offset: true }),
  updated_at: z.iso.datetime({ offset: true }),
});
export type BusinessEntity = z.infer<typeof businessEntitySchema>;
const entityBody = z.object({
  name,
  country: z.string().regex(/^[A-Z]{2}$/, 'country must be a valid ISO 3166 alpha-2 code'),
  currency: z.string().regex(/^[A-Z]{3}$/, 'currency must be a valid ISO 4217 code'),
});

/** Create, rename, delete and set owners for a named collection (departments, locations). */
function namedCollection<K extends 'departments' | 'locations', S extends z.ZodType>(kind: K, param: string, doc: S) {
  const base = `/v1/auth/businesses/${kind}`;
  const params = z.object({ [param]: z.uuid() });
  return {
    create: defineCall({ id: `admin.${kind}.create`, method: 'POST', path: base, auth: fullScopes, body: z.object({ name }), response: doc }),
    rename: defineCall({
      id: `admin.${kind}.rename`, method: 'PATCH', path: `${base}/:${param}`, auth: fullScopes,
      params, body: z.object({ name }), response: doc,
    }),
    remove: defineCall({ id: `admin.${kind}.delete`, method: 'DELETE', path: `${base}/:${param}`, auth: fullScopes, params, response: doc }),
    owners: defineCall({
      id: `admin.${kind}.owners`, method: 'PUT', path: `${base}/:${param}/owners`, auth: fullScopes,
      params, body: z.object({ user_ids: z.array(z.uuid()).max(100) }), response: doc,
    }),
  };
}

export const departmentCalls = namedCollection('departments', 'department_id', adminDepartmentSchema);
export const locationCalls = namedCollection('locations', 'location_id', adminLocationSchema);

const entityParams = z.object({ entity_uuid: z.uuid() });
export const listEntities = defineCall({
  id: 'entities.list', method: 'GET', path: '/v1/auth/businesses/entities', auth: fullScopes,
  response: z.object({ data: z.array(businessEntitySchema) }),
});
export const createEntity = defineCall({
  id: 'admin.entities.create', method: 'POST', path: '/v1/auth/businesses/entities', auth: fullScopes,
  body: entityBody, response: businessEntitySchema,
});
export const updateEntity = defineCall({
  id: 'admin.entities.update', method: 'PATCH', path: '/v1/auth/businesses/entities/:entity_uuid', auth: fullScopes,
  params: entityParams, body: entityBody.partial(), response: businessEntitySchema,
});
export const deleteEntity = defineCall({
  id: 'admin.entities.delete', method: 'DELETE', path: '/v1/auth/businesses/entities/:entity_uuid', auth: fullScopes,
  params: entityParams, response: z.object({ ok: z.literal(true) }),
});

const userParams = z.object({ user_uuid: z.uuid() });
/**
 * A user as admins see it: the mirrored row plus the entity and (issue 29) the permissions the
 * person holds (AP_ACCESS, COPILOT, …), which the mirror does not carry.
 */
const adminUserSchema = userRowSchema.extend({ entity_id: z.uuid().nullable(), user_permissions: z.array(z.string()).default([]) });
export type AdminUser = z.infer<typeof adminUserSchema>;
const inviteResponse = z.object({ user: adminUserSchema, invite: z.object({ expires_at: z.iso.datetime({ offset: true }) }) });

export const inviteUser = defineCall({
  id: 'admin.users.invite', method: 'POST', path: '/v1/auth/businesses/users/invite', auth: fullScopes,
  body: z.object({
    email: z.email().max(320),
    first_name: name,
    last_name: name,
    role: roleSchema,
    manager_id: z.uuid().nullish(),
    department_id: z.uuid().nullish(),
    location_id: z.uuid().nullish(),
    entity_id: z.uuid().nullish(),
  }),
  response: inviteResponse,
});
export const resendInvite = defineCall({
  id: 'admin.users.resendInvite', method: 'POST', path: '/v1/auth/businesses/users/:user_uuid/resend-invite', auth: fullScopes,
  params: userParams, body: z.object({}).optional(), response: inviteResponse,
});
export const changeUserRole = defineCall({
  id: 'admin.users.changeRole', method: 'PATCH', path: '/v1/auth/businesses/users/:user_uuid/role', auth: fullScopes,
  params: userParams, body: z.object({ role: roleSchema, is_manager: z.boolean().optional() }), response: adminUserSchema,
});
export const suspendUser = defineCall({
  id: 'admin.users.suspend', method: 'POST', path: '/v1/auth/businesses/users/:user_uuid/suspend', auth: fullScopes,
  params: userParams, body: z.object({}).optional(), response: adminUserSchema,
});
/** §7 lists `DELETE users/{user}/suspend` (unsuspend) under /users, not /businesses/users. */
export const unsuspendUser = defineCall({
  id: 'admin.users.unsuspend', method: 'DELETE', path: '/v1/auth/users/:user_uuid/suspend', auth: fullScopes,
  params: userParams, response: adminUserSchema,
});
export const deleteUser = defineCall({
  id: 'admin.users.delete', method: 'DELETE', path: '/v1/auth/businesses/users/:user_uuid', auth: fullScopes,
  params: userParams, response: z.object({ ok: z.literal(true) }),
});
/** One user as admins see it (the mirrored row has no entity_id): the person drawer reads it. */
export const getUser = defineCall({
  id: 'admin.users.get', method: 'GET', path: '/v1/auth/businesses/users/:user_uuid', auth: fullScopes,
  params: userParams, response: adminUserSchema,
});
/**
 * §7 `PATCH /businesses/users/{user_uuid}`: the reporting line and where the person sits. Each
 * field absent = unchanged, null = cleared. A manager must be an active user of the business, not
 * the person, and not one of their reports (no loops); ids of another business answer 404.
 */
export const updateUser = defineCall({
  id: 'admin.users.update', method: 'PATCH', path: '/v1/auth/businesses/users/:user_uuid', auth: fullScopes,
  params: userParams,
  body: z.object({
    manager_id: z.uuid().nullable().optional(),
    department_id: z.uuid().nullable().optional(),
    location_id: z.uuid().nullable().optional(),
    entity_id: z.uuid().nullable().optional(),
  }),
  response: adminUserSchema,
});

/**
 * §7 bill pay `DELETE ap-clerks/{user}` (issue 29): takes AP clerk access (the AP_ACCESS
 * permission) away from a person. Admins only; a person of another business, deleted, or without
 * the permission answers 404 (there is no AP clerk of that id). Answers the person as admins see them.
 */
export const removeApClerk = defineCall({
  id: 'admin.apClerks.remove', method: 'DELETE', path: '/v1/auth/bill-pay/ap-clerks/:user_uuid', auth: fullScopes,
  params: userParams, response: adminUserSchema,
});

const inviteToken = z.string().regex(/^[A-Za-z0-9_-]{20,100}$/, 'token must be a valid invite token');
/** What the invite page shows before the person sets a password: `accepted` = used. */
const inviteLookupSchema = z.object({
  email: z.string(),
  first_name: z.string(),
  business_name: z.string(),
  inviter_name: z.string().nullable(),
  status: z.enum(['pending', 'expired', 'accepted']),
  /** The person already has a Ledgerline password (another business): they type that one. */
  existing_account: z.boolean(),
  expires_at: z.iso.datetime({ offset: true }),
});
export type InviteLookup = z.infer<typeof inviteLookupSchema>;
export const lookupInvite = defineCall({
  id: 'invites.lookup', method: 'GET', path: '/v1/public/invites/:token', auth: 'public',
  params: z.object({ token: inviteToken }), response: inviteLookupSchema,
});
export const acceptInvite = defineCall({
  id: 'invites.accept', method: 'POST', path: '/v1/public/invites/:token/accept', auth: 'public',
  params: z.object({ token: z.string().regex(/^[A-Za-z0-9_-]{20,100}$/, 'token must be a valid invite token') }),
  body: z.object({
    password: z.string().min(INVITE_PASSWORD_MIN_LENGTH, `password must be at least ${INVITE_PASSWORD_MIN_LENGTH} characters`).max(1024),
  }),
  response: z.object({ id_token: z.string(), mfa_required: z.boolean() }),
});

export const ADMIN_CALLS = [
  ...Object.values(departmentCalls),
  ...Object.values(locationCalls),
  listEntities, createEntity, updateEntity, deleteEntity,
  inviteUser, resendInvite, changeUserRole, suspendUser, unsuspendUser, deleteUser, acceptInvite,
  getUser, updateUser, lookupInvite, removeApClerk,
] as const;
