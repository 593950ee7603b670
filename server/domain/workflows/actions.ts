import { randomUUID } from 'node:crypto';
import { resolveChain, type InstanceStep, type PolicyObjectType } from '../../../schema/approval-policy.ts';
import type { CommentSubjectType } from '../../../schema/api/calls-comments.ts';
import type { NotificationSubjectType } from '../../../schema/entities/notification.ts';
import { reimbursementSchema } from '../../../schema/entities/reimbursement.ts';
import { isAdmin } from '../../../schema/roles.ts';
import { formatMoney } from '../../../schema/money.ts';
import { TRIGGER_LABELS, type ActionResult, type Workflow, type WorkflowAction, type WorkflowSubject } from '../../../schema/workflow.ts';
import type { ActingUser } from '../../core/actor.ts';
import { ApiError } from '../../core/errors.ts';
import type { Queryable } from '../../db/db.ts';
import { stateOf, storeInstance } from '../approval-policies.ts';
import { decideApproval } from '../approvals.ts';
import { moveCard } from '../cards.ts';
import { codeTransaction } from '../coding.ts';
import { COLLECTIONS, writeMirrored } from '../collections.ts';
import { writeWorkflowComment } from '../comments/comments.ts';
import { notify } from '../notifications/notify.ts';
import { storeReimbursement } from '../reimbursements.ts';
import type { Act } from './action-types.ts';

/**
 * What each workflow action does to the trigger's object (issue 29), through the domain's own
 * writes so the mirrors re-stamp exactly as for a person's change: coding through the coding
 * write, locks through the card machine, approvals through the decide path. An action that cannot
 * act answers SKIPPED with the reason; one that throws is FAILED by the engine, never the trigger.
 */

const done = (detail: string) => ({ status: 'DONE' as const, detail });
const skipped = (detail: string) => ({ status: 'SKIPPED' as const, detail });

type Person = { id: string; role: string; manager_id: string | null; active: boolean; email: string; name: string; department_id: string | null; entity_id: string | null };
async function people(db: Queryable, businessId: string): Promise<Person[]> {
  return db.query<Person>(
    `SELECT id::text, role, manager_id::text, (status = 'ACTIVE' AND NOT deleted) AS active, email, trim(first_name || ' ' || last_name) AS name,
            department_id::text, entity_id::text FROM spend_users WHERE business_id = $1`, [businessId],
  );
}

/**
 * Who a workflow acts as where the domain needs a person (decide, lock): its author when still an
 * active admin and not the object's owner, else the business's longest-standing other active
 * admin. The workflow is named in the execution log; the row records this admin as the decider.
 */
async function actingAdmin(db: Queryable, businessId: string, w: Workflow, ownerId: string | null | undefined): Promise<ActingUser | null> {
  const rows = await db.query<ActingUser & { status: string }>(
    `SELECT id::text, business_id::text, role, is_manager, user_permissions, manager_id::text, status FROM spend_users
      WHERE business_id = $1 AND status = 'ACTIVE' AND NOT deleted AND ($2::uuid IS NULL OR id <> $2)
      ORDER BY (id = $3) DESC, change_seq, id`, [businessId, ownerId ?? null, w.created_by],
  );
  const admin = rows.find((r) => isAdmin(r));
  if (!admin) return null;
  const { status: _status, ...user } = admin;
  return user;
}

const requireReceipt: Act = async ({ tx, businessId, workflow, loaded }) => {
  const { object_type, object_id } = loaded.subject;
  await tx.query(
    `INSERT INTO workflow_receipt_requirements (business_id, object_type, object_id, workflow_id) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING`,
    [businessId, object_type, object_id, workflow.id],
  );
  return done(`A receipt is now required for this ${object_type === 'transaction' ? 'transaction' : 'claim'}; it shows in the owner's missing items until one is attached.`);
};

