import { overrideBillMatch } from '../../schema/api/calls-procurement.ts';
import { noteAuditDetail } from '../auth/audit.ts';
import { overrideBillMatch as override } from '../domain/procurement/bill-match-override.ts';
import { actorOf, ok, type DomainHandlers } from '../http/handler.ts';
import { nowOf } from './bill-access.ts';

/**
 * Issue 28, the three-way match's override: an admin lets a MISMATCHED bill be paid, with a
 * reason (domain/procurement/bill-match-override.ts). Admins only, so not `billManagerOf`: an AP
 * clerk manages bills but is refused here (PROCUREMENT_7014). The call's audit row carries the
 * bill, the reason and the reasons overridden.
 */
export const billMatchHandlers = {
  [overrideBillMatch.id]: async (ctx) => {
    const user = actorOf(ctx).user;
    const bill = await override(ctx.db, user, ctx.input.params.bill_uuid, ctx.input.body.reason, nowOf(ctx),
      (detail) => noteAuditDetail(ctx.c.req.raw, detail));
    return ok(bill);
  },
} satisfies DomainHandlers;
