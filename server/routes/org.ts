import { setEntityOwners as setEntityOwnersCall } from '../../schema/api/calls-org.ts';
import { setEntityOwners } from '../domain/admin-org.ts';
import { ok, type DomainHandlers } from '../http/handler.ts';
import { adminOf, inWriteTx } from './admin.ts';

/** Issue 14's organisation calls beyond issue 3's (routes/admin.ts): a business entity's owners. */
export const orgHandlers = {
  [setEntityOwnersCall.id]: async (ctx) => {
    const { businessId } = adminOf(ctx);
    const { entity_uuid } = ctx.input.params;
    return ok(await inWriteTx(ctx, setEntityOwnersCall, (tx) => setEntityOwners(tx, businessId, entity_uuid, ctx.input.body.user_ids)));
  },
} satisfies DomainHandlers;