const setCoding: Act = async ({ tx, businessId, loaded, now }, a: Extract<WorkflowAction, { kind: 'set_coding' }>) => {
  const patch = {
    ...(a.gl_account_id ? { gl_account_id: a.gl_account_id } : {}), ...(a.department_id ? { department_id: a.department_id } : {}),
    ...(a.location_id ? { location_id: a.location_id } : {}),
  };
  const fields = Object.keys(patch).map((k) => k.replace('_id', '').replace('_', ' ')).join(', ');
  const { object_type, object_id } = loaded.subject;
  if (object_type === 'transaction') {
    await codeTransaction(tx, businessId, { all: true }, object_id, patch);
    return done(`Set the ${fields}.`);
  }
  if (object_type === 'reimbursement') {
    if (a.location_id && !a.gl_account_id && !a.department_id) return skipped('Claims carry no location.');
    await writeMirrored(tx, businessId, 1, async ({ seqs }) => {
      const [row] = await tx.query<{ doc: unknown }>(
        `SELECT ${COLLECTIONS.reimbursements.docSql} AS doc FROM reimbursements r WHERE r.business_id = $1 AND r.id = $2 AND NOT r.deleted FOR UPDATE`,
        [businessId, object_id],
      );
      if (!row) throw new ApiError('REQUEST_7004');
      const claim = reimbursementSchema.parse(row.doc);
      await storeReimbursement(tx, {
        ...claim, gl_account_id: a.gl_account_id ?? claim.gl_account_id, department_id: a.department_id ?? claim.department_id,
        change_seq: seqs.first, updated_at: now.toISOString(),
      });
    });
    return done(`Set the ${fields.replace(', location', '')} of the claim.`);
  }
  return skipped('A bill is coded on its lines; set its coding on the bill.');
};

/** The object's PENDING approval rows (the current step), oldest first. */
const pendingApproval = async (tx: Queryable, businessId: string, objectId: string) =>
  (await tx.query<{ id: string; instance_id: string | null; object_type: string }>(
    `SELECT id::text, instance_id::text, object_type FROM approvals WHERE business_id = $1 AND object_id = $2 AND status = 'PENDING' AND NOT deleted
      ORDER BY created_at, id LIMIT 1`, [businessId, objectId],
  ))[0] ?? null;

const POLICY_TYPE: Partial<Record<WorkflowSubject['object_type'], PolicyObjectType>> = {
  reimbursement: 'reimbursement', bill: 'bill', card_request: 'card', spend_request: 'spend_request',
};

const addApprovalStep: Act = async ({ tx, businessId, loaded, now }, a: Extract<WorkflowAction, { kind: 'add_approval_step' }>) => {
  const s = loaded.subject;
  const [inst] = await tx.query<{ id: string; status: string; requester_id: string; steps: InstanceStep[] }>(
    `SELECT id::text, status, requester_id::text, steps FROM approval_instances WHERE business_id = $1 AND object_id = $2 AND status = 'PENDING'
      ORDER BY created_at DESC LIMIT 1 FOR UPDATE`, [businessId, s.object_id],
  );
  if (!inst) return skipped('It has no approval running.');
  const dir = await people(tx, businessId);
  const chain = resolveChain(
    { object_type: POLICY_TYPE[s.object_type] ?? 'reimbursement', steps: [{ id: randomUUID(), condition: null, approvers: a.approvers }] },
    { requester_id: inst.requester_id, amount: s.amount ?? 0, currency: s.currency ?? 'USD', department_id: s.department_id ?? null, vendor_id: s.vendor_id ?? null, entity_id: null },
    dir,
  );
  const step = chain.steps[0];
  if (!step) return skipped('No one the step names may approve it.');
  const state = stateOf({ ...inst, steps: inst.steps } as Parameters<typeof stateOf>[0]);
  await storeInstance(tx, businessId, inst.id, { ...state, steps: [...state.steps, { ...step, status: 'WAITING', approved_by: [] }] }, now.toISOString());
  const names = step.approver_ids.map((id) => dir.find((p) => p.id === id)?.name ?? id).join(', ');
  return done(`Added step ${state.steps.length + 1} to the approval: ${step.fallback ? 'the admins (no eligible approver)' : names}.`);
};

