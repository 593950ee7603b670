import {
  applyHrisImport, createHrisImport, deleteHrisConnection, getHrisConnection, getHrisImport, listHrisImports, putHrisConnection,
} from '../../schema/api/calls-hris.ts';
import { canManageIntegrations } from '../../schema/roles.ts';
import type { Actor } from '../core/actor.ts';
import { ApiError } from '../core/errors.ts';
import { actorOf, ok, type DomainHandlers } from '../http/handler.ts';
import type { Db, Queryable } from '../db/db.ts';
import { mailLinks } from '../http/mail-links.ts';
import { applyImport } from '../domain/hris/apply.ts';
import { connectionDto, deleteConnection, loadConnection, requireConnection, saveConnection } from '../domain/hris/connection.ts';
import { hrisDropWatching } from '../domain/hris/drop-watcher.ts';
import { createImport, importDto, listImports, loadImport } from '../domain/hris/imports.ts';

/** Admins and IT admins (D1, `canManageIntegrations`); anyone else is refused with FORBIDDEN_7003. */
function managerOf(ctx: { actor: Actor | null }): Actor {
  const actor = actorOf(ctx);
  if (!canManageIntegrations(actor.user)) throw new ApiError('FORBIDDEN_7003', 'Only administrators and IT admins can manage the HRIS connection.');
  return actor;
}

/** register opens a transaction for POST only; the PUT and DELETE open their own. */
const inTx = <T>(ctx: { deps: { db: Db } }, fn: (tx: Queryable) => Promise<T>): Promise<T> => ctx.deps.db.transaction(fn);

/** Issue 32: the HRIS connection: CSV and SFTP-drop imports with a diff (schema/api/calls-hris.ts). */
export const hrisHandlers = {
  [getHrisConnection.id]: async (ctx) => {
    const { businessId } = managerOf(ctx);
    const conn = await loadConnection(ctx.db, businessId);
    return ok({ connection: conn ? connectionDto(conn, hrisDropWatching()) : null });
  },
  [putHrisConnection.id]: async (ctx) => {
    const { businessId, user } = managerOf(ctx);
    const conn = await inTx(ctx, (tx) => saveConnection(tx, businessId, user.id, ctx.input.body));
    return ok(connectionDto(conn, hrisDropWatching()));
  },
  [deleteHrisConnection.id]: async (ctx) => {
    const { businessId } = managerOf(ctx);
    await inTx(ctx, (tx) => deleteConnection(tx, businessId));
    return ok({ disconnected: true });
  },
  [createHrisImport.id]: async (ctx) => {
    const { businessId, user } = managerOf(ctx);
    const conn = await requireConnection(ctx.db, businessId);
    const id = await createImport(ctx.db, {
      businessId, conn, source: 'upload', fileName: ctx.input.query.file_name ?? 'people.csv', bytes: ctx.input.body,
      createdBy: user.id, actingUserId: user.id,
    });
    return ok(importDto(await loadImport(ctx.db, businessId, id!)), 201);
  },
  [listHrisImports.id]: async (ctx) => ok({ data: await listImports(ctx.db, managerOf(ctx).businessId) }),
  [getHrisImport.id]: async (ctx) => ok(importDto(await loadImport(ctx.db, managerOf(ctx).businessId, ctx.input.params.import_id))),
  [applyHrisImport.id]: async (ctx) => {
    const { businessId, user } = managerOf(ctx);
    const link = mailLinks(ctx);
    return ok(await applyImport(ctx.db, {
      businessId, importId: ctx.input.params.import_id, applierId: user.id, now: ctx.deps.now(), mail: { deps: ctx.deps, link },
    }));
  },
} satisfies DomainHandlers;
