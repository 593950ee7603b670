import { z } from 'zod';
import { approverSpecSchema } from './approval-policy.ts';
import { VIOLATION_CODES, type ViolationCode } from './expense-policy.ts';
import { merchantCategorySchema } from './entities/card.ts';
import { formatMoney, knownCurrencySchema, moneyOf } from './money.ts';
import { roleSchema } from './roles.ts';

/**
 * Automation workflows (issue 29), pure: a trigger, then rules tried in order — the first whose
 * conditions all hold runs its actions (an if / else-if chain, as Ramp's workflow branches). The
 * server runs them in the same transaction as their trigger (server/domain/workflows/), records each
 * execution, and runs a workflow at most once per trigger event (`eventKey`). The canvas edits the
 * same workflow as a graph (`workflowToCanvas` / `canvasToWorkflow`), and the dry run replays past
 * events through `evaluateWorkflow` without acting.
 *
 * Loops: an action may itself raise a trigger (`ACTION_EMITS`: setting a transaction's coding raises
 * `transaction.coded`). Saving a workflow whose actions can reach its own trigger, through its own
 * actions or through the business's other enabled workflows, is refused (`findLoop`); at run time a
 * chain of workflow runs deeper than MAX_WORKFLOW_DEPTH stops with an error in the execution log.
 */

export const WORKFLOW_TRIGGERS = [
  'transaction.created', 'transaction.cleared', 'transaction.coded', 'claim.submitted', 'bill.created',
  'card_request.created', 'spend_request.created', 'receipt.uploaded',
] as const;
export const workflowTriggerSchema = z.enum(WORKFLOW_TRIGGERS);
export type WorkflowTrigger = z.infer<typeof workflowTriggerSchema>;

/** What each trigger is about: the object an execution names, and what its conditions and actions read. */
export const TRIGGER_OBJECT: Record<WorkflowTrigger, 'transaction' | 'reimbursement' | 'bill' | 'card_request' | 'spend_request' | 'receipt'> = {
  'transaction.created': 'transaction',
  'transaction.cleared': 'transaction',
  'transaction.coded': 'transaction',
  'claim.submitted': 'reimbursement',
  'bill.created': 'bill',
  'card_request.created': 'card_request',
  'spend_request.created': 'spend_request',
  'receipt.uploaded': 'receipt',
};

export const TRIGGER_LABELS: Record<WorkflowTrigger, string> = {
  'transaction.created': 'A card transaction is made',
  'transaction.cleared': 'A card transaction clears',
  'transaction.coded': 'A card transaction is coded',
  'claim.submitted': 'A claim is submitted',
  'bill.created': 'A bill is created',
  'card_request.created': 'A card is requested',
  'spend_request.created': 'Spend is requested',
  'receipt.uploaded': 'A receipt is uploaded',
};

export const MAX_WORKFLOW_RULES = 10;
export const MAX_RULE_CONDITIONS = 10;
export const MAX_RULE_ACTIONS = 10;
export const MAX_WORKFLOWS = 100;
/** A workflow run started by another's action is depth 2; past this the run stops with an error. */
export const MAX_WORKFLOW_DEPTH = 3;
/** The dry run replays this many days of past events. */
export const DRY_RUN_DAYS = 30;

const MAX_AMOUNT = 1_000_000_000_00;
const ids = z.array(z.uuid()).min(1).max(200);
const moneySchema = moneyOf(z.number().int().nonnegative().max(MAX_AMOUNT));

export const workflowConditionSchema = z.discriminatedUnion('kind', [
  /** Same currency only (no conversion: another currency never matches). */
  z.object({ kind: z.literal('amount'), op: z.enum(['gt', 'gte', 'lt', 'lte']), amount: z.number().int().nonnegative().max(MAX_AMOUNT), currency: knownCurrencySchema }),
  /** The merchant's name (a bill's or request's vendor name), case and accents ignored. */
  z.object({ kind: z.literal('merchant'), op: z.enum(['is', 'contains']), value: z.string().trim().min(1).max(200) }),
  z.object({ kind: z.literal('merchant_category'), in: z.array(merchantCategorySchema).min(1).max(50) }),
  z.object({ kind: z.literal('department'), in: ids }),
  /** The person the object belongs to (cardholder, claimant, requester; a bill's creator). */
  z.object({ kind: z.literal('person'), in: ids }),
  z.object({ kind: z.literal('role'), in: z.array(roleSchema).min(1).max(20) }),
  z.object({ kind: z.literal('vendor'), in: ids }),
  /** The object breaks an expense policy with any of these codes (transactions and claims). */
  z.object({ kind: z.literal('policy_violation'), codes: z.array(z.enum(VIOLATION_CODES)).min(1) }),
]);
export type WorkflowCondition = z.infer<typeof workflowConditionSchema>;