const autoApprove: Act = async ({ tx, businessId, workflow, loaded, now }, a: Extract<WorkflowAction, { kind: 'auto_approve' }>) => {
  const s = loaded.subject;
  const limit = formatMoney(a.under.amount, a.under.currency);
  if (s.amount === undefined || s.currency !== a.under.currency) return skipped(`Not in ${a.under.currency}: not approved automatically.`);
  if (s.amount >= a.under.amount) return skipped(`Not under ${limit}: ${formatMoney(s.amount, s.currency)}.`);
  const as = await actingAdmin(tx, businessId, workflow, s.user_id);
  if (!as) return skipped('No active admin other than its owner to record the approval.');
  let steps = 0;
  // Every step of the chain, one after another (the decide path opens the next step's approval).
  for (let open = await pendingApproval(tx, businessId, s.object_id); open && steps < 25; open = await pendingApproval(tx, businessId, s.object_id)) {
    await decideApproval(tx, as, open.id, { status: 'APPROVED' }, now);
    steps += 1;
  }
  if (steps === 0) return skipped('It has no approval waiting.');
  return done(`Approved by Workflow: ${workflow.name} (${formatMoney(s.amount, s.currency)} is under ${limit}; ${steps === 1 ? 'one step' : `${steps} steps`}).`);
};

const lockCard: Act = async ({ tx, businessId, workflow, loaded, now }) => {
  if (!loaded.card_id) return skipped('It has no card.');
  const [card] = await tx.query<{ status: string; last_four: string }>('SELECT status, last_four FROM cards WHERE business_id = $1 AND id = $2', [businessId, loaded.card_id]);
  if (!card) return skipped('Its card was not found.');
  if (card.status !== 'ACTIVE') return skipped(`Card •••• ${card.last_four} is ${card.status.toLowerCase()}: only an active card is locked.`);
  const as = await actingAdmin(tx, businessId, workflow, null);
  if (!as) return skipped('No active admin to record the lock.');
  await moveCard(tx, as, loaded.card_id, 'lock', now);
  return done(`Locked card •••• ${card.last_four}.`);
};

const OBJECT_PATH: Record<WorkflowSubject['object_type'], (id: string) => string> = {
  transaction: (id) => `/transactions?open=${id}`, reimbursement: (id) => `/reimbursements?open=${id}`, bill: (id) => `/bills?open=${id}`,
  card_request: () => '/approvals', spend_request: (id) => `/requests?open=${id}`, receipt: () => '/receipts',
};
/** What a notification names as its subject (a receipt has no subject type of its own: it opens the receipts page). */
const NOTIFICATION_SUBJECT: Record<WorkflowSubject['object_type'], NotificationSubjectType | null> = {
  transaction: 'transaction', reimbursement: 'reimbursement', bill: 'bill', card_request: 'card_request', spend_request: 'spend_request', receipt: null,
};

const names = (ps: readonly { name: string }[]) => (ps.length === 1 ? ps[0]!.name : `${ps.length} people`);

/**
 * In-app notifications (kind `workflow`) through the one producer `notify()`, which also mails
 * each new one unless the person muted workflow mail. The key names this execution's action and
 * the person, so a run replayed in any way notifies nobody twice.
 */
