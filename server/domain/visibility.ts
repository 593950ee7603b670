import { createHash } from 'node:crypto';
import type { VisibilityRule } from '../../schema/entities/define-entity.ts';
import { mayManageBills } from '../../schema/bill-rules.ts';
import { canSeeAllTransactions, isAdmin, isAdvisor, isApClerk, isBookkeeper } from '../../schema/roles.ts';
import type { Queryable } from '../db/db.ts';
import type { ActingUser } from '../core/actor.ts';
import { delegatedApproverSql } from './delegations.ts';
import { shownUserSql } from './hidden-users.ts';

/**
 * Whose cards and transactions a user may see (§6): business-wide roles see everything; a
 * manager sees their own and every direct or indirect report's; anyone else only their own.
 * `null` means the whole business.
 */
export type Visibility = { all: true } | { all: false; userIds: string[] };

export async function visibilityOf(db: Queryable, user: ActingUser): Promise<Visibility> {
  if (canSeeAllTransactions(user)) return { all: true };
  if (!user.is_manager) return { all: false, userIds: [user.id] };
  return { all: false, userIds: await reportingTeam(db, user) };
}

/** The user and their direct and indirect reports (whatever their role lets them see). */
export async function reportingTeam(db: Queryable, user: ActingUser): Promise<string[]> {
  // UNION (not UNION ALL) stops a reporting cycle from recursing forever.
  const rows = await db.query<{ id: string }>(
    `WITH RECURSIVE team(id) AS (
       SELECT $1::uuid
       UNION
       SELECT u.id FROM spend_users u JOIN team t ON u.manager_id = t.id
        WHERE u.business_id = $2 AND NOT u.deleted
     ) SELECT id FROM team`,
    [user.id, user.business_id],
  );
  return rows.map((r) => r.id);
}

/**
 * A SQL condition restricting rows of alias `alias` (with a user_id column) to the visible
 * users; pushes the id list onto `params`. Empty string when everything is visible.
 */
export function visibleUsersClause(vis: Visibility, alias: string, params: unknown[]): string {
  if (vis.all) return '';
  // Issue 33: one person (an employee) is an equality, so a (business_id, user_id, …) index gives
  // its rows in order; `= ANY(array)` hides that from the planner, which then sorts them all.
  if (vis.userIds.length === 1) return ` AND ${alias}.user_id = $${params.push(vis.userIds[0])}::uuid`;
  params.push(vis.userIds);
  return ` AND ${alias}.user_id = ANY($${params.length}::uuid[])`;
}

/** Who is reading: the caller, and their team when a rule needs it (see `needsTeam`). */
export type Viewer = { user: ActingUser; team: Visibility | null };

/**
 * A visibility rule of schema/entities as SQL: `where` returns a condition on the rows of
 * `alias` (pushing its values onto `params`), or '' when the viewer sees every row. Rules are
 * functions of the viewer, so requester, approver or AP-clerk rules can read what they need.
 */
export interface VisibilitySql {
  /** The rule reads `viewer.team` (for a manager, a recursive query): callers fetch it only then. */
  needsTeam: boolean;
  where: (viewer: Viewer, alias: string, params: unknown[]) => string;
  /**
   * Issue 33: when the rule is exactly "user_id is one of these people" for this viewer, those
   * people (null: `where` says it). The feed then walks each person's (business_id, user_id,
   * change_seq) index (migration 088) instead of filtering the business's feed index.
   */
  users?: (viewer: Viewer) => readonly string[] | null;
}

