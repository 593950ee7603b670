import { randomUUID } from 'node:crypto';
import { SYNC_OBJECT_TYPES, type AccountingProvider, type SyncCommit, type SyncObjectType } from '../../../schema/api/calls-accounting.ts';
import type { ActingUser } from '../../core/actor.ts';
import { ApiError } from '../../core/errors.ts';
import type { Queryable } from '../../db/db.ts';
import { writeMirrored } from '../collections.ts';
import { visibleUsersClause, type Visibility } from '../visibility.ts';
import { exportFiles } from './file-writers.ts';
import { assertConnected, readSettings } from './settings.ts';
import { findSyncCommit } from './sync-commit-reads.ts';
import { lockSyncableItems, SYNCABLE, type SyncSubset } from './sync-items.ts';

/**
 * Sync commits (issue 12): everything syncable goes into one commit in one database transaction,
 * or nothing does.
 *
 * Two commits of one business never share an item: the commit first takes a transaction-scoped
 * advisory lock on the business's "sync commit" key with pg_try_advisory_xact_lock — a second
 * commit while one runs is told so at once (ACCOUNTING_7302, 409: nothing done, try again) rather
 * than queued behind it — and then, through writeMirrored, the business row every mirrored write
 * locks, so no coding edit slips between reading the items and marking them. Each marked row
 * takes its own change seq (the feed carries `accounting_synced_at`), and the UPDATEs only touch
 * rows still unmarked, checked against the count read (accounting.pg.test.ts races commits
 * through two processes).
 */

const stampOf = (d: Date) => d.toISOString().slice(0, 16).replace(/[-:]/g, '').replace('T', '-');

/** `only`: a commit of just those items (retry-sync.ts), under the same lock and rules. */
export async function createSyncCommit(
  tx: Queryable, user: ActingUser, provider: AccountingProvider, now: Date, only?: SyncSubset,
): Promise<SyncCommit> {
  const businessId = user.business_id;
  const settings = await readSettings(tx, businessId);
  assertConnected(settings, provider);
  const [lock] = await tx.query<{ locked: boolean }>(
    'SELECT pg_try_advisory_xact_lock(hashtextextended($1, 0)) AS locked', [`accounting-sync-commit:${businessId}`],
  );
  if (!lock?.locked) throw new ApiError('ACCOUNTING_7302');
  const commitId = randomUUID();
  await writeMirrored(tx, businessId, 1, async ({ seqs, reserve }) => {
    const items = await lockSyncableItems(tx, businessId, provider, now, only);
    if (items.length === 0) throw new ApiError('ACCOUNTING_7303');
    const last = items.length > 1 ? (await reserve(items.length - 1)).last : seqs.last;
    // The business row is locked, so the two reservations are one contiguous range.
    if (last - seqs.first + 1 !== items.length) throw new Error('sync commit: change seqs are not contiguous');
    await tx.query(
      `INSERT INTO accounting_sync_commits (id, business_id, provider_type, created_by, created_at, item_count) VALUES ($1, $2, $3, $4, $5, $6)`,
      [commitId, businessId, provider, user.id, now.toISOString(), items.length],
    );
    let base = seqs.first - 1;
    for (const type of SYNC_OBJECT_TYPES) {
      const ids = items.filter((i) => i.type === type).map((i) => i.id);
      if (ids.length === 0) continue;
      const marked = await tx.query<{ n: number }>(
        `WITH marked AS (
           UPDATE ${SYNCABLE[type].table} r SET accounting_synced_at = $3, accounting_sync_commit_id = $4, change_seq = $5 + u.ord, updated_at = $3
             FROM unnest($2::uuid[]) WITH ORDINALITY AS u(id, ord)
            WHERE r.business_id = $1 AND r.id = u.id AND r.accounting_synced_at IS NULL RETURNING 1)
         SELECT count(*) AS n FROM marked`,
        [businessId, ids, now.toISOString(), commitId, base],
      );
      if (Number(marked[0]?.n) !== ids.length) throw new Error(`sync commit: ${type} rows changed under the lock`);
      await tx.query(
        `INSERT INTO accounting_sync_items (commit_id, business_id, object_type, object_id) SELECT $1, $2, $3, unnest($4::uuid[])`,
        [commitId, businessId, type, ids],
      );
      base += ids.length;
    }
    const [business] = await tx.query<{ currency: string }>('SELECT currency FROM businesses WHERE id = $1', [businessId]);
    const files = exportFiles(provider, items, { ...settings, home_currency: business!.currency }, stampOf(now));
    for (const [position, f] of files.entries()) {
      await tx.query(
        `INSERT INTO accounting_sync_files (commit_id, business_id, position, name, content_type, content, currency, statement_account)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
        [commitId, businessId, position, f.name, f.content_type, f.content, f.currency, f.statement_account],
      );
    }
  });
  return (await findSyncCommit(tx, businessId, commitId))!;
}

export type UnsyncItem = { type: SyncObjectType; id: string };

/**
 * Marks items not synced again, all or nothing: every item must be a live one of the business
 * that the caller may see (404 otherwise, without saying which). Items not synced are left as
 * they are; each one unmarked takes its own seq.
 */
export async function markNotSynced(tx: Queryable, businessId: string, vis: Visibility, items: UnsyncItem[]): Promise<{ updated: number; change_seq: number | null }> {
  const byType = new Map<SyncObjectType, string[]>();
  for (const i of items) byType.set(i.type, [...new Set([...(byType.get(i.type) ?? []), i.id])]);
  return writeMirrored(tx, businessId, 1, async ({ seqs, reserve }) => {
    const synced: [SyncObjectType, string[]][] = [];
    for (const [type, ids] of byType) {
      const params: unknown[] = [businessId, ids];
      // Bills have no owner column the visibility rule reads: every bill-pay manager sees them all.
      const visibility = type === 'bill' ? '' : visibleUsersClause(vis, 'r', params);
      const rows = await tx.query<{ id: string; synced: boolean }>(
        `SELECT r.id::text, r.accounting_synced_at IS NOT NULL AS synced FROM ${SYNCABLE[type].table} r
          WHERE r.business_id = $1 AND r.id = ANY($2::uuid[]) AND NOT r.deleted${visibility} FOR UPDATE OF r`,
        params,
      );
      if (rows.length !== ids.length) throw new ApiError('REQUEST_7004', `${ids.length - rows.length} of the ${type}s were not found.`);
      synced.push([type, rows.filter((r) => r.synced).map((r) => r.id)]);
    }
    const total = synced.reduce((n, [, ids]) => n + ids.length, 0);
    if (total === 0) return { updated: 0, change_seq: null };
    const last = total > 1 ? (await reserve(total - 1)).last : seqs.last;
    let base = seqs.first - 1;
    for (const [type, ids] of synced) {
      if (ids.length === 0) continue;
      await tx.query(
        `UPDATE ${SYNCABLE[type].table} r SET accounting_synced_at = NULL, accounting_sync_commit_id = NULL, change_seq = $3 + u.ord, updated_at = now()
           FROM unnest($2::uuid[]) WITH ORDINALITY AS u(id, ord) WHERE r.business_id = $1 AND r.id = u.id`,
        [businessId, ids, base],
      );
      base += ids.length;
    }
    return { updated: total, change_seq: last };
  });
}