const notifyAction: Act = async ({ tx, businessId, workflow, trigger, loaded, now, executionId, index }, a: Extract<WorkflowAction, { kind: 'notify' }>) => {
  const dir = (await people(tx, businessId)).filter((p) => p.active);
  const owner = dir.find((p) => p.id === loaded.subject.user_id);
  const to = a.to.kind === 'user' ? dir.filter((p) => p.id === (a.to as { user_id: string }).user_id)
    : a.to.kind === 'role' ? dir.filter((p) => p.role === (a.to as { role: string }).role)
    : a.to.kind === 'owner' ? (owner ? [owner] : [])
    : dir.filter((p) => owner?.manager_id && p.id === owner.manager_id);
  if (to.length === 0) return skipped('No active person to notify.');
  const { object_type, object_id } = loaded.subject;
  const subjectType = NOTIFICATION_SUBJECT[object_type];
  const made = await notify(tx, businessId, to.map((p) => ({
    owner_id: p.id, kind: 'workflow' as const, title: `${workflow.name}: ${TRIGGER_LABELS[trigger].toLowerCase()}`, body: a.message,
    subject_type: subjectType, subject_id: subjectType ? object_id : null, path: OBJECT_PATH[object_type](object_id), actor_id: null,
    event_key: `workflow:${executionId}:${index}:${p.id}`,
  })), now.toISOString());
  const notified = to.filter((p) => made.some((n) => n.owner_id === p.id));
  if (notified.length === 0) return skipped(`${names(to)} ${to.length === 1 ? 'was' : 'were'} notified of this event already.`);
  return done(`Notified ${names(notified)}.`);
};

const COMMENTABLE: Partial<Record<WorkflowSubject['object_type'], CommentSubjectType>> = {
  transaction: 'transaction', reimbursement: 'reimbursement', bill: 'bill', spend_request: 'spend_request',
};
const NOT_COMMENTABLE = (t: WorkflowSubject['object_type']) =>
  `Comments are kept on transactions, claims, bills and spend requests, not on ${t === 'card_request' ? 'card requests' : 'receipts'}.`;
const quote = (text: string) => `“${text.length <= 80 ? text : `${text.slice(0, 79)}…`}”`;

/** A comment on the item's thread, written by the workflow (no author; "Workflow: <name>"), notifying the item's owner. */
const comment: Act = async ({ tx, businessId, workflow, loaded, now }, a: Extract<WorkflowAction, { kind: 'comment' }>) => {
  const type = COMMENTABLE[loaded.subject.object_type];
  if (!type) return skipped(NOT_COMMENTABLE(loaded.subject.object_type));
  const written = await writeWorkflowComment(tx, businessId, workflow, type, loaded.subject.object_id, a.text, randomUUID(), now);
  if (!written) return skipped('The item was not found.');
  return done(`Commented: ${quote(a.text)}`);
};

export const ACTIONS: Record<WorkflowAction['kind'], Act> = {
  require_receipt: requireReceipt, set_coding: setCoding, add_approval_step: addApprovalStep, auto_approve: autoApprove,
  lock_card: lockCard, notify: notifyAction, comment,
};

/** Which action answers what (the dry run's words, acting on nothing). */
export function wouldDo(a: WorkflowAction, s: WorkflowSubject): Omit<ActionResult, 'kind'> {
  const would = (detail: string) => ({ status: 'DONE' as const, detail: `Would ${detail}` });
  switch (a.kind) {
    case 'require_receipt': return would('require a receipt.');
    case 'set_coding': return s.object_type === 'bill' ? skipped('A bill is coded on its lines; set its coding on the bill.') : would('set its coding.');
    case 'add_approval_step': return would('add an approval step.');
    case 'auto_approve':
      if (s.amount === undefined || s.currency !== a.under.currency) return skipped(`Not in ${a.under.currency}: not approved automatically.`);
      return s.amount < a.under.amount ? would(`approve it (${formatMoney(s.amount, s.currency)} is under ${formatMoney(a.under.amount, a.under.currency)}).`)
        : skipped(`Not under ${formatMoney(a.under.amount, a.under.currency)}: ${formatMoney(s.amount, s.currency)}.`);
    case 'lock_card': return would('lock the card.');
    case 'notify': return would(`notify ${a.to.kind === 'role' ? `every ${a.to.role}` : a.to.kind === 'user' ? 'the person named' : `the ${a.to.kind}`}.`);
    case 'comment': return COMMENTABLE[s.object_type] ? would(`comment: ${quote(a.text)}`) : skipped(NOT_COMMENTABLE(s.object_type));
  }
}
