import { randomUUID } from 'node:crypto';
import { MAX_DELEGATION_DAYS, type Delegation } from '../../schema/api/calls-copilot.ts';
import { delegatorFor, type InstanceState } from '../../schema/approval-policy.ts';
import { canUseCopilot } from '../../schema/roles.ts';
import { delegateFlagRefusal } from '../../schema/team-rules.ts';
import { featureFlagsOf } from '../auth/settings.ts';
import type { ActingUser } from '../core/actor.ts';
import { ApiError, validationError } from '../core/errors.ts';
import type { Queryable } from '../db/db.ts';
import { shownUserSql } from './hidden-users.ts';

/**
 * Delegation, "copilot" (issue 29). A delegation lets its delegate decide the approvals whose step
 * names the delegator, from starts_on to ends_on (UTC days, inclusive). "Active" is read from the
 * database clock everywhere (the approver rule, decisions, the listing, the feed's epoch), so
 * whether a delegate may see an approval and whether they may decide it never disagree.
 *
 * The mirror: the `approver` rule admits a row to a delegate while the delegation is active
 * (`delegatedApproverSql`), and the feed's visibility epoch hashes the viewer's active delegators
 * (`delegationEpochBasis`), so a delegation that starts or ends (by a write, or a day passing)
 * makes the delegate's client re-pull: the rows arrive, or leave.
 */

const TODAY = `(now() AT TIME ZONE 'UTC')::date`;
const ACTIVE = (d: string) => `${d}.starts_on <= ${TODAY} AND ${TODAY} <= ${d}.ends_on`;
/** The delegate still holds COPILOT (schema/roles.ts `canUseCopilot`, as SQL): losing it ends what they may do. */
const DELEGATE_MAY = (d: string) => `EXISTS (SELECT 1 FROM spend_users cu WHERE cu.id = ${d}.delegate_id AND NOT cu.deleted
  AND cu.user_permissions @> '["COPILOT"]'::jsonb)`;

/**
 * SQL: the viewer (`userParam`) is the active delegate of an approver of the approval's step
 * (`alias`: an approvals row), the requester never counting as a delegator. A row from before
 * chains (no instance) names its one approver in `approver_id`.
 */
export function delegatedApproverSql(alias: string, userParam: string): string {
  return `EXISTS (SELECT 1 FROM approval_delegations dl
            WHERE dl.business_id = ${alias}.business_id AND dl.delegate_id = ${userParam}::uuid AND ${ACTIVE('dl')} AND ${DELEGATE_MAY('dl')}
              AND dl.delegator_id <> ${alias}.user_id
              AND CASE WHEN ${alias}.instance_id IS NULL THEN ${alias}.approver_id = dl.delegator_id
                  ELSE EXISTS (SELECT 1 FROM approval_instances di WHERE di.id = ${alias}.instance_id
                         AND (di.steps -> ${alias}.step_index -> 'approver_ids') @> jsonb_build_array(dl.delegator_id::text)) END)`;
}

/** Who delegated to the user, active today. */
export async function activeDelegatorIds(db: Queryable, user: Pick<ActingUser, 'id' | 'business_id'>): Promise<string[]> {
  const rows = await db.query<{ id: string }>(
    `SELECT dl.delegator_id::text AS id FROM approval_delegations dl
      WHERE dl.business_id = $1 AND dl.delegate_id = $2 AND ${ACTIVE('dl')} AND ${DELEGATE_MAY('dl')} ORDER BY dl.delegator_id`,
    [user.business_id, user.id],
  );
  return rows.map((r) => r.id);
}

/** What the feed's visibility epoch adds for the user: '' when nobody delegates to them today. */
export async function delegationEpochBasis(db: Queryable, user: Pick<ActingUser, 'id' | 'business_id'>): Promise<string> {
  const ids = await activeDelegatorIds(db, user);
  return ids.length === 0 ? '' : `:for:${ids.join(',')}`;
}

/**
 * Whom the deciding user stands in for on step `stepIndex`: nobody when they are one of its
 * approvers themselves; else an active delegator among its approvers (preferred to the §6
 * override, so a bookkeeper delegate's decision is recorded "for" the manager), else nobody.
 */
export async function actingForOnStep(tx: Queryable, user: ActingUser, state: InstanceState, stepIndex: number): Promise<string | undefined> {
  if (state.steps[stepIndex]?.approver_ids.includes(user.id)) return undefined;
  const delegators = await activeDelegatorIds(tx, user);
  return delegatorFor(state, stepIndex, delegators) ?? undefined;
}

/**
 * An approval from before chains (no instance): the caller stands in for its `approver_id` when
 * that person delegated to them (active), is not the caller and not the requester.
 */
export async function actingForWithoutChain(
  tx: Queryable, user: ActingUser, approval: { approver_id: string | null; user_id: string },
): Promise<string | undefined> {
  const approver = approval.approver_id;
  if (!approver || approver === user.id || approver === approval.user_id) return undefined;
  return (await activeDelegatorIds(tx, user)).includes(approver) ? approver : undefined;
}

/** The approval row decided through a delegation names whom it was decided for. */
export async function recordOnBehalfOf(tx: Queryable, approvalId: string, delegatorId: string | undefined): Promise<void> {
  if (delegatorId) await tx.query('UPDATE approvals SET on_behalf_of = $2 WHERE id = $1', [approvalId, delegatorId]);
}

const DELEGATION_DOC = `jsonb_build_object('id', dl.id, 'delegator_id', dl.delegator_id, 'delegate_id', dl.delegate_id,
  'delegator_name', trim(fr.first_name || ' ' || fr.last_name), 'delegate_name', trim(te.first_name || ' ' || te.last_name),
  'starts_on', dl.starts_on::text, 'ends_on', dl.ends_on::text, 'active', ${ACTIVE('dl')}, 'created_at', dl.created_at)`;
