import type { ApprovalObjectType } from '../../schema/entities/approval.ts';
import type { NotificationKind, NotificationSubjectType } from '../../schema/entities/notification.ts';
import type { Queryable } from '../db/db.ts';
import { approvalPath, decidedTitle, rejectedBody, requesterTarget, waitingTitle, type Reviewed } from '../domain/notifications/wording.ts';
import { Rng } from './prng.ts';
import type { DemoData } from './types.ts';

/**
 * The demo's notifications (issue 29), read back from the approvals the seed wrote before them,
 * in the producers' own words (domain/notifications/wording.ts): each approver of the newest
 * waiting approvals has `approval_waiting`, and the requesters of the newest decided ones their
 * `rejected` (with the reason) or `approved`. Written with the same columns and event keys
 * `notify()` uses (so a later real event never repeats one), not mailed, the older ones already
 * read. Seqs follow `afterSeq` in time order; answers the last seq used.
 *
 * The producers already ran for the approvals the seed opened through the real writes
 * (procurement's `openApproval`): those rows name the random approval ids the writes drew before
 * the seed gave the approvals its rng's ids, and took seqs from the business counter the seed sets
 * at its end. They are replaced here, so the demo's notifications are deterministic and their seqs
 * keep the seed's rule (1..M, each once; seq-checks.ts).
 */
const WAITING = 6;
const DECIDED = 4;
const READ_AFTER_MS = 3 * 24 * 3600_000;

type ApprovalRow = {
  id: string; object_type: ApprovalObjectType; object_id: string; user_id: string; approver_id: string | null; status: string;
  reason: string | null; decided_by: string | null; decider: string | null; at: string; step_approvers: string[] | null;
  requester: string; amount: number | string | null; currency: string | null;
};

type Row = {
  owner_id: string; kind: NotificationKind; title: string; body: string; subject_type: NotificationSubjectType; subject_id: string;
  path: string; actor_id: string | null; event_key: string; at: string;
};

const APPROVALS_SQL = `
  SELECT a.id::text, a.object_type, a.object_id::text, a.user_id::text, a.approver_id::text, a.status, a.reason, a.decided_by::text,
         trim(d.first_name || ' ' || d.last_name) AS decider, ll_iso(coalesce(a.decided_at, a.created_at)) AS at,
         ai.steps -> a.step_index -> 'approver_ids' AS step_approvers, trim(u.first_name || ' ' || u.last_name) AS requester,
         coalesce((ai.subject ->> 'amount')::bigint, rb.amount, sr.amount) AS amount,
         coalesce(ai.subject ->> 'currency', rb.currency, sr.currency) AS currency
    FROM approvals a JOIN spend_users u ON u.id = a.user_id
    LEFT JOIN spend_users d ON d.id = a.decided_by
    LEFT JOIN approval_instances ai ON ai.id = a.instance_id
    LEFT JOIN reimbursements rb ON rb.id = a.object_id AND a.object_type = 'reimbursement'
    LEFT JOIN spend_requests sr ON sr.id = a.object_id AND a.object_type = 'spend_request'
   WHERE a.business_id = $1 AND NOT a.deleted AND a.status = $2
   ORDER BY coalesce(a.decided_at, a.created_at) DESC, a.id DESC LIMIT $3`;

const reviewedOf = (a: ApprovalRow): Reviewed => ({
  approval_id: a.id, object_type: a.object_type, object_id: a.object_id, requester: a.requester,
  amount: a.amount == null ? null : Number(a.amount), currency: a.currency,
});

function waitingRows(approvals: readonly ApprovalRow[], admins: readonly string[]): Row[] {
  return approvals.flatMap((a) => {
    const approvers = a.step_approvers ?? (a.approver_id ? [a.approver_id] : [...admins]);
    const title = waitingTitle(reviewedOf(a));
    return [...new Set(approvers)].filter((id) => id !== a.user_id).map((owner) => ({
      owner_id: owner, kind: 'approval_waiting' as const, title, body: '', subject_type: 'approval' as const, subject_id: a.id,
      path: approvalPath(a.id), actor_id: a.user_id, event_key: `approval:${a.id}:waiting`, at: a.at,
    }));
  });
}

function decidedRows(approvals: readonly ApprovalRow[]): Row[] {
  return approvals.map((a) => {
    const status = a.status as 'APPROVED' | 'REJECTED';
    const r = reviewedOf(a);
    const { path, subject_type, subject_id } = requesterTarget(r);
    return {
      owner_id: a.user_id, kind: status === 'REJECTED' ? 'rejected' as const : 'approved' as const, title: decidedTitle(r, status),
      body: status === 'REJECTED' ? rejectedBody(a.reason, a.decider) : '', subject_type, subject_id, path, actor_id: a.decided_by,
      event_key: `approval:${a.id}:${status === 'REJECTED' ? 'rejected' : 'approved'}`, at: a.at,
    };
  });
}

export async function insertDemoNotifications(tx: Queryable, data: DemoData, now: Date, afterSeq: number): Promise<number> {
  const businessId = data.business.id;
  const read = (status: string, limit: number) => tx.query<ApprovalRow>(APPROVALS_SQL, [businessId, status, limit]);
  const admins = data.accounts.filter((a) => a.role === 'BUSINESS_ADMIN' || a.role === 'BUSINESS_OWNER').map((a) => a.user_id);
  const rows = [
    ...waitingRows(await read('PENDING', WAITING), admins),
    ...decidedRows([...await read('REJECTED', DECIDED), ...await read('APPROVED', DECIDED / 2)]),
  ].filter((r) => r.owner_id !== r.actor_id)
    .sort((x, y) => x.at.localeCompare(y.at) || x.event_key.localeCompare(y.event_key) || x.owner_id.localeCompare(y.owner_id));
  await tx.query('DELETE FROM notifications WHERE business_id = $1', [businessId]);
  const rng = new Rng(0, `${businessId}\u0000notifications`);
  let seq = afterSeq;
  for (const r of rows) {
    seq += 1;
    const readAt = now.getTime() - Date.parse(r.at) > READ_AFTER_MS ? new Date(Date.parse(r.at) + 3600_000).toISOString() : null;
    await tx.query(
      `INSERT INTO notifications (id, business_id, owner_id, kind, title, body, subject_type, subject_id, path, actor_id, event_key,
                                  read_at, created_at, updated_at, change_seq)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12::timestamptz, $13::timestamptz, coalesce($12::timestamptz, $13::timestamptz), $14)`,
      [rng.uuid(), businessId, r.owner_id, r.kind, r.title, r.body, r.subject_type, r.subject_id, r.path, r.actor_id, r.event_key,
        readAt, r.at, seq],
    );
  }
  return seq;
}
