import { z } from 'zod';
import { defineCall } from './define-call.ts';

/**
 * Delegation, "copilot" (issue 29; §6 "copilot needs the COPILOT permission", §7 `copilot (PUT,
 * DELETE copilot/{user} body)`). Anyone may name a delegate who holds COPILOT to decide their
 * approvals for a period (UTC days, both ends included); while it is active the delegate sees and
 * decides the approvals whose open step names the delegator, recorded "by delegate for delegator".
 * One delegation per delegator: a PUT replaces it. Nobody decides their own request through one.
 */
const scopes = { scopes: ['default'] } as const;
export const MAX_DELEGATION_DAYS = 366;
const day = z.iso.date();

export const delegationSchema = z.object({
  id: z.uuid(),
  delegator_id: z.uuid(),
  delegator_name: z.string(),
  delegate_id: z.uuid(),
  delegate_name: z.string(),
  starts_on: day,
  ends_on: day,
  /** True when today (UTC) is within the period. */
  active: z.boolean(),
  created_at: z.iso.datetime({ offset: true }),
});
export type Delegation = z.infer<typeof delegationSchema>;

/** The caller's delegations: the one they gave (at most one) and those they received. */
export const listDelegations = defineCall({
  id: 'copilot.list',
  method: 'GET',
  path: '/v1/auth/copilot',
  auth: scopes,
  response: z.object({ given: z.array(delegationSchema), received: z.array(delegationSchema) }),
});

/** §7 PUT copilot: the caller delegates to `delegate_id` (COPILOT, not oneself) from starts_on to ends_on. */
export const putDelegation = defineCall({
  id: 'copilot.put',
  method: 'PUT',
  path: '/v1/auth/copilot',
  auth: scopes,
  body: z.object({ delegate_id: z.uuid(), starts_on: day, ends_on: day }),
  response: delegationSchema,
});

/**
 * §7 DELETE copilot/{user} (body): ends the delegation between the caller and `user`, either way
 * round: the delegator takes their approvals back, or the delegate steps down.
 */
export const deleteDelegation = defineCall({
  id: 'copilot.delete',
  method: 'DELETE',
  path: '/v1/auth/copilot/:user_id',
  auth: scopes,
  params: z.object({ user_id: z.uuid() }),
  body: z.object({}).optional(),
  response: z.object({ deleted: z.literal(true), delegation: delegationSchema }),
});

export const COPILOT_CALLS = [listDelegations, putDelegation, deleteDelegation] as const;