export const VISIBILITY_SQL: Record<VisibilityRule, VisibilitySql> = {
  business: { needsTeam: false, where: () => '' },
  owner: {
    needsTeam: true,
    where: (viewer, alias, params) => {
      if (!viewer.team) throw new Error('the owner rule needs the viewer\'s team');
      return visibleUsersClause(viewer.team, alias, params);
    },
    users: (viewer) => {
      if (!viewer.team) throw new Error('the owner rule needs the viewer\'s team');
      return viewer.team.all ? null : viewer.team.userIds;
    },
  },
  approver: {
    needsTeam: true,
    where: (viewer, alias, params) => {
      if (!viewer.team) throw new Error('the approver rule needs the viewer\'s team');
      return approvalViewerClause(viewer.user, viewer.team, alias, params);
    },
  },
  bill_pay: { needsTeam: false, where: (viewer, alias, params) => billPayClause(viewer.user, alias, params) },
  self: { needsTeam: false, where: (viewer, alias, params) => ` AND ${alias}.owner_id = $${params.push(viewer.user.id)}::uuid` },
  allocation: { needsTeam: false, where: (viewer, alias, params) => allocationClause(viewer.user, alias, params) },
  // Issue 30: the wallet (accounts, transfers) is the admins' alone (§6 treasury).
  treasury: { needsTeam: false, where: (viewer) => (isAdmin(viewer.user) ? '' : ' AND false') },
  spend_request: {
    needsTeam: true,
    where: (viewer, alias, params) => {
      if (!viewer.team) throw new Error('the spend_request rule needs the viewer\'s team');
      return spendRequestClause(viewer.user, viewer.team, alias, params);
    },
  },
  // Issue 31: hidden spend users (advisor, vendor network) are nobody's people but their own row.
  people: { needsTeam: false, where: (viewer, alias, params) => hiddenUsersClause(alias, `$${params.push(viewer.user.id)}::uuid`) },
};

/** Spend users of `alias` that are not hidden, or the one `self` names (a SQL uuid expression). */
function hiddenUsersClause(alias: string, self: string): string {
  return ` AND (${shownUserSql(alias)} OR ${alias}.id = ${self})`;
}

/**
 * The `spend_request` rule (issue 28, spend requests of `alias`): the `owner` scope on `user_id`
 * (the person, their managers up the line, business-wide roles), whoever asked for them
 * (`requested_by`), and every approver named on the step of one of the request's approvals
 * (stepApproverSql, the inbox's own test: a `user`, role or group step of any role), whether that
 * step is open or decided, so the approver mirrors what they decide and keeps it afterwards. A
 * step opening later reaches its approvers because opening it re-stamps the request
 * (procurement/fulfil.ts `pointSpendRequestAt`). The subquery is uncorrelated (this business's
 * spend_request approvals, by `approvals_object_type`, migration 050), so PostgreSQL hashes it
 * once per statement and the feed branch still walks spend_requests_feed.
 */
function spendRequestClause(user: ActingUser, team: Visibility, alias: string, params: unknown[]): string {
  const owner = visibleUsersClause(team, alias, params);
  if (owner === '') return '';
  const me = `$${params.push(user.id)}::uuid`;
  const business = `$${params.push(user.business_id)}::uuid`;
  return ` AND ((true${owner}) OR ${alias}.requested_by = ${me} OR ${alias}.id IN (
    SELECT a.object_id FROM approvals a WHERE a.business_id = ${business} AND a.object_type = 'spend_request' AND ${stepApproverSql('a', me)}))`;
}

/**
 * The `allocation` rule (issue 28, spend allocations of `alias`): business-wide roles see every
 * allocation; anyone else those they own, created or are a member of, and those a live card of
 * theirs draws on (so the cardholder sees what is left).
 */
function allocationClause(user: ActingUser, alias: string, params: unknown[]): string {
  if (canSeeAllTransactions(user)) return '';
  const me = `$${params.push(user.id)}::uuid`;
  return ` AND (${alias}.owner_id = ${me} OR ${alias}.created_by = ${me} OR ${me} = ANY(${alias}.member_ids)
    OR EXISTS (SELECT 1 FROM cards c WHERE c.spend_allocation_id = ${alias}.id AND c.user_id = ${me} AND NOT c.deleted AND c.status <> 'TERMINATED'))`;
}

/**
 * The `bill_pay` rule on bills of `alias`: §6 "manage bill pay accounting" (admin, AP clerk,
 * bookkeeper: the same `mayManageBills` every bill call checks) sees every bill; anyone else the
 * bills they created (a clerk who lost AP_ACCESS keeps seeing their own) and those an approvals
 * row names them approver of. The approvals subquery is by approver (approvals_approver, migration
 * 017), a handful of rows hashed once per page, so the feed branch still walks bills_feed; with no
 * `bill` approvals rows it is empty and only the creator test remains.
 */
