import { TRIGGER_OBJECT, evaluateWorkflow, eventKey, executionStatus, type ActionResult, type Workflow, type WorkflowInput } from '../../schema/workflow.ts';
import type { Queryable } from '../db/db.ts';
import { loadSubjects } from '../domain/workflows/subjects.ts';
import { Rng } from './prng.ts';
import type { DemoData } from './types.ts';

/**
 * The demo's automation workflows (issue 29), so an admin's /workflows shows realistic ones with
 * runs in their log. All three are switched off, so no write of the demo or of a test that uses
 * it ever runs them (no behaviour changes): two were on for a while (their runs over the demo's
 * latest claims and card charges are in the log, evaluated by the real evaluator over the real
 * subjects, their notify actions recorded as the engine words them), then paused by the admin
 * (version 2); the third is a draft that never ran. Workflows are not mirrored: no change_seq.
 */
type DemoWorkflow = Omit<WorkflowInput, 'rules' | 'enabled'> & {
  key: string;
  /** The objects it ran on, newest first (empty: it never ran). */
  objects: string;
};

const ranOn = {
  claims: `SELECT id::text FROM reimbursements WHERE business_id = $1 AND status IN ('SUBMITTED', 'APPROVED', 'PAID') AND submitted_at IS NOT NULL
            AND NOT deleted ORDER BY submitted_at DESC, id LIMIT 8`,
  // The latest charges, with the latest flights among them (what the rule is about).
  charges: `(SELECT id::text, occurred_at FROM transactions WHERE business_id = $1 AND merchant_category = 'Airlines' ORDER BY occurred_at DESC, id LIMIT 3)
            UNION (SELECT id::text, occurred_at FROM transactions WHERE business_id = $1 ORDER BY occurred_at DESC, id LIMIT 6)`,
};

const DEMO_WORKFLOWS: readonly DemoWorkflow[] = [
  {
    key: 'large-claims', name: 'Large claims: tell the bookkeeper', trigger: 'claim.submitted',
    conditions: [{ kind: 'amount', op: 'gte', amount: 50_000, currency: 'USD' }],
    actions: [{ kind: 'notify', to: { kind: 'role', role: 'BUSINESS_BOOKKEEPER' }, message: 'A claim of $500.00 or more was submitted: check its receipt and coding before it is paid.' }],
    objects: ranOn.claims,
  },
  {
    key: 'flights', name: 'Flights: ask the traveller for the e-ticket', trigger: 'transaction.created',
    conditions: [{ kind: 'merchant_category', in: ['Airlines'] }],
    actions: [{ kind: 'notify', to: { kind: 'owner' }, message: 'Please add the e-ticket as the receipt and the trip’s purpose as the memo.' }],
    objects: ranOn.charges,
  },
  {
    key: 'software', name: 'Software over $200 needs a receipt', trigger: 'transaction.created',
    conditions: [{ kind: 'merchant_category', in: ['Software'] }, { kind: 'amount', op: 'gt', amount: 20_000, currency: 'USD' }],
    actions: [{ kind: 'require_receipt' }],
    objects: '',
  },
];

type Person = { id: string; role: string; name: string };

/** What the engine's notify action answers (domain/workflows/actions.ts), for a run of the past. */
function notified(w: DemoWorkflow, ownerId: string | null | undefined, people: readonly Person[]): ActionResult {
  const a = w.actions[0] as Extract<DemoWorkflow['actions'][number], { kind: 'notify' }>;
  const to = a.to.kind === 'role' ? people.filter((p) => p.role === (a.to as { role: string }).role) : people.filter((p) => p.id === ownerId);
  if (to.length === 0) return { kind: 'notify', status: 'SKIPPED', detail: 'No active person to notify.' };
  return { kind: 'notify', status: 'DONE', detail: `Emailed ${to.length === 1 ? to[0]!.name : `${to.length} people`}.` };
}

