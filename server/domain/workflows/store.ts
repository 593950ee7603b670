import { randomUUID } from 'node:crypto';
import type { WorkflowPatch } from '../../../schema/api/calls-workflows.ts';
import { canvasToWorkflow, workflowToCanvas, type Canvas } from '../../../schema/workflow-canvas.ts';
import {
  findLoop, MAX_WORKFLOW_RULES, MAX_WORKFLOWS, workflowProblems,
  type Workflow, type WorkflowAction, type WorkflowCondition, type WorkflowInput, type WorkflowRule, type WorkflowTrigger,
} from '../../../schema/workflow.ts';
import { ApiError, validationError } from '../../core/errors.ts';
import type { Queryable } from '../../db/db.ts';

/**
 * Workflows in storage (issue 29). A save is checked before it is written: steps that do not fit
 * the trigger (422 WORKFLOW_7002, by field), ids that are not live rows of the business (404, so
 * another business's ids look unknown), and loops through the business's other enabled workflows
 * (422 WORKFLOW_7001 naming the chain). Writers lock the business row first, as every writer of the
 * business does, so two saves cannot both pass the loop check against each other's old state.
 */

type Row = {
  id: string; name: string; trigger: WorkflowTrigger; rules: WorkflowRule[]; canvas: Canvas | null; enabled: boolean; version: number;
  created_by: string; created_at: string; updated_at: string; last_run_at: string | null;
};
export type StoredWorkflow = { workflow: Workflow; canvas: Canvas };

const COLS = `id::text, name, trigger, rules, canvas, enabled, version, created_by::text,
  to_jsonb(created_at) #>> '{}' AS created_at, to_jsonb(updated_at) #>> '{}' AS updated_at, to_jsonb(last_run_at) #>> '{}' AS last_run_at`;

const iso = (s: string) => new Date(s).toISOString();

export function toWorkflow(r: Row): Workflow {
  return {
    id: r.id, name: r.name, trigger: r.trigger, conditions: r.rules[0]!.conditions, actions: r.rules[0]!.actions, rules: r.rules,
    enabled: r.enabled, version: r.version, created_by: r.created_by, created_at: iso(r.created_at), updated_at: iso(r.updated_at),
    last_run_at: r.last_run_at ? iso(r.last_run_at) : null,
  };
}

/** The canvas as last drawn when it still draws this version's rules, else the rules laid out afresh. */
function canvasOf(r: Row): Canvas {
  if (r.canvas) {
    const read = canvasToWorkflow(r.canvas);
    if (read.ok && read.trigger === r.trigger && JSON.stringify(read.rules.map((x) => x.id)) === JSON.stringify(r.rules.map((x) => x.id))) return r.canvas;
  }
  return workflowToCanvas(r);
}

const stored = (r: Row): StoredWorkflow => ({ workflow: toWorkflow(r), canvas: canvasOf(r) });

export async function listWorkflows(db: Queryable, businessId: string, trigger?: WorkflowTrigger): Promise<StoredWorkflow[]> {
  const rows = await db.query<Row>(
    `SELECT ${COLS} FROM workflows WHERE business_id = $1 AND NOT deleted AND ($2::text IS NULL OR trigger = $2) ORDER BY created_at, id`,
    [businessId, trigger ?? null],
  );
  return rows.map(stored);
}

/** A live workflow of the business, else 404 (another business's id included). */
export async function findWorkflow(db: Queryable, businessId: string, id: string, lock = false): Promise<StoredWorkflow & { row: Row }> {
  const [row] = await db.query<Row>(
    `SELECT ${COLS} FROM workflows WHERE business_id = $1 AND id = $2 AND NOT deleted${lock ? ' FOR UPDATE' : ''}`, [businessId, id],
  );
  if (!row) throw new ApiError('REQUEST_7004', 'This workflow was not found.');
  return { ...stored(row), row };
}

/** The enabled workflows of a trigger, oldest first (the engine's one read per event). */
export async function enabledWorkflows(db: Queryable, businessId: string, trigger: WorkflowTrigger): Promise<Workflow[]> {
  const rows = await db.query<Row>(
    `SELECT ${COLS} FROM workflows WHERE business_id = $1 AND trigger = $2 AND enabled AND NOT deleted ORDER BY created_at, id`,
    [businessId, trigger],
  );
  return rows.map(toWorkflow);
}