function billPayClause(user: ActingUser, alias: string, params: unknown[]): string {
  // Advisors (issue 31) read every bill of a client; the advisor gate decides what they change.
  if (mayManageBills(user) || isAdvisor(user)) return '';
  params.push(user.id);
  const me = `$${params.length}::uuid`;
  // The business as a parameter, not `${alias}.business_id`: that correlated the subquery, so it
  // ran once per bill the branch walked (issue 33: 5 s of an employee's first page at 20k).
  const business = `$${params.push(user.business_id)}::uuid`;
  return ` AND (${alias}.created_by = ${me} OR ${alias}.id IN (
    SELECT a.object_id FROM approvals a WHERE a.object_type IN ('bill', 'vendor-payment') AND a.business_id = ${business}
       AND (a.approver_id = ${me} OR ${stepApproverSql('a', me)})))`;
}

/**
 * §6 "review reimbursements: admin, manager or bookkeeper": admins and bookkeepers review every
 * claim, a manager their team's (direct and indirect reports, and their own, so a self-review is
 * refused by name, not hidden), nobody else any.
 */
function reviewScope(user: ActingUser, team: Visibility): Visibility | null {
  if (isAdmin(user) || isBookkeeper(user)) return { all: true };
  if (user.is_manager) return team.all ? team : { all: false, userIds: team.userIds };
  return null;
}

/**
 * The viewer is among the approvers of the approval's step (its chain's step `step_index`, as
 * resolved at submission: a named user, a role's or a group's members, the requester's manager).
 * Rows from before issue 11 have no instance and match nothing.
 */
export function stepApproverSql(alias: string, userParam: string): string {
  return `EXISTS (SELECT 1 FROM approval_instances ai WHERE ai.id = ${alias}.instance_id
            AND (ai.steps -> ${alias}.step_index -> 'approver_ids') @> jsonb_build_array(${userParam}::text))`;
}

/**
 * The `approver` rule (the approvals collection, in the feed and in the list): who sees and may try
 * to decide an approval. The review scope (`approverClause`) or being one of its step's approvers,
 * so an ordinary employee named on a step mirrors that approval.
 */
export function approvalViewerClause(user: ActingUser, team: Visibility, alias: string, params: unknown[]): string {
  const scope = approverClause(user, team, alias, params);
  if (scope === '') return '';
  params.push(user.id);
  // Issue 29: also the active delegate of one of the step's approvers (domain/delegations.ts).
  return ` AND ((true${scope}) OR ${stepApproverSql(alias, `$${params.length}`)} OR ${delegatedApproverSql(alias, `$${params.length}`)})`;
}

/** The review scope on rows of `alias` (user_id = whose claim it is). */
function approverClause(user: ActingUser, team: Visibility, alias: string, params: unknown[]): string {
  const scope = reviewScope(user, team);
  if (!scope) return ' AND false';
  return visibleUsersClause(scope, alias, params);
}

/** The viewer for these rules: the team is read only when one of them needs it. */
export async function viewerFor(db: Queryable, user: ActingUser, rules: readonly VisibilitySql[]): Promise<Viewer> {
  return { user, team: rules.some((r) => r.needsTeam) ? await visibilityOf(db, user) : null };
}

/**
 * Changes whenever what the user may see changes (role, manager flag, team), so a client whose
 * mirror was filtered under the old rules knows to resync from zero.
 */
export function visibilityEpoch(user: ActingUser, vis: Visibility, delegations = ''): string {
  const team = vis.all ? `all:${user.role}` : `users:${user.role}:${user.is_manager}:${[...vis.userIds].sort().join(',')}`;
  // AP_ACCESS opens every bill (bill_pay): gaining or losing it must resync. Only holders' bases
  // change, so nobody else's epoch moves (a new epoch means a full re-pull).
  // Issue 29: whom the user stands in for today (domain/delegations.ts `delegationEpochBasis`).
  const basis = `${isApClerk(user) ? `${team}:ap` : team}${delegations}`;
  return createHash('sha256').update(basis).digest('base64url').slice(0, 16);
}