export const notifyTargetSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('user'), user_id: z.uuid() }),
  z.object({ kind: z.literal('role'), role: roleSchema }),
  /** The person the object belongs to. */
  z.object({ kind: z.literal('owner') }),
  /** Their manager. */
  z.object({ kind: z.literal('manager') }),
]);

export const workflowActionSchema = z.discriminatedUnion('kind', [
  /** The item needs a receipt whatever the policy says (a fixable item in the owner's missing items). */
  z.object({ kind: z.literal('require_receipt') }),
  /** Sets the coding fields given (at least one); raises `transaction.coded` on a transaction. */
  z.object({
    kind: z.literal('set_coding'),
    gl_account_id: z.uuid().optional(), department_id: z.uuid().optional(), location_id: z.uuid().optional(),
  }).refine((a) => a.gl_account_id || a.department_id || a.location_id, { message: 'Name at least one of gl_account_id, department_id, location_id.' }),
  /** One more step at the end of the object's running approval. */
  z.object({ kind: z.literal('add_approval_step'), approvers: approverSpecSchema }),
  /** Approves the object's running approval when its amount is strictly under `under` (same currency), recorded as by this workflow. */
  z.object({ kind: z.literal('auto_approve'), under: moneySchema }),
  /** Locks the card of the transaction or card request. */
  z.object({ kind: z.literal('lock_card') }),
  z.object({ kind: z.literal('notify'), to: notifyTargetSchema, message: z.string().trim().min(1).max(500) }),
  z.object({ kind: z.literal('comment'), text: z.string().trim().min(1).max(2000) }),
]);
export type WorkflowAction = z.infer<typeof workflowActionSchema>;
export type WorkflowActionKind = WorkflowAction['kind'];

/** Which actions make sense for which trigger's object (a save naming another is refused, by field). */
export const ACTIONS_FOR: Record<WorkflowTrigger, readonly WorkflowActionKind[]> = {
  'transaction.created': ['require_receipt', 'set_coding', 'lock_card', 'notify', 'comment'],
  'transaction.cleared': ['require_receipt', 'set_coding', 'lock_card', 'notify', 'comment'],
  'transaction.coded': ['require_receipt', 'set_coding', 'lock_card', 'notify', 'comment'],
  'claim.submitted': ['require_receipt', 'set_coding', 'add_approval_step', 'auto_approve', 'notify', 'comment'],
  'bill.created': ['set_coding', 'add_approval_step', 'auto_approve', 'notify', 'comment'],
  'card_request.created': ['add_approval_step', 'auto_approve', 'notify', 'comment'],
  'spend_request.created': ['add_approval_step', 'auto_approve', 'notify', 'comment'],
  'receipt.uploaded': ['notify', 'comment'],
};

/** Which conditions a trigger's object can answer. */
export const CONDITIONS_FOR: Record<WorkflowTrigger, readonly WorkflowCondition['kind'][]> = {
  'transaction.created': ['amount', 'merchant', 'merchant_category', 'department', 'person', 'role', 'policy_violation'],
  'transaction.cleared': ['amount', 'merchant', 'merchant_category', 'department', 'person', 'role', 'policy_violation'],
  'transaction.coded': ['amount', 'merchant', 'merchant_category', 'department', 'person', 'role', 'policy_violation'],
  'claim.submitted': ['amount', 'merchant', 'department', 'person', 'role', 'policy_violation'],
  'bill.created': ['amount', 'merchant', 'department', 'person', 'role', 'vendor'],
  'card_request.created': ['amount', 'department', 'person', 'role'],
  'spend_request.created': ['amount', 'merchant', 'department', 'person', 'role', 'vendor'],
  'receipt.uploaded': ['amount', 'merchant', 'person', 'role'],
};

