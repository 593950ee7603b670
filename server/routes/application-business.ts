import { businessAddressPut, businessIssuingOnboardingPut, businessKybKycPut } from '../../schema/api/calls-application-business.ts';
import { decideKyb } from '../../schema/application-rules.ts';
import { isAdmin } from '../../schema/roles.ts';
import { screenNames, SANCTIONS_LIST } from '../../schema/sanctions.ts';
import { foldEmail } from '../auth/email-address.ts';
import { ApiError } from '../core/errors.ts';
import { allocateSeqs, announceChange } from '../db/change-seq.ts';
import { actorOf, ok, type DomainHandlers } from '../http/handler.ts';
import { todayOf } from './application-access.ts';

/**
 * Issue 31, the Businesses calls of the application area (schema/api/calls-application-business.ts):
 * admins only (FORBIDDEN_7003 before any lookup), another business's ids answer 404.
 */
function adminOf(ctx: Parameters<typeof actorOf>[0]) {
  const actor = actorOf(ctx);
  if (!isAdmin(actor.user)) throw new ApiError('FORBIDDEN_7003');
  return actor;
}

export const applicationBusinessHandlers = {
  [businessAddressPut.id]: async (ctx) => {
    const actor = adminOf(ctx);
    if (ctx.input.params.business_uuid !== actor.businessId) throw new ApiError('REQUEST_7004');
    await ctx.db.query('UPDATE businesses SET address = $2 WHERE id = $1', [actor.businessId, JSON.stringify(ctx.input.body.address)]);
    return ok({ business_id: actor.businessId, address: ctx.input.body.address });
  },

  // Re-screens the owners and the control person; a hit flags the identities of this business's
  // members named (by email) among the matched people, and the business's answer says so (§4: a
  // flagged identity cannot move money, guards.ts).
  [businessKybKycPut.id]: async (ctx) => {
    const actor = adminOf(ctx);
    const b = ctx.input.body;
    const cp = b.control_person;
    const people = [...b.owners.map((o) => ({ name: o.name, email: o.email ?? null })), { name: `${cp.first_name} ${cp.last_name}`, email: cp.email }];
    const hits = screenNames(people.map((p) => p.name), SANCTIONS_LIST);
    const matched = [...new Set(hits.map((h) => h.name))];
    const emails = people.filter((p) => matched.includes(p.name) && p.email).map((p) => foldEmail(p.email!));
    const screenedAt = new Date(ctx.deps.now()).toISOString();
    const answer = { ...b, ofac_status: matched.length > 0 ? 'MANUAL_REVIEW' as const : 'PASSED' as const, screened_at: screenedAt, matched };
    await ctx.deps.db.transaction(async (tx) => {
      await tx.query('UPDATE businesses SET kyb_kyc = $2 WHERE id = $1', [actor.businessId, JSON.stringify(answer)]);
      if (emails.length > 0) {
        await tx.query(
          `UPDATE identities SET ofac_status = 'MANUAL_REVIEW'
            WHERE lower(email) = ANY($2::text[]) AND id IN (SELECT identity_id FROM spend_users WHERE business_id = $1 AND NOT deleted)`,
          [actor.businessId, emails]);
      }
    });
    return ok(answer);
  },

  [businessIssuingOnboardingPut.id]: async (ctx) => {
    const actor = adminOf(ctx);
    const { entity_uuid: entityId, country } = ctx.input.params;
    const decision = decideKyb(ctx.input.body, SANCTIONS_LIST, todayOf(ctx));
    const result = { country, status: decision.outcome, reasons: decision.reasons, decided_at: new Date(ctx.deps.now()).toISOString() };
    await ctx.deps.db.transaction(async (tx) => {
      const seq = await allocateSeqs(tx, actor.businessId, 1);
      const rows = await tx.query(
        `UPDATE business_entities SET issuing_onboarding = coalesce(issuing_onboarding, '{}'::jsonb) || jsonb_build_object($3::text, $4::jsonb),
                address = coalesce(address, $5::jsonb), change_seq = $6, updated_at = now()
          WHERE business_id = $1 AND id = $2 AND NOT deleted RETURNING id`,
        [actor.businessId, entityId, country, JSON.stringify({ ...result, legal_name: ctx.input.body.legal_name }),
          JSON.stringify(ctx.input.body.address), seq!.last]);
      if (rows.length === 0) throw new ApiError('REQUEST_7004', 'There is no such entity.');
      await announceChange(tx, actor.businessId, seq!.last);
    });
    return ok(result);
  },
} satisfies DomainHandlers;
