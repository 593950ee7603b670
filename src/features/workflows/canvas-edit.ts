import { canvasToWorkflow, type Canvas, type CanvasNode } from '../../../schema/workflow-canvas.ts';
import { workflowProblems } from '../../../schema/workflow.ts';

/**
 * The blank canvas's edits (issue 29), pure: move, connect, add and remove nodes and edges of a
 * workflow's graph (schema/workflow-canvas.ts), and the problems to mark on nodes before saving —
 * `canvasToWorkflow`'s (how the graph reads) and then `workflowProblems`' (what the trigger cannot
 * use), both keyed by node id. The view (canvas-view.tsx) only draws and calls these.
 */

export const NODE_W = 220;
export const NODE_H = 84;
/** Arrow keys move a selected node by this much (Shift: ×4). */
export const NUDGE = 20;
const LIMIT = 100_000;

export type Point = { x: number; y: number };
type NewNode = CanvasNode extends infer N ? (N extends CanvasNode ? Omit<N, 'id' | 'position'> : never) : never;

const clamp = (v: number) => Math.max(-LIMIT, Math.min(LIMIT, Math.round(v)));

export function moveNode(c: Canvas, id: string, to: Point): Canvas {
  return { ...c, nodes: c.nodes.map((n) => (n.id === id ? { ...n, position: { x: clamp(to.x), y: clamp(to.y) } } : n)) };
}

export function nudgeNode(c: Canvas, id: string, dx: number, dy: number): Canvas {
  const n = c.nodes.find((x) => x.id === id);
  return n ? moveNode(c, id, { x: n.position.x + dx, y: n.position.y + dy }) : c;
}

/** Why an arrow from → to cannot be drawn, or null. */
export function connectRefusal(c: Canvas, from: string, to: string): string | null {
  const a = c.nodes.find((n) => n.id === from);
  const b = c.nodes.find((n) => n.id === to);
  if (!a || !b) return 'That step is not on the canvas.';
  if (from === to) return 'A step cannot lead to itself.';
  if (b.type === 'trigger') return 'Nothing leads into the trigger: it is where the workflow starts.';
  if (a.type === 'action' && b.type === 'rule') return 'An action leads only to the next action.';
  if (c.edges.some((e) => e.from === from && e.to === to)) return 'These steps are already connected.';
  return null;
}

export function connect(c: Canvas, from: string, to: string): Canvas {
  return connectRefusal(c, from, to) ? c : { ...c, edges: [...c.edges, { from, to }] };
}

export function removeEdge(c: Canvas, from: string, to: string): Canvas {
  return { ...c, edges: c.edges.filter((e) => !(e.from === from && e.to === to)) };
}

/** The trigger stays (a workflow starts from exactly one). */
export function removeNode(c: Canvas, id: string): Canvas {
  if (c.nodes.find((n) => n.id === id)?.type === 'trigger') return c;
  return { nodes: c.nodes.filter((n) => n.id !== id), edges: c.edges.filter((e) => e.from !== id && e.to !== id) };
}

/** A free id of the node's type ("rule-3", "action-7"). */
function freeId(c: Canvas, type: CanvasNode['type']): string {
  const taken = new Set(c.nodes.map((n) => n.id));
  for (let i = 1; ; i++) if (!taken.has(`${type}-${i}`)) return `${type}-${i}`;
}

/** Adds a node below everything else (so it never covers one) and answers its id. */
export function addNode(c: Canvas, node: NewNode, near?: Point): { canvas: Canvas; id: string } {
  const id = freeId(c, node.type);
  const bottom = c.nodes.reduce((m, n) => Math.max(m, n.position.y), -Infinity);
  const position = near ?? { x: node.type === 'rule' ? 280 : 560, y: Number.isFinite(bottom) ? bottom + NODE_H + 60 : 0 };
  return { canvas: { ...c, nodes: [...c.nodes, { ...node, id, position } as CanvasNode] }, id };
}