/** Triggers an action raises when it runs on the trigger's object (what loops are made of). */
export const ACTION_EMITS: Record<WorkflowActionKind, (trigger: WorkflowTrigger) => readonly WorkflowTrigger[]> = {
  require_receipt: () => [],
  set_coding: (t) => (TRIGGER_OBJECT[t] === 'transaction' ? ['transaction.coded'] : []),
  add_approval_step: () => [],
  auto_approve: () => [],
  lock_card: () => [],
  notify: () => [],
  comment: () => [],
};

export const workflowRuleSchema = z.object({
  id: z.uuid(),
  /** All must hold; none: the rule always runs. */
  conditions: z.array(workflowConditionSchema).max(MAX_RULE_CONDITIONS),
  actions: z.array(workflowActionSchema).min(1).max(MAX_RULE_ACTIONS),
});
export type WorkflowRule = z.infer<typeof workflowRuleSchema>;
export const workflowRuleBodySchema = workflowRuleSchema.extend({ id: z.uuid().optional() });

/**
 * The create body (the issue's contract): `conditions` and `actions` are the first rule;
 * `rules` adds the else-if branches after it.
 */
export const workflowInputSchema = z.object({
  name: z.string().trim().min(1).max(120),
  trigger: workflowTriggerSchema,
  conditions: z.array(workflowConditionSchema).max(MAX_RULE_CONDITIONS),
  actions: z.array(workflowActionSchema).min(1).max(MAX_RULE_ACTIONS),
  rules: z.array(workflowRuleBodySchema).max(MAX_WORKFLOW_RULES - 1).optional(),
  enabled: z.boolean(),
});
export type WorkflowInput = z.infer<typeof workflowInputSchema>;

export const workflowSchema = z.object({
  id: z.uuid(), // product_workflow_uuid
  name: z.string(),
  trigger: workflowTriggerSchema,
  /** The first rule's, as the create body names them. */
  conditions: z.array(workflowConditionSchema),
  actions: z.array(workflowActionSchema),
  /** Every rule in order, the first included. */
  rules: z.array(workflowRuleSchema).min(1),
  enabled: z.boolean(),
  /** Bumped by every edit; an execution names the version it ran. */
  version: z.number().int().positive(),
  created_by: z.uuid(),
  created_at: z.iso.datetime({ offset: true }),
  updated_at: z.iso.datetime({ offset: true }),
  last_run_at: z.iso.datetime({ offset: true }).nullable(),
});
export type Workflow = z.infer<typeof workflowSchema>;

/** Field → message for what the schema cannot see: an action or condition the trigger's object has no use for. */
export function workflowProblems(trigger: WorkflowTrigger, rules: readonly Pick<WorkflowRule, 'conditions' | 'actions'>[]): Record<string, string> {
  const out: Record<string, string> = {};
  rules.forEach((r, ri) => {
    const at = ri === 0 ? '' : `rules.${ri - 1}.`;
    r.conditions.forEach((c, i) => {
      if (!CONDITIONS_FOR[trigger].includes(c.kind)) out[`${at}conditions.${i}`] = `"${TRIGGER_LABELS[trigger]}" has no ${c.kind.replace('_', ' ')} to check.`;
    });
    r.actions.forEach((a, i) => {
      if (!ACTIONS_FOR[trigger].includes(a.kind)) out[`${at}actions.${i}`] = `${ACTION_LABELS[a.kind]} cannot follow "${TRIGGER_LABELS[trigger]}".`;
    });
  });
  return out;
}

export const ACTION_LABELS: Record<WorkflowActionKind, string> = {
  require_receipt: 'Require a receipt',
  set_coding: 'Set coding',
  add_approval_step: 'Add an approval step',
  auto_approve: 'Approve automatically',
  lock_card: 'Lock the card',
  notify: 'Notify',
  comment: 'Comment',
};