const DELEGATION_FROM = `approval_delegations dl JOIN spend_users fr ON fr.id = dl.delegator_id JOIN spend_users te ON te.id = dl.delegate_id`;

export async function listDelegations(db: Queryable, user: ActingUser): Promise<{ given: Delegation[]; received: Delegation[] }> {
  const rows = await db.query<{ doc: Delegation }>(
    `SELECT ${DELEGATION_DOC} AS doc FROM ${DELEGATION_FROM}
      WHERE dl.business_id = $1 AND (dl.delegator_id = $2 OR dl.delegate_id = $2) ORDER BY dl.starts_on, dl.id`,
    [user.business_id, user.id],
  );
  const docs = rows.map((r) => r.doc);
  return { given: docs.filter((d) => d.delegator_id === user.id), received: docs.filter((d) => d.delegate_id === user.id) };
}

async function delegationDoc(db: Queryable, id: string): Promise<Delegation> {
  const [row] = await db.query<{ doc: Delegation }>(`SELECT ${DELEGATION_DOC} AS doc FROM ${DELEGATION_FROM} WHERE dl.id = $1`, [id]);
  return row!.doc;
}

type Period = { delegate_id: string; starts_on: string; ends_on: string };

/** Field errors of a period: ends before it starts, already over, or longer than MAX_DELEGATION_DAYS. */
async function assertPeriod(db: Queryable, p: Period): Promise<void> {
  const [row] = await db.query<{ past: boolean; days: number }>(
    `SELECT $1::date < ${TODAY} AS past, ($1::date - $2::date) + 1 AS days`, [p.ends_on, p.starts_on],
  );
  if (p.ends_on < p.starts_on) throw validationError({ ends_on: 'ends_on must be on or after starts_on' });
  if (row!.past) throw validationError({ ends_on: 'ends_on is in the past: the delegation would never be active' });
  if (Number(row!.days) > MAX_DELEGATION_DAYS) throw validationError({ ends_on: `A delegation lasts at most ${MAX_DELEGATION_DAYS} days.` });
}

/**
 * PUT copilot: the caller's delegation (created, or replacing theirs). The delegate must be a
 * live, active user of the business (else 404, another business's included), not the caller
 * (POLICY_7021), holding COPILOT (POLICY_7020).
 */
export async function putDelegation(tx: Queryable, user: ActingUser, body: Period): Promise<Delegation> {
  if (body.delegate_id === user.id) throw new ApiError('POLICY_7021');
  const [delegate] = await tx.query<{ id: string; role: string; is_manager: boolean; user_permissions: string[] }>(
    `SELECT id::text, role, is_manager, user_permissions FROM spend_users
      WHERE business_id = $1 AND id = $2 AND NOT deleted AND status = 'ACTIVE' AND ${shownUserSql()}`,
    [user.business_id, body.delegate_id],
  );
  if (!delegate) throw new ApiError('REQUEST_7004', 'The delegate was not found.');
  if (!canUseCopilot({ ...delegate, user_permissions: delegate.user_permissions ?? [] })) throw new ApiError('POLICY_7020');
  const flagOff = delegateFlagRefusal(delegate, await featureFlagsOf(tx, user.business_id));
  if (flagOff) throw validationError({ delegate_id: flagOff });
  await assertPeriod(tx, body);
  const [row] = await tx.query<{ id: string }>(
    `INSERT INTO approval_delegations (id, business_id, delegator_id, delegate_id, starts_on, ends_on)
     VALUES ($1, $2, $3, $4, $5::date, $6::date)
     ON CONFLICT (business_id, delegator_id) DO UPDATE
       SET delegate_id = excluded.delegate_id, starts_on = excluded.starts_on, ends_on = excluded.ends_on, created_at = now()
     RETURNING id::text`,
    [randomUUID(), user.business_id, user.id, body.delegate_id, body.starts_on, body.ends_on],
  );
  return delegationDoc(tx, row!.id);
}

/** DELETE copilot/{user}: the delegation between the caller and `otherId`, whichever way round; none → 404. */
export async function deleteDelegation(tx: Queryable, user: ActingUser, otherId: string): Promise<{ deleted: true; delegation: Delegation }> {
  const [row] = await tx.query<{ id: string }>(
    `SELECT id::text FROM approval_delegations WHERE business_id = $1
        AND ((delegator_id = $2 AND delegate_id = $3) OR (delegator_id = $3 AND delegate_id = $2)) FOR UPDATE`,
    [user.business_id, user.id, otherId],
  );
  if (!row) throw new ApiError('REQUEST_7004', 'There is no delegation between you and this person.');
  const delegation = await delegationDoc(tx, row.id);
  await tx.query('DELETE FROM approval_delegations WHERE id = $1', [row.id]);
  return { deleted: true, delegation };
}

/** Active delegates of each approver, for the simulation ("X may decide for Y"). */
export async function activeDelegatesOf(db: Queryable, businessId: string, approverIds: readonly string[]): Promise<{ delegator_id: string; delegate_id: string; name: string }[]> {
  if (approverIds.length === 0) return [];
  return db.query<{ delegator_id: string; delegate_id: string; name: string }>(
    `SELECT dl.delegator_id::text, dl.delegate_id::text, trim(te.first_name || ' ' || te.last_name) AS name
       FROM approval_delegations dl JOIN spend_users te ON te.id = dl.delegate_id
      WHERE dl.business_id = $1 AND dl.delegator_id = ANY($2::uuid[]) AND ${ACTIVE('dl')} AND ${DELEGATE_MAY('dl')}
        AND te.status = 'ACTIVE'`,
    [businessId, [...new Set(approverIds)]],
  );
}