const lockBusiness = (tx: Queryable, businessId: string) => tx.query('SELECT 1 FROM businesses WHERE id = $1 FOR UPDATE', [businessId]);

type Draft = { name: string; trigger: WorkflowTrigger; enabled: boolean; rules: { id?: string | undefined; conditions: WorkflowCondition[]; actions: WorkflowAction[] }[] };

/** The create body's first rule plus its else-if branches. */
export const draftOf = (b: WorkflowInput): Draft => ({
  name: b.name, trigger: b.trigger, enabled: b.enabled,
  rules: [{ conditions: b.conditions, actions: b.actions }, ...(b.rules ?? [])],
});

/** Every uuid a workflow's steps name, by the table that must hold it as a live row of the business. */
function referencedIds(rules: Draft['rules']) {
  const refs = { spend_users: [] as string[], departments: [] as string[], vendors: [] as string[], gl_accounts: [] as string[], locations: [] as string[] };
  for (const r of rules) {
    for (const c of r.conditions) {
      if (c.kind === 'department') refs.departments.push(...c.in);
      if (c.kind === 'person') refs.spend_users.push(...c.in);
      if (c.kind === 'vendor') refs.vendors.push(...c.in);
    }
    for (const a of r.actions) {
      if (a.kind === 'notify' && a.to.kind === 'user') refs.spend_users.push(a.to.user_id);
      if (a.kind === 'set_coding') {
        if (a.gl_account_id) refs.gl_accounts.push(a.gl_account_id);
        if (a.department_id) refs.departments.push(a.department_id);
        if (a.location_id) refs.locations.push(a.location_id);
      }
      if (a.kind === 'add_approval_step') {
        const spec = a.approvers as { kind: string; user_id?: string; user_ids?: string[] };
        if (spec.user_id) refs.spend_users.push(spec.user_id);
        if (spec.user_ids) refs.spend_users.push(...spec.user_ids);
      }
    }
  }
  return refs;
}

const WHAT: Record<keyof ReturnType<typeof referencedIds>, string> = {
  spend_users: 'person', departments: 'department', vendors: 'vendor', gl_accounts: 'GL account', locations: 'location',
};

