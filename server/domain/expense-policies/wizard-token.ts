import {
  MISSING_ITEMS_LINK_TTL_SECONDS, MISSING_ITEMS_TOKEN_MAX_TTL_SECONDS,
} from '../../../schema/api/calls-expense-policies.ts';
import type { CallDef } from '../../../schema/api/define-call.ts';
import { issueToken, openSession } from '../../auth/session.ts';
import type { Actor } from '../../core/actor.ts';
import type { AppDeps } from '../../core/deps.ts';
import { ApiError } from '../../core/errors.ts';
import type { Queryable } from '../../db/db.ts';

/**
 * §6 missing-items tokens (issue 29). The scope gate admits them to the wizard's calls only
 * (schema/api/calls-expense-policies.ts WIZARD_SCOPES); this holds each admitted call to what the
 * wizard needs, before its handler runs (http/register.ts):
 * - the item written must be the holder's own: anyone else's (a colleague's their manager role
 *   would let them code) answers 404 like an unknown id, so the token reveals nothing more;
 * - a write may only touch the wizard's fields: memo and coding with `missing-items`, receipts
 *   only with `missing-items-restricted` (the reminder link: "sign in to add memos and coding");
 * - a call with no rule here is refused (AUTH_7016) even if someone lists the scope on it later:
 *   the rule must be written here first (fails closed).
 */
export type WizardTokenKind = 'missing-items' | 'missing-items-restricted';

export function wizardTokenKind(scopes: readonly string[]): WizardTokenKind | null {
  if (scopes.includes('default')) return null;
  if (scopes.includes('missing-items')) return 'missing-items';
  if (scopes.includes('missing-items-restricted')) return 'missing-items-restricted';
  return null;
}

type Input = { params?: unknown; body?: unknown };
type Owned = { table: 'transactions' | 'reimbursements'; id: (input: Input) => unknown };
type Rule = { owned?: Owned; fields?: Record<WizardTokenKind, readonly string[]> };

const param = (name: string) => (input: Input) => (input.params as Record<string, unknown> | undefined)?.[name];
const ownTransaction: Owned = { table: 'transactions', id: param('transaction_canonical_uuid') };
const ownClaim: Owned = { table: 'reimbursements', id: param('reimbursement_uuid') };

const RULES: Readonly<Record<string, Rule>> = {
  'missingItems.list': {},
  'receipts.upload': {},
  'transactions.attachReceipt': { owned: ownTransaction },
  'transactions.patch': {
    owned: ownTransaction,
    fields: { 'missing-items': ['memo', 'gl_account_id', 'department_id', 'location_id'], 'missing-items-restricted': [] },
  },
  'reimbursements.patch': {
    owned: ownClaim,
    fields: { 'missing-items': ['memo', 'gl_account_id', 'department_id', 'receipt_ids'], 'missing-items-restricted': ['receipt_ids'] },
  },
};

/** The calls a missing-items token may reach at all (the tests walk the catalogue against it). */
export const WIZARD_TOKEN_CALLS: readonly string[] = Object.keys(RULES);

export async function assertWizardTokenMayCall(db: Queryable, call: CallDef, actor: Actor, input: Input): Promise<void> {
  const kind = wizardTokenKind(actor.claims.ramp_access_scopes);
  if (!kind) return;
  const rule = RULES[call.id];
  if (!rule) throw new ApiError('AUTH_7016');
  if (rule.fields) {
    const allowed = rule.fields[kind];
    const body = (input.body ?? {}) as Record<string, unknown>;
    const extra = Object.keys(body).filter((k) => body[k] !== undefined && !allowed.includes(k));
    if (extra.length > 0) {
      throw new ApiError('AUTH_7016', kind === 'missing-items-restricted'
        ? 'This link can only add receipts. Sign in to add memos and coding.'
        : `This token can only set the memo, coding and receipts, not: ${extra.join(', ')}.`);
    }
  }
  if (rule.owned) {
    const id = rule.owned.id(input);
    const rows = await db.query(
      `SELECT 1 FROM ${rule.owned.table} WHERE business_id = $1 AND id = $2 AND user_id = $3`,
      [actor.businessId, id, actor.user.id],
    );
    if (rows.length === 0) throw new ApiError('REQUEST_7004');
  }
  if (kind === 'missing-items-restricted' && call.id === 'reimbursements.patch') await assertOnlyAddsReceipts(db, actor, input);
}

/**
 * The reminder link adds receipts; it never takes one away. A claim's `receipt_ids` is replaced
 * whole by a PATCH, so a list missing a receipt the claim holds now would remove it: refused.
 */
async function assertOnlyAddsReceipts(db: Queryable, actor: Actor, input: Input): Promise<void> {
  const next = (input.body as { receipt_ids?: unknown } | undefined)?.receipt_ids;
  if (!Array.isArray(next)) return;
  const rows = await db.query<{ receipt_ids: string[] }>(
    'SELECT receipt_ids FROM reimbursements WHERE business_id = $1 AND id = $2 AND user_id = $3',
    [actor.businessId, ownClaim.id(input), actor.user.id],
  );
  const kept = new Set(next as string[]);
  if ((rows[0]?.receipt_ids ?? []).some((r) => !kept.has(r))) {
    throw new ApiError('AUTH_7016', 'This link can only add receipts, not remove them. Sign in to change a claim\'s receipts.');
  }
}

/** POST …/missing-items/token: like the low-risk token (routes/low-risk-token.ts), on the caller's session. */
export async function mintMissingItemsToken(deps: AppDeps, actor: Actor): Promise<{ id_token: string; expires_at: string }> {
  const nowSeconds = Math.floor(deps.now() / 1000);
  const ttlSeconds = Math.min(MISSING_ITEMS_TOKEN_MAX_TTL_SECONDS, actor.claims.exp - nowSeconds);
  const { token, expiresAt } = await issueToken(
    deps,
    { identityId: actor.identityId, userId: actor.user.id, businessId: actor.businessId, sessionId: actor.sessionId },
    {
      scopes: ['missing-items'], mfaRequired: actor.claims.ramp_mfa_required, mfaAuthed: actor.claims.ramp_mfa_authed,
      ttlSeconds, signInProvider: actor.claims.sign_in_provider,
      ...(actor.claims.impersonator && { impersonator: actor.claims.impersonator }),
    },
  );
  return { id_token: token, expires_at: expiresAt.toISOString() };
}

/**
 * The reminder link's token: a session of its own for the person (so it is theirs to end:
 * sign-out-all, a password change, deactivation revoke every session of the identity), carrying
 * only `missing-items-restricted`, for a week. It is put in the link's fragment
 * (`/missing-items#token=…`), which browsers never send to a server nor write to its logs.
 */
export async function mintReminderLinkToken(
  deps: AppDeps, tx: Queryable, person: { identity_id: string; user_id: string; business_id: string },
): Promise<string> {
  const sessionId = await openSession(tx, person.identity_id);
  const { token } = await issueToken(
    deps,
    { identityId: person.identity_id, userId: person.user_id, businessId: person.business_id, sessionId },
    { scopes: ['missing-items-restricted'], mfaRequired: false, mfaAuthed: false, ttlSeconds: MISSING_ITEMS_LINK_TTL_SECONDS },
  );
  return token;
}