export function replaceNode(c: Canvas, id: string, next: CanvasNode): Canvas {
  return { ...c, nodes: c.nodes.map((n) => (n.id === id ? next : n)) };
}

/** A drawn workflow whose node ids match keeps the positions the person gave them. */
export function keepPositions(next: Canvas, previous: Canvas | null): Canvas {
  if (!previous) return next;
  const at = new Map(previous.nodes.map((n) => [n.id, n.position]));
  return { ...next, nodes: next.nodes.map((n) => ({ ...n, position: at.get(n.id) ?? n.position })) };
}

/**
 * What is wrong with the graph, by node id (`nodes.<id>`) or for the whole (`nodes`, `edges`):
 * first how it reads, then what its trigger cannot use (mapped back to the rule or action node).
 */
export function canvasProblems(c: Canvas): Record<string, string> {
  const read = canvasToWorkflow(c);
  if (!read.ok) return read.problems;
  const out: Record<string, string> = {};
  const misfits = workflowProblems(read.trigger, read.rules);
  if (Object.keys(misfits).length === 0) return out;
  const ruleNodes = ruleNodeOrder(c);
  for (const [path, message] of Object.entries(misfits)) {
    const m = /^(?:rules\.(\d+)\.)?(conditions|actions)\.(\d+)/.exec(path);
    const ri = m?.[1] === undefined ? 0 : Number(m[1]) + 1;
    const chain = ruleNodes[ri];
    const id = m?.[2] === 'actions' ? chain?.actions[Number(m[3])] : chain?.rule;
    out[id ? `nodes.${id}` : 'nodes'] = message;
  }
  return out;
}

/** The rule nodes in order from the trigger, each with its chain of action node ids (a graph that reads). */
export function ruleNodeOrder(c: Canvas): { rule: string; actions: string[] }[] {
  const byId = new Map(c.nodes.map((n) => [n.id, n]));
  const next = (id: string) => c.edges.filter((e) => e.from === id).map((e) => e.to);
  const trigger = c.nodes.find((n) => n.type === 'trigger');
  const out: { rule: string; actions: string[] }[] = [];
  const seen = new Set<string>();
  let rule = trigger ? next(trigger.id).find((id) => byId.get(id)?.type === 'rule') : undefined;
  while (rule && !seen.has(rule)) {
    seen.add(rule);
    const actions: string[] = [];
    let a = next(rule).find((id) => byId.get(id)?.type === 'action');
    while (a && !seen.has(a)) {
      seen.add(a);
      actions.push(a);
      a = next(a).find((id) => byId.get(id)?.type === 'action');
    }
    out.push({ rule, actions });
    rule = next(rule).find((id) => byId.get(id)?.type === 'rule');
  }
  return out;
}

/** The server's field errors of a save (`nodes.<id>`, or a rule's path) as node marks. */
export function serverMarks(c: Canvas, errors: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  const order = ruleNodeOrder(c);
  for (const [path, message] of Object.entries(errors)) {
    if (path.startsWith('nodes.') || path === 'nodes' || path === 'edges') { out[path] = message; continue; }
    const m = /^(?:rules\.(\d+)\.)?(conditions|actions)\.(\d+)/.exec(path);
    if (!m) { out.nodes = message; continue; }
    const chain = order[m[1] === undefined ? 0 : Number(m[1]) + 1];
    const id = m[2] === 'actions' ? chain?.actions[Number(m[3])] : chain?.rule;
    out[id ? `nodes.${id}` : 'nodes'] = message;
  }
  return out;
}

/** The drawing's extent, with room to drag past the last node. */
export function canvasSize(c: Canvas): { minX: number; minY: number; width: number; height: number } {
  const xs = c.nodes.map((n) => n.position.x);
  const ys = c.nodes.map((n) => n.position.y);
  const minX = Math.min(0, ...xs) - 40;
  const minY = Math.min(0, ...ys) - 40;
  return { minX, minY, width: Math.max(...xs, 0) - minX + NODE_W + 240, height: Math.max(...ys, 0) - minY + NODE_H + 200 };
}
