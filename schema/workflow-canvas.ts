import { z } from 'zod';
import {
  MAX_RULE_ACTIONS, MAX_RULE_CONDITIONS, MAX_WORKFLOW_RULES, workflowActionSchema, workflowConditionSchema, workflowTriggerSchema,
  type Workflow, type WorkflowAction, type WorkflowCondition, type WorkflowTrigger,
} from './workflow.ts';

/**
 * Issue 29, the blank canvas: a workflow (schema/workflow.ts) drawn as a graph of nodes and edges,
 * saved through `/v1/auth/blank-canvas/workflows`. `workflowToCanvas` draws one; `canvasToWorkflow`
 * reads a drawn graph back, or says which node is wrong.
 */

const point = z.object({ x: z.number().finite().min(-100_000).max(100_000), y: z.number().finite().min(-100_000).max(100_000) });
export const canvasNodeSchema = z.discriminatedUnion('type', [
  z.object({ id: z.string().min(1).max(64), type: z.literal('trigger'), trigger: workflowTriggerSchema, position: point }),
  /** A rule's conditions (all must hold; none: always). */
  z.object({ id: z.string().min(1).max(64), type: z.literal('rule'), rule_id: z.uuid().optional(), conditions: z.array(workflowConditionSchema).max(MAX_RULE_CONDITIONS), position: point }),
  z.object({ id: z.string().min(1).max(64), type: z.literal('action'), action: workflowActionSchema, position: point }),
]);
export type CanvasNode = z.infer<typeof canvasNodeSchema>;
export const canvasEdgeSchema = z.object({ from: z.string().min(1).max(64), to: z.string().min(1).max(64) });
export const canvasSchema = z.object({
  nodes: z.array(canvasNodeSchema).min(1).max(1 + MAX_WORKFLOW_RULES * (1 + MAX_RULE_ACTIONS)),
  edges: z.array(canvasEdgeSchema).max(MAX_WORKFLOW_RULES * (1 + MAX_RULE_ACTIONS) * 2),
});
export type Canvas = z.infer<typeof canvasSchema>;

/**
 * The graph a workflow is drawn as: the trigger on the left, its rules top to bottom in order
 * (edges trigger → rule, and rule → next rule for "else"), each rule's actions in a chain to its right.
 */
export function workflowToCanvas(w: Pick<Workflow, 'trigger' | 'rules'>): Canvas {
  const nodes: CanvasNode[] = [{ id: 'trigger', type: 'trigger', trigger: w.trigger, position: { x: 0, y: 0 } }];
  const edges: Canvas['edges'] = [];
  w.rules.forEach((r, ri) => {
    const ruleNode = `rule-${ri + 1}`;
    nodes.push({ id: ruleNode, type: 'rule', rule_id: r.id, conditions: r.conditions, position: { x: 280, y: ri * 200 } });
    edges.push({ from: ri === 0 ? 'trigger' : `rule-${ri}`, to: ruleNode });
    let prev = ruleNode;
    r.actions.forEach((a, ai) => {
      const id = `action-${ri + 1}-${ai + 1}`;
      nodes.push({ id, type: 'action', action: a, position: { x: 560 + ai * 260, y: ri * 200 } });
      edges.push({ from: prev, to: id });
      prev = id;
    });
  });
  return { nodes, edges };
}

export type CanvasResult =
  | { ok: true; trigger: WorkflowTrigger; rules: { id?: string; conditions: WorkflowCondition[]; actions: WorkflowAction[] }[] }
  | { ok: false; problems: Record<string, string> };

/**
 * Reads a drawn graph back into a trigger and its ordered rules. The shape it accepts is the one
 * `workflowToCanvas` draws: one trigger; from it one rule; from each rule at most one next rule
 * ("else") and at most one chain of actions; no cycles, no node left unconnected. Problems are
 * keyed by node id (`nodes.<id>`) so the canvas marks the node.
 */
export function canvasToWorkflow(c: Canvas): CanvasResult {
  const problems: Record<string, string> = {};
  const byId = new Map(c.nodes.map((n) => [n.id, n]));
  if (byId.size !== c.nodes.length) problems.nodes = 'Two nodes share an id.';
  const triggers = c.nodes.filter((n) => n.type === 'trigger');
  if (triggers.length !== 1) return { ok: false, problems: { ...problems, nodes: 'A workflow starts from exactly one trigger.' } };
  const out = new Map<string, string[]>();
  const inbound = new Map<string, number>();
  for (const e of c.edges) {
    if (!byId.has(e.from) || !byId.has(e.to)) { problems.edges = 'An edge names a node that is not on the canvas.'; continue; }
    out.set(e.from, [...(out.get(e.from) ?? []), e.to]);
    inbound.set(e.to, (inbound.get(e.to) ?? 0) + 1);
  }
  for (const n of c.nodes) if ((inbound.get(n.id) ?? 0) > 1) problems[`nodes.${n.id}`] = 'Only one arrow may lead into a step.';
  const trigger = triggers[0] as Extract<CanvasNode, { type: 'trigger' }>;
  const rules: { id?: string; conditions: WorkflowCondition[]; actions: WorkflowAction[] }[] = [];
  const visited = new Set<string>([trigger.id]);
  const fromTrigger = out.get(trigger.id) ?? [];
  if (fromTrigger.length !== 1 || byId.get(fromTrigger[0]!)?.type !== 'rule') {
    problems[`nodes.${trigger.id}`] = 'Connect the trigger to one condition step.';
  }
  let ruleId: string | undefined = fromTrigger.length === 1 && byId.get(fromTrigger[0]!)?.type === 'rule' ? fromTrigger[0] : undefined;
  while (ruleId) {
    if (visited.has(ruleId)) { problems[`nodes.${ruleId}`] = 'The steps loop back on themselves.'; break; }
    visited.add(ruleId);
    const rule = byId.get(ruleId) as Extract<CanvasNode, { type: 'rule' }>;
    const next = out.get(ruleId) ?? [];
    const nextRules = next.filter((id) => byId.get(id)?.type === 'rule');
    const nextActions = next.filter((id) => byId.get(id)?.type === 'action');
    if (nextRules.length > 1) problems[`nodes.${ruleId}`] = 'A condition step has at most one "otherwise" step.';
    if (nextActions.length !== 1) problems[`nodes.${ruleId}`] = 'Connect each condition step to the first of its actions.';
    const actions: WorkflowAction[] = [];
    let a: string | undefined = nextActions[0];
    while (a) {
      if (visited.has(a)) { problems[`nodes.${a}`] = 'The steps loop back on themselves.'; break; }
      visited.add(a);
      actions.push((byId.get(a) as Extract<CanvasNode, { type: 'action' }>).action);
      const after = out.get(a) ?? [];
      if (after.length > 1 || (after[0] && byId.get(after[0])?.type !== 'action')) { problems[`nodes.${a}`] = 'An action leads to at most one next action.'; break; }
      a = after[0];
    }
    rules.push({ ...(rule.rule_id ? { id: rule.rule_id } : {}), conditions: rule.conditions, actions });
    ruleId = nextRules[0];
  }
  for (const n of c.nodes) if (!visited.has(n.id)) problems[`nodes.${n.id}`] = 'This step is not connected to the workflow.';
  if (rules.length > MAX_WORKFLOW_RULES) problems.nodes = `A workflow has at most ${MAX_WORKFLOW_RULES} condition steps.`;
  if (Object.keys(problems).length > 0) return { ok: false, problems };
  return { ok: true, trigger: trigger.trigger, rules };
}
