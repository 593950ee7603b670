import {
  createSftpDestination, deleteSftpDestination, getSftpDestination, listSftpDestinations, runSftpUpload, updateSftpDestination,
} from '../../schema/api/calls-sftp.ts';
import { canManageIntegrations } from '../../schema/roles.ts';
import type { Actor } from '../core/actor.ts';
import type { AppDeps } from '../core/deps.ts';
import { ApiError } from '../core/errors.ts';
import type { Db, Queryable } from '../db/db.ts';
import {
  createDestination, deleteDestination, findDestination, listDestinations, listUploads, queueUpload, readUpload, updateDestination,
} from '../domain/sftp-uploads/destinations.ts';
import type { SftpNet } from '../domain/sftp-uploads/transfer.ts';
import { actorOf, ok, type DomainHandlers } from '../http/handler.ts';

/** Admins and IT admins (`canManageIntegrations`); anyone else is refused with FORBIDDEN_7003. */
function managerOf(ctx: { actor: Actor | null }): Actor {
  const actor = actorOf(ctx);
  if (!canManageIntegrations(actor.user)) throw new ApiError('FORBIDDEN_7003', 'Only administrators and IT admins can manage SFTP uploads.');
  return actor;
}

/** The outbound rule's settings (loopback only with SSO_ALLOW_LOOPBACK_HTTP, as every outbound fetch). */
const netOf = (deps: AppDeps): SftpNet => ({ allowLoopback: deps.sso.allowLoopbackHttp, dnsServer: deps.sso.dnsServer });

/** register opens a transaction for POST and PATCH (ctx.db); the DELETE opens its own. */
const inTx = <T>(ctx: { deps: { db: Db } }, fn: (tx: Queryable) => Promise<T>): Promise<T> => ctx.deps.db.transaction(fn);

/** Issue 32: scheduled SFTP transaction uploads (schema/api/calls-sftp.ts, docs/design/issue-32-sftp.md). */
export const sftpUploadHandlers = {
  [listSftpDestinations.id]: async (ctx) => ok({ data: await listDestinations(ctx.db, managerOf(ctx).businessId, new Date(ctx.deps.now())) }),
  [createSftpDestination.id]: async (ctx) => {
    const { businessId, user } = managerOf(ctx);
    return ok(await createDestination(ctx.db, { businessId, userId: user.id, body: ctx.input.body, net: netOf(ctx.deps), now: new Date(ctx.deps.now()) }), 201);
  },
  [getSftpDestination.id]: async (ctx) => {
    const { businessId } = managerOf(ctx);
    const now = new Date(ctx.deps.now());
    const destination = await findDestination(ctx.db, businessId, ctx.input.params.id, now);
    return ok({ destination, uploads: await listUploads(ctx.db, destination.id, now) });
  },
  [updateSftpDestination.id]: async (ctx) => {
    const { businessId } = managerOf(ctx);
    return ok(await updateDestination(ctx.db, {
      businessId, id: ctx.input.params.id, body: ctx.input.body, net: netOf(ctx.deps), now: new Date(ctx.deps.now()),
    }));
  },
  [deleteSftpDestination.id]: async (ctx) => {
    const { businessId } = managerOf(ctx);
    await inTx(ctx, (tx) => deleteDestination(tx, businessId, ctx.input.params.id, new Date(ctx.deps.now())));
    return ok({ id: ctx.input.params.id, deleted: true as const });
  },
  [runSftpUpload.id]: async (ctx) => {
    const { businessId, user } = managerOf(ctx);
    const now = new Date(ctx.deps.now());
    const destination = await findDestination(ctx.db, businessId, ctx.input.params.id, now);
    const queued = await queueUpload(ctx.db, { businessId, destinationId: destination.id }, 'manual', user.id, now);
    return ok(await readUpload(ctx.db, queued.id, now), queued.created ? 201 : 200);
  },
} satisfies DomainHandlers;
