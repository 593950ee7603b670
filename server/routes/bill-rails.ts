import { getCheckImages, getMt103, voidCheck } from '../../schema/api/calls-bill-rails.ts';
import { checkImages, voidCheck as voidOne, wireMt103 } from '../domain/bill-rail-documents.ts';
import { fileHeaders } from '../http/file-headers.ts';
import { ok, type DomainHandlers } from '../http/handler.ts';
import { billManagerOf, nowOf } from './bill-access.ts';

/**
 * Issue 30, bill payment rails (BILL_RAIL_CALLS): a check's images, a wire's MT103, voiding a
 * check. Whoever reads a bill's payments (bill managers, 403 before any lookup); another business's
 * payment is 404. The MT103 is a file: text/plain with the file headers (attachment, a CSP that
 * allows nothing, nosniff), never cached.
 */
export const billRailHandlers = {
  [getCheckImages.id]: async (ctx) => ok(await checkImages(ctx.db, billManagerOf(ctx).business_id, ctx.input.params.payment_uuid)),

  [getMt103.id]: async (ctx) => {
    const { text, fileName } = await wireMt103(ctx.db, billManagerOf(ctx).business_id, ctx.input.params.payment_uuid);
    return ctx.c.body(text, 200, { ...fileHeaders('text/plain; charset=utf-8', fileName), 'cache-control': 'private, no-store' });
  },

  [voidCheck.id]: async (ctx) => ok(await voidOne(ctx.db, billManagerOf(ctx), ctx.input.params.payment_uuid, nowOf(ctx))),
} satisfies DomainHandlers;
