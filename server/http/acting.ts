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
export type Acting = {
  /** The spend user, null when no person is behind the write (a SCIM or HRIS integration). */
  userId: string | null;
  device: string | null;
  /**
   * Issue 32: what the write came through when it is not the app: an API client (the user is then
   * the one it acts as), a SCIM integration or an HRIS connection. Event history shows its label.
   */
  source?: ActingSource;
};
export type ActingSource = { kind: 'api_client' | 'scim' | 'hris'; id: string; label: string };

/** The request's `X-Ledgerline-Device` (a uuid, lower-cased), null without one; anything else is 422 on the header. */
export function requestDevice(c: Context): string | null {
  const raw = c.req.header(DEVICE_HEADER);
  if (raw === undefined || raw.trim() === '') return null;
  const value = raw.trim();
  if (!DEVICE_ID_PATTERN.test(value)) throw validationError({ [DEVICE_HEADER]: `${DEVICE_HEADER} must be a valid uuid` });
  return value.toLowerCase();
}

export const actingOf = (c: Context, actor: Actor): Acting => ({
  userId: actor.user.id,
  device: requestDevice(c),
  ...(actor.apiClient && { source: { kind: 'api_client', id: actor.apiClient.id, label: `API client ${actor.apiClient.name}` } }),
});

/** Marks the transaction `tx` as made by `acting` (transaction-local: gone at commit or rollback). */
export async function applyActing(tx: Queryable, acting: Acting): Promise<void> {
  await tx.query(
    "SELECT set_config('ledgerline.actor_user', $1, true), set_config('ledgerline.device', $2, true), set_config('ledgerline.source', $3, true)",
    [acting.userId ?? '', acting.device ?? '', acting.source ? JSON.stringify(acting.source) : ''],
  );
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