type LoopWorkflow = { id: string; name: string; trigger: WorkflowTrigger; enabled: boolean; rules: readonly Pick<WorkflowRule, 'actions'>[] };

/** The triggers a workflow's actions raise. */
const emitted = (w: LoopWorkflow): WorkflowTrigger[] =>
  [...new Set(w.rules.flatMap((r) => r.actions.flatMap((a) => ACTION_EMITS[a.kind](w.trigger))))];

/**
 * A loop through `candidate`: the chain of workflow names from it back to its own trigger through
 * the enabled `others` (the candidate's stored self excluded by id), or null. Saving is refused
 * with the chain in words.
 */
export function findLoop(candidate: LoopWorkflow, others: readonly LoopWorkflow[]): string[] | null {
  const all = [candidate, ...others.filter((o) => o.id !== candidate.id && o.enabled)];
  const start = candidate.trigger;
  const queue: { w: LoopWorkflow; path: string[] }[] = [{ w: candidate, path: [candidate.name] }];
  const seen = new Set<string>([candidate.id]);
  while (queue.length > 0) {
    const { w, path } = queue.shift()!;
    for (const t of emitted(w)) {
      if (t === start) return path;
      for (const next of all.filter((o) => o.trigger === t && !seen.has(o.id))) {
        seen.add(next.id);
        queue.push({ w: next, path: [...path, next.name] });
      }
    }
  }
  return null;
}

// ---------------------------------------------------------------------------------------------
// Evaluation

/** What a trigger event tells the conditions (absent: the object has none). */
export type WorkflowSubject = {
  object_type: (typeof TRIGGER_OBJECT)[WorkflowTrigger];
  object_id: string;
  amount?: number;
  currency?: string;
  merchant?: string | null;
  merchant_category?: string | null;
  department_id?: string | null;
  user_id?: string | null;
  role?: string | null;
  vendor_id?: string | null;
  violations?: readonly ViolationCode[];
};

/** One trigger event: the key makes a workflow run at most once per event. */
export type WorkflowEvent = { trigger: WorkflowTrigger; key: string; subject: WorkflowSubject; depth: number };

/** `transaction.cleared:<id>`, `claim.submitted:<id>:<submitted_at>` — what a repeated event shares. */
export const eventKey = (trigger: WorkflowTrigger, objectId: string, occurrence = '') =>
  `${trigger}:${objectId}${occurrence ? `:${occurrence}` : ''}`;

export type ConditionTrace = { index: number; kind: WorkflowCondition['kind']; met: boolean; reason: string };
export type RuleTrace = { rule_id: string; matched: boolean; conditions: ConditionTrace[] };
export type Evaluation = {
  /** The rule that runs, or null when none matched (the execution is recorded with no actions). */
  rule_id: string | null;
  actions: WorkflowAction[];
  rules: RuleTrace[];
};

const fold = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().trim();
const OPS = { gt: (a: number, b: number) => a > b, gte: (a: number, b: number) => a >= b, lt: (a: number, b: number) => a < b, lte: (a: number, b: number) => a <= b };
const OP_WORDS = { gt: 'over', gte: 'at least', lt: 'under', lte: 'at most' };

