import type { Context } from 'hono';
import { DEVICE_HEADER, DEVICE_ID_PATTERN } from '../../schema/conflicts.ts';
import type { Actor } from '../core/actor.ts';
import { validationError } from '../core/errors.ts';
import type { Db, Queryable } from '../db/db.ts';

/**
 * Who a write is made by, as the database's field-change history records it (issue 24, migration
 * 033): the signed-in spend user and the device the request names. Set as transaction-local
 * settings at the start of every write transaction of a signed-in request, so the history's
 * triggers attribute every writer (PATCHes, bulk coding, bill bulk actions, approvals, rules)
 * without each of them passing it. Writes outside a request (jobs, the seed) set nothing: "no person".
 */
export type Acting = { userId: string; device: string | null };

/** The request's `X-Ledgerline-Device` (a uuid, lower-cased), null without one; anything else is 422 on the header. */
export function requestDevice(c: Context): string | null {
  const raw = c.req.header(DEVICE_HEADER);
  if (raw === undefined || raw.trim() === '') return null;
  const value = raw.trim();
  if (!DEVICE_ID_PATTERN.test(value)) throw validationError({ [DEVICE_HEADER]: `${DEVICE_HEADER} must be a valid uuid` });
  return value.toLowerCase();
}

export const actingOf = (c: Context, actor: Actor): Acting => ({ userId: actor.user.id, device: requestDevice(c) });

/** Marks the transaction `tx` as made by `acting` (transaction-local: gone at commit or rollback). */
export async function applyActing(tx: Queryable, acting: Acting): Promise<void> {
  await tx.query("SELECT set_config('ledgerline.actor_user', $1, true), set_config('ledgerline.device', $2, true)", [
    acting.userId,
    acting.device ?? '',
  ]);
}

/** `db` whose every transaction starts marked as made by `acting`; everything else is `db`'s own. */
export function actingDb(db: Db, acting: Acting): Db {
  return {
    get kind() {
      return db.kind;
    },
    query: (sql, params) => db.query(sql, params),
    exec: (sql) => db.exec(sql),
    notify: (channel, payload) => db.notify(channel, payload),
    listen: (channel, cb) => db.listen(channel, cb),
    close: () => db.close(),
    transaction: (fn) =>
      db.transaction(async (tx) => {
        await applyActing(tx, acting);
        return fn(tx);
      }),
  };
}