async function insertRuns(tx: Queryable, data: DemoData, w: DemoWorkflow, stored: Workflow, rng: Rng, people: readonly Person[]): Promise<string | null> {
  if (!w.objects) return null;
  const ids = (await tx.query<{ id: string }>(w.objects, [data.business.id])).map((r) => r.id);
  const subjects = await loadSubjects(tx, data.business.id, TRIGGER_OBJECT[w.trigger], ids);
  let last: string | null = null;
  for (const id of ids) {
    const loaded = subjects.get(id);
    if (!loaded) continue;
    const evaluation = evaluateWorkflow(stored, loaded.subject);
    const results = evaluation.actions.map(() => notified(w, loaded.subject.user_id, people));
    // The run a few seconds after its event (a claim's submission, a charge's time).
    const at = new Date(Date.parse(loaded.occurred_at) + 4_000).toISOString();
    await tx.query(
      `INSERT INTO workflow_executions (id, business_id, workflow_id, workflow_version, trigger, event_key, object_type, object_id, inputs, rule_id, rules,
                                        actions, status, error, depth, created_at)
       VALUES ($1, $2, $3, 1, $4, $5, $6, $7, $8::jsonb, $9, $10::jsonb, $11::jsonb, $12, NULL, 1, $13)`,
      [rng.uuid(), data.business.id, stored.id, w.trigger, eventKey(w.trigger, id, w.trigger === 'claim.submitted' ? loaded.occurrence : ''),
        loaded.subject.object_type, id, JSON.stringify(loaded.subject), evaluation.rule_id, JSON.stringify(evaluation.rules), JSON.stringify(results),
        executionStatus(evaluation, results, null), at],
    );
    if (!last || at > last) last = at;
  }
  return last;
}

/** The demo's workflows and their runs, written by the demo admin; none is on. */
export async function insertDemoWorkflows(tx: Queryable, data: DemoData): Promise<void> {
  const admin = data.accounts.find((a) => a.role === 'BUSINESS_ADMIN');
  if (!admin) return;
  const rng = new Rng(0, `${data.business.id}\u0000workflows`);
  const people = await tx.query<Person>(
    `SELECT id::text, role, trim(first_name || ' ' || last_name) AS name FROM spend_users WHERE business_id = $1 AND status = 'ACTIVE' AND NOT deleted`,
    [data.business.id],
  );
  const created = data.business.created_at;
  for (const w of DEMO_WORKFLOWS) {
    const id = rng.uuid();
    const rules = [{ id: rng.uuid(), conditions: w.conditions, actions: w.actions }];
    const stored = { id, rules } as Pick<Workflow, 'id' | 'rules'> as Workflow;
    const ran = w.objects !== '';
    await tx.query(
      `INSERT INTO workflows (id, business_id, name, trigger, rules, canvas, enabled, version, created_by, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5::jsonb, NULL, false, $6, $7, $8, $8)`,
      [id, data.business.id, w.name, w.trigger, JSON.stringify(rules), ran ? 2 : 1, admin.user_id, created],
    );
    await tx.query('INSERT INTO workflow_rules (id, business_id, workflow_id, position) VALUES ($1, $2, $3, 0)', [rules[0]!.id, data.business.id, id]);
    const lastRun = await insertRuns(tx, data, w, stored, rng, people);
    // Version 1 as made (on when it ran), version 2 the pause, just after its last run.
    const versions: [number, boolean, string][] = ran && lastRun ? [[1, true, created], [2, false, new Date(Date.parse(lastRun) + 60_000).toISOString()]] : [[1, false, created]];
    for (const [version, enabled, at] of versions) {
      await tx.query(
        'INSERT INTO workflow_versions (workflow_id, version, name, trigger, rules, enabled, saved_by, saved_at) VALUES ($1, $2, $3, $4, $5::jsonb, $6, $7, $8)',
        [id, version, w.name, w.trigger, JSON.stringify(rules), enabled, admin.user_id, at],
      );
    }
    const updated = versions.at(-1)![2];
    await tx.query('UPDATE workflows SET version = $2, updated_at = $3, last_run_at = $4 WHERE id = $1', [id, versions.length, updated, lastRun]);
  }
}