function checkCondition(c: WorkflowCondition, s: WorkflowSubject): { met: boolean; reason: string } {
  const inList = (what: string, list: readonly string[], value: string | null | undefined) =>
    value && list.includes(value) ? { met: true, reason: `${what} is one of the ${list.length} named` } : { met: false, reason: `${what} is not one of the ${list.length} named` };
  switch (c.kind) {
    case 'amount': {
      if (s.amount === undefined || !s.currency) return { met: false, reason: 'it has no amount' };
      const want = `${OP_WORDS[c.op]} ${formatMoney(c.amount, c.currency)}`;
      if (s.currency !== c.currency) return { met: false, reason: `amount is in ${s.currency}, the condition in ${c.currency}` };
      const met = OPS[c.op](s.amount, c.amount);
      return { met, reason: `${formatMoney(s.amount, s.currency)} is ${met ? '' : 'not '}${want}` };
    }
    case 'merchant': {
      const m = s.merchant ? fold(s.merchant) : '';
      const v = fold(c.value);
      const met = m !== '' && (c.op === 'is' ? m === v : m.includes(v));
      const verb = c.op === 'is' ? (met ? 'matches' : 'does not match') : (met ? 'contains' : 'does not contain');
      return { met, reason: `merchant "${s.merchant ?? ''}" ${verb} "${c.value}"` };
    }
    case 'merchant_category': {
      const cat = s.merchant_category ? fold(s.merchant_category) : '';
      const met = cat !== '' && c.in.some((x) => fold(x) === cat);
      return { met, reason: `category ${s.merchant_category ?? '(none)'} is ${met ? '' : 'not '}one of ${c.in.join(', ')}` };
    }
    case 'department': return inList('department', c.in, s.department_id);
    case 'person': return inList('person', c.in, s.user_id);
    case 'vendor': return inList('vendor', c.in, s.vendor_id);
    case 'role': return inList('role', c.in, s.role);
    case 'policy_violation': {
      const hit = (s.violations ?? []).filter((v) => c.codes.includes(v));
      return hit.length > 0 ? { met: true, reason: `breaks the policy: ${hit.join(', ')}` } : { met: false, reason: `no violation among ${c.codes.join(', ')}` };
    }
  }
}

/** Which rule runs for one subject, and why each rule matched or not (every condition of a tried rule traced). */
export function evaluateWorkflow(w: Pick<Workflow, 'rules'>, s: WorkflowSubject): Evaluation {
  const traces: RuleTrace[] = [];
  for (const rule of w.rules) {
    const conditions = rule.conditions.map((c, index) => ({ index, kind: c.kind, ...checkCondition(c, s) }));
    const matched = conditions.every((c) => c.met);
    traces.push({ rule_id: rule.id, matched, conditions });
    if (matched) return { rule_id: rule.id, actions: rule.actions, rules: traces };
  }
  return { rule_id: null, actions: [], rules: traces };
}

// ---------------------------------------------------------------------------------------------
// Executions (the log's wire shape)

export const EXECUTION_STATUSES = ['SUCCEEDED', 'NO_MATCH', 'PARTIAL', 'FAILED'] as const;
export const actionResultSchema = z.object({
  kind: z.enum(['require_receipt', 'set_coding', 'add_approval_step', 'auto_approve', 'lock_card', 'notify', 'comment']),
  status: z.enum(['DONE', 'SKIPPED', 'FAILED']),
  /** What it did or why not, in words ("Locked card •••• 4242", "Not under $25.00: $30.00"). */
  detail: z.string(),
});
export type ActionResult = z.infer<typeof actionResultSchema>;

export const workflowExecutionSchema = z.object({
  id: z.uuid(),
  workflow_id: z.uuid(),
  workflow_version: z.number().int().positive(),
  trigger: workflowTriggerSchema,
  event_key: z.string(),
  object_type: z.string(),
  object_id: z.uuid(),
  /** The subject as the conditions read it. */
  inputs: z.record(z.string(), z.unknown()),
  rule_id: z.uuid().nullable(),
  rules: z.array(z.object({
    rule_id: z.uuid(), matched: z.boolean(),
    conditions: z.array(z.object({ index: z.number().int(), kind: z.string(), met: z.boolean(), reason: z.string() })),
  })),
  actions: z.array(actionResultSchema),
  status: z.enum(EXECUTION_STATUSES),
  /** Why the run stopped (the depth limit, an action's failure), else null. */
  error: z.string().nullable(),
  depth: z.number().int().positive(),
  created_at: z.iso.datetime({ offset: true }),
});
export type WorkflowExecution = z.infer<typeof workflowExecutionSchema>;

/** The run's status from its evaluation and its action results. */
export function executionStatus(e: Pick<Evaluation, 'rule_id'>, results: readonly ActionResult[], error: string | null): (typeof EXECUTION_STATUSES)[number] {
  if (error && results.every((r) => r.status !== 'DONE')) return 'FAILED';
  if (e.rule_id === null) return 'NO_MATCH';
  if (error || results.some((r) => r.status === 'FAILED')) return 'PARTIAL';
  return 'SUCCEEDED';
}
