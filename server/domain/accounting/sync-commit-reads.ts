import { type AccountingProvider, type SyncCommit, type SyncPreview } from '../../../schema/api/calls-accounting.ts';
import type { Queryable } from '../../db/db.ts';
import { newestFirstPage, type Page, type PageRequest } from '../newest-first-page.ts';
import { syncableItems } from './sync-items.ts';

/** Reads of sync commits and their files (issue 12); writes are in sync-commits.ts. */

const SYNC_COMMITS_PATH = '/v1/auth/accounting/sync_commits';

/** A commit's wire doc; each file's url is its download GET (catalogue: accounting.syncCommits.file). */
const COMMIT_DOC = `jsonb_build_object(
  'id', r.id, 'provider_type', r.provider_type, 'created_by', r.created_by, 'created_at', ll_iso(r.created_at),
  'item_count', r.item_count,
  'files', (SELECT coalesce(jsonb_agg(jsonb_build_object(
      'name', f.name, 'url', '${SYNC_COMMITS_PATH}/' || r.id::text || '/files/' || f.name,
      'content_type', f.content_type, 'size', octet_length(f.content), 'currency', f.currency,
      'statement_account', f.statement_account) ORDER BY f.position), '[]'::jsonb)
    FROM accounting_sync_files f WHERE f.commit_id = r.id))`;

export async function findSyncCommit(db: Queryable, businessId: string, id: string): Promise<SyncCommit | null> {
  const rows = await db.query<{ doc: SyncCommit }>(
    `SELECT ${COMMIT_DOC} AS doc FROM accounting_sync_commits r WHERE r.business_id = $1 AND r.id = $2`,
    [businessId, id],
  );
  return rows[0]?.doc ?? null;
}

export async function lastSyncCommit(db: Queryable, businessId: string): Promise<SyncCommit | null> {
  const rows = await db.query<{ doc: SyncCommit }>(
    `SELECT ${COMMIT_DOC} AS doc FROM accounting_sync_commits r WHERE r.business_id = $1 ORDER BY r.created_at DESC, r.id DESC LIMIT 1`,
    [businessId],
  );
  return rows[0]?.doc ?? null;
}

export function listSyncCommits(db: Queryable, businessId: string, req: PageRequest): Promise<Page<SyncCommit>> {
  return newestFirstPage<SyncCommit>(db, { table: 'accounting_sync_commits', doc: COMMIT_DOC, where: 'r.business_id = $1', params: [businessId] }, req);
}

/** One file of one of the business's commits, or null (another business's commit reads as absent). */
export async function readSyncFile(db: Queryable, businessId: string, commitId: string, name: string) {
  const rows = await db.query<{ name: string; content_type: string; content: string }>(
    `SELECT f.name, f.content_type, f.content FROM accounting_sync_files f
       JOIN accounting_sync_commits c ON c.id = f.commit_id AND c.business_id = $1
      WHERE f.commit_id = $2 AND f.name = $3`,
    [businessId, commitId, name],
  );
  return rows[0] ?? null;
}

/**
 * Issue 25: what a sync commit to `provider` at `now` would take, without locking or marking
 * anything: the commit's own read (`syncableItems`, the provider's selection: a Xero bank
 * statement only money that moved), counted and summed per source and currency, so the
 * confirmation shows exactly what "Sync now" exports and locks (sync-preview.test.ts holds the
 * commit to it). Sources in the commit's order: card transactions, claims, bills; within one,
 * the most items first. Sums are in minor units (integers), so adding them is exact.
 */
export async function previewSyncCommit(db: Queryable, businessId: string, provider: AccountingProvider, now: Date): Promise<SyncPreview> {
  const byKey = new Map<string, SyncPreview['groups'][number]>();
  for (const item of await syncableItems(db, businessId, provider, now, { lock: false })) {
    const key = `${item.type} ${item.currency}`;
    const group = byKey.get(key) ?? { type: item.type, currency: item.currency, count: 0, amount: 0 };
    group.count += 1;
    group.amount += item.amount;
    byKey.set(key, group);
  }
  const order = ['transaction', 'reimbursement', 'bill'] as const;
  const groups = [...byKey.values()]
    .sort((a, b) => order.indexOf(a.type) - order.indexOf(b.type) || b.count - a.count || (a.currency < b.currency ? -1 : 1));
  return { provider_type: provider, item_count: groups.reduce((n, g) => n + g.count, 0), groups };
}