async function assertReferences(db: Queryable, businessId: string, rules: Draft['rules']): Promise<void> {
  for (const [table, ids] of Object.entries(referencedIds(rules)) as [keyof typeof WHAT, string[]][]) {
    const unique = [...new Set(ids)];
    if (unique.length === 0) continue;
    const [row] = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM ${table} WHERE business_id = $1 AND id = ANY($2::uuid[]) AND NOT deleted`, [businessId, unique],
    );
    if (Number(row?.n ?? 0) !== unique.length) throw new ApiError('REQUEST_7004', `A ${WHAT[table]} this workflow names was not found.`);
  }
}

/** Rule ids: kept when sent (unique, and not another workflow's), new ones otherwise. */
async function nameRules(db: Queryable, businessId: string, workflowId: string, rules: Draft['rules']): Promise<WorkflowRule[]> {
  const named = rules.map((r) => ({ id: r.id ?? randomUUID(), conditions: r.conditions, actions: r.actions }));
  const seen = new Set<string>();
  named.forEach((r, i) => {
    if (seen.has(r.id)) throw validationError({ [i === 0 ? 'id' : `rules.${i - 1}.id`]: 'Two rules share this id.' });
    seen.add(r.id);
  });
  const taken = await db.query<{ id: string }>(
    'SELECT id::text FROM workflow_rules WHERE id = ANY($1::uuid[]) AND (business_id <> $2 OR workflow_id <> $3)', [[...seen], businessId, workflowId],
  );
  if (taken.length > 0) throw new ApiError('REQUEST_7004', 'A rule this workflow names was not found.');
  return named;
}

async function checkDraft(tx: Queryable, businessId: string, id: string, d: Draft): Promise<WorkflowRule[]> {
  if (d.rules.length > MAX_WORKFLOW_RULES) throw validationError({ rules: `A workflow has at most ${MAX_WORKFLOW_RULES} rules.` });
  const problems = workflowProblems(d.trigger, d.rules);
  if (Object.keys(problems).length > 0) throw new ApiError('WORKFLOW_7002', undefined, problems);
  await assertReferences(tx, businessId, d.rules);
  const rules = await nameRules(tx, businessId, id, d.rules);
  if (d.enabled) {
    const others = (await tx.query<Row>(`SELECT ${COLS} FROM workflows WHERE business_id = $1 AND enabled AND NOT deleted AND id <> $2`, [businessId, id]));
    const loop = findLoop({ id, name: d.name, trigger: d.trigger, enabled: true, rules }, others);
    if (loop) {
      throw new ApiError('WORKFLOW_7001', `This workflow would trigger itself: ${[...loop, loop[0]].join(' → ')}. Change the trigger or the actions.`, { actions: loop.join(' → ') });
    }
  }
  return rules;
}

async function writeRules(tx: Queryable, businessId: string, id: string, rules: WorkflowRule[]) {
  await tx.query('DELETE FROM workflow_rules WHERE workflow_id = $1', [id]);
  await tx.query(
    `INSERT INTO workflow_rules (id, business_id, workflow_id, position) SELECT r, $2, $3, o - 1 FROM unnest($1::uuid[]) WITH ORDINALITY AS u(r, o)`,
    [rules.map((r) => r.id), businessId, id],
  );
}

async function writeVersion(tx: Queryable, row: Row, userId: string) {
  await tx.query(
    'INSERT INTO workflow_versions (workflow_id, version, name, trigger, rules, enabled, saved_by, saved_at) VALUES ($1, $2, $3, $4, $5::jsonb, $6, $7, $8)',
    [row.id, row.version, row.name, row.trigger, JSON.stringify(row.rules), row.enabled, userId, row.updated_at],
  );
}

/** A new workflow (201), as version 1. */
export async function createWorkflow(tx: Queryable, businessId: string, userId: string, d: Draft, now: Date, canvas: Canvas | null = null): Promise<StoredWorkflow> {
  await lockBusiness(tx, businessId);
  const [count] = await tx.query<{ n: number }>('SELECT count(*)::int AS n FROM workflows WHERE business_id = $1 AND NOT deleted', [businessId]);
  if (Number(count?.n ?? 0) >= MAX_WORKFLOWS) throw new ApiError('WORKFLOW_7005');
  const id = randomUUID();
  const rules = await checkDraft(tx, businessId, id, d);
  const [row] = await tx.query<Row>(
    `INSERT INTO workflows (id, business_id, name, trigger, rules, canvas, enabled, version, created_by, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5::jsonb, $6::jsonb, $7, 1, $8, $9, $9) RETURNING ${COLS}`,
    [id, businessId, d.name, d.trigger, JSON.stringify(rules), canvas ? JSON.stringify(canvas) : null, d.enabled, userId, now.toISOString()],
  );
  await writeRules(tx, businessId, id, rules);
  await writeVersion(tx, row!, userId);
  return stored(row!);
}

/** The next version of a workflow: what `d` says replaces the stored one. */
export async function replaceWorkflow(tx: Queryable, businessId: string, userId: string, id: string, d: Draft, now: Date, canvas: Canvas | null = null): Promise<StoredWorkflow> {
  await lockBusiness(tx, businessId);
  await findWorkflow(tx, businessId, id, true);
  const rules = await checkDraft(tx, businessId, id, d);
  const [row] = await tx.query<Row>(
    `UPDATE workflows SET name = $3, trigger = $4, rules = $5::jsonb, canvas = $6::jsonb, enabled = $7, version = version + 1, updated_at = $8
      WHERE business_id = $1 AND id = $2 RETURNING ${COLS}`,
    [businessId, id, d.name, d.trigger, JSON.stringify(rules), canvas ? JSON.stringify(canvas) : null, d.enabled, now.toISOString()],
  );
  await writeRules(tx, businessId, id, rules);
  await writeVersion(tx, row!, userId);
  return stored(row!);
}

/** PATCH: `conditions`/`actions` replace the first rule's (its id kept), `rules` the others'. */
export async function patchWorkflow(tx: Queryable, businessId: string, userId: string, id: string, p: WorkflowPatch, now: Date): Promise<StoredWorkflow> {
  const { workflow: w } = await findWorkflow(tx, businessId, id);
  const first = { id: w.rules[0]!.id, conditions: p.conditions ?? w.rules[0]!.conditions, actions: p.actions ?? w.rules[0]!.actions };
  const rest = p.rules ?? w.rules.slice(1);
  return replaceWorkflow(tx, businessId, userId, id, {
    name: p.name ?? w.name, trigger: p.trigger ?? w.trigger, enabled: p.enabled ?? w.enabled, rules: [first, ...rest],
  }, now);
}

/** §7 DELETE: it stops running at once; its executions stay readable. */
export async function deleteWorkflow(tx: Queryable, businessId: string, id: string, now: Date) {
  await lockBusiness(tx, businessId);
  await findWorkflow(tx, businessId, id, true);
  await tx.query('UPDATE workflows SET deleted = true, enabled = false, updated_at = $3 WHERE business_id = $1 AND id = $2', [businessId, id, now.toISOString()]);
  await tx.query('DELETE FROM workflow_rules WHERE workflow_id = $1', [id]);
  return { id, deleted: true as const };
}

async function workflowOfRule(db: Queryable, businessId: string, ruleId: string): Promise<string> {
  const [r] = await db.query<{ workflow_id: string }>('SELECT workflow_id::text FROM workflow_rules WHERE business_id = $1 AND id = $2', [businessId, ruleId]);
  if (!r) throw new ApiError('REQUEST_7004', 'This rule was not found.');
  return r.workflow_id;
}

/** PUT rules/{id}: the rule's conditions and actions, as the workflow's next version. */
export async function putRule(tx: Queryable, businessId: string, userId: string, ruleId: string, body: Pick<WorkflowRule, 'conditions' | 'actions'>, now: Date) {
  const { workflow: w } = await findWorkflow(tx, businessId, await workflowOfRule(tx, businessId, ruleId));
  const rules = w.rules.map((r) => (r.id === ruleId ? { id: r.id, ...body } : r));
  return replaceWorkflow(tx, businessId, userId, w.id, { name: w.name, trigger: w.trigger, enabled: w.enabled, rules }, now);
}

/** DELETE rules/{id}: the last rule stays (WORKFLOW_7004: delete the workflow instead). */
export async function deleteRule(tx: Queryable, businessId: string, userId: string, ruleId: string, now: Date) {
  const { workflow: w } = await findWorkflow(tx, businessId, await workflowOfRule(tx, businessId, ruleId));
  if (w.rules.length === 1) throw new ApiError('WORKFLOW_7004');
  const rules = w.rules.filter((r) => r.id !== ruleId);
  return replaceWorkflow(tx, businessId, userId, w.id, { name: w.name, trigger: w.trigger, enabled: w.enabled, rules }, now);
}

/** The blank canvas's save: the graph read back into rules (422 WORKFLOW_7006 by node), positions kept. */
export async function saveCanvas(tx: Queryable, businessId: string, userId: string, body: { id?: string | undefined; name: string; enabled: boolean; canvas: Canvas }, now: Date) {
  const read = canvasToWorkflow(body.canvas);
  if (!read.ok) throw new ApiError('WORKFLOW_7006', undefined, read.problems);
  const d: Draft = { name: body.name, enabled: body.enabled, trigger: read.trigger, rules: read.rules };
  const saved = body.id ? await replaceWorkflow(tx, businessId, userId, body.id, d, now, body.canvas) : await createWorkflow(tx, businessId, userId, d, now, body.canvas);
  // Rules drawn without an id got one on save: the stored canvas names them so the next read keeps the drawing.
  const rules = saved.workflow.rules;
  let i = 0;
  const canvas: Canvas = {
    edges: body.canvas.edges,
    nodes: body.canvas.nodes.map((n) => n), // positions as drawn
  };
  const ruleNodes = orderedRuleNodes(body.canvas);
  canvas.nodes = canvas.nodes.map((n) => (n.type === 'rule' ? { ...n, rule_id: rules[ruleNodes.indexOf(n.id)]?.id ?? rules[i++]!.id } : n));
  await tx.query('UPDATE workflows SET canvas = $3::jsonb WHERE business_id = $1 AND id = $2', [businessId, saved.workflow.id, JSON.stringify(canvas)]);
  return { workflow: saved.workflow, canvas };
}

/** Rule node ids in the order the chain reads them (trigger → rule → next rule …). */
function orderedRuleNodes(c: Canvas): string[] {
  const kind = new Map(c.nodes.map((n) => [n.id, n.type]));
  const trigger = c.nodes.find((n) => n.type === 'trigger')!.id;
  const out: string[] = [];
  let at: string | undefined = c.edges.find((e) => e.from === trigger && kind.get(e.to) === 'rule')?.to;
  while (at && !out.includes(at)) {
    out.push(at);
    const from: string = at;
    at = c.edges.find((e) => e.from === from && kind.get(e.to) === 'rule')?.to;
  }
  return out;
}
