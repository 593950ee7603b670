import type { Context } from 'hono';
import { DEVICE_HEADER, DEVICE_ID_PATTERN } from '../../schema/conflicts.ts';
import type { Actor } from '../core/actor.ts';
import { validationError } from '../core/errors.ts';
import type { Db } from '../db/db.ts';

import { applyActing, type Acting } from '../core/acting.ts';

export { applyActing, type Acting, type ActingSource } from '../core/acting.ts';

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
  ...(actor.apiClient && { source: { kind: 'api_client', id: actor.apiClient.id, label: actor.apiClient.developerApp ? `${actor.apiClient.name} (app)` : `API client ${actor.apiClient.name}` } }),
});

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
