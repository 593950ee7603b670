import {
  deleteSwitchingVendor, listSwitchingVendors, switchVendorToCard, uploadSwitchingStatement,
} from '../../schema/api/calls-switching.ts';
import { isAdmin } from '../../schema/roles.ts';
import type { Actor } from '../core/actor.ts';
import { ApiError } from '../core/errors.ts';
import { findCard } from '../domain/cards.ts';
import { readCardStatement } from '../domain/switching/read-statement.ts';
import { dismissVendor, storeStatement, switchingOverview, switchVendorToCard as switchVendor } from '../domain/switching/vendors.ts';
import { visibilityOf } from '../domain/visibility.ts';
import { actorOf, ok, type DomainHandlers } from '../http/handler.ts';

/** Owners and admins move the business's vendors; anyone else is refused with FORBIDDEN_7003. */
function adminOf(ctx: { actor: Actor | null }): Actor {
  const actor = actorOf(ctx);
  if (!isAdmin(actor.user)) throw new ApiError('FORBIDDEN_7003', 'Only owners and administrators can move vendors to Ledgerline cards.');
  return actor;
}

const decoder = new TextDecoder('utf-8', { fatal: true });

/** Switching: card statements of the card the business leaves, and its vendors (schema/api/calls-switching.ts). */
export const switchingHandlers = {
  [listSwitchingVendors.id]: async (ctx) => ok(await switchingOverview(ctx.db, adminOf(ctx).businessId)),

  [uploadSwitchingStatement.id]: async (ctx) => {
    const { user } = adminOf(ctx);
    let text: string;
    try {
      text = decoder.decode(ctx.input.body);
    } catch {
      throw new ApiError('SWITCHING_7002', 'The file is not UTF-8 text: export the statement as CSV and upload that.');
    }
    const { currency } = ctx.input.query;
    const read = readCardStatement(text, currency);
    if (!read.ok) {
      const first = read.problems[0];
      throw new ApiError('SWITCHING_7002', first ? `${read.message} Row ${first.row}: ${first.message}` : read.message);
    }
    const fileName = ctx.input.query.file_name ?? 'statement.csv';
    const stored = await storeStatement(ctx.db, user, { fileName, currency, ...read }, new Date(ctx.deps.now()));
    return ok({ import: stored, overview: await switchingOverview(ctx.db, user.business_id) }, 201);
  },

  [switchVendorToCard.id]: async (ctx) => {
    const { user } = adminOf(ctx);
    const vis = await visibilityOf(ctx.db, user);
    const readCard = async (id: string) => (await findCard(ctx.db, user.business_id, vis, id))!;
    const answer = await switchVendor(ctx.db, user, ctx.input.params.vendor_id, ctx.input.body, new Date(ctx.deps.now()), readCard);
    return ok(answer, answer.created ? 201 : 200);
  },

  // DELETE is not idempotency-keyed, so register runs it outside a transaction: it opens one.
  [deleteSwitchingVendor.id]: async (ctx) => {
    const { user } = adminOf(ctx);
    await ctx.deps.db.transaction((tx) => dismissVendor(tx, user, ctx.input.params.vendor_id, new Date(ctx.deps.now())));
    return ok({ deleted: true as const });
  },
} satisfies DomainHandlers;
