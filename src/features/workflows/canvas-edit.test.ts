import { describe, expect, it } from 'vitest';
import { canvasToWorkflow, workflowToCanvas } from '../../../schema/workflow-canvas.ts';
import type { WorkflowRule } from '../../../schema/workflow.ts';
import { addNode, canvasProblems, connect, connectRefusal, keepPositions, moveNode, nudgeNode, removeEdge, removeNode, serverMarks } from './canvas-edit.ts';

const rules: WorkflowRule[] = [
  { id: '00000000-0000-4000-8000-0000000000a1', conditions: [{ kind: 'amount', op: 'lt', amount: 2500, currency: 'USD' }], actions: [{ kind: 'auto_approve', under: { amount: 2500, currency: 'USD' } }] },
  { id: '00000000-0000-4000-8000-0000000000a2', conditions: [], actions: [{ kind: 'notify', to: { kind: 'owner' }, message: 'Needs review' }, { kind: 'comment', text: 'Checked' }] },
];
const drawn = () => workflowToCanvas({ trigger: 'claim.submitted', rules });

describe('canvas edits', () => {
  it('a drawn workflow has no problems and reads back as itself', () => {
    expect(canvasProblems(drawn())).toEqual({});
    expect(canvasToWorkflow(drawn())).toMatchObject({ ok: true, rules });
  });

  it('moves and nudges a node, nothing else', () => {
    const c = nudgeNode(moveNode(drawn(), 'rule-1', { x: 300.4, y: 10 }), 'rule-1', 20, -20);
    expect(c.nodes.find((n) => n.id === 'rule-1')!.position).toEqual({ x: 320, y: -10 });
    expect(c.nodes.find((n) => n.id === 'trigger')!.position).toEqual({ x: 0, y: 0 });
  });

  it.each([
    ['itself', 'rule-1', 'rule-1', 'A step cannot lead to itself.'],
    ['the trigger', 'rule-1', 'trigger', 'Nothing leads into the trigger: it is where the workflow starts.'],
    ['a rule from an action', 'action-1-1', 'rule-2', 'An action leads only to the next action.'],
    ['an existing arrow', 'trigger', 'rule-1', 'These steps are already connected.'],
  ])('refuses an arrow into %s', (_w, from, to, why) => {
    expect(connectRefusal(drawn(), from, to)).toBe(why);
    expect(connect(drawn(), from, to)).toEqual(drawn());
  });

  it('a removed action leaves its neighbours unconnected, marked; reconnecting fixes it', () => {
    const c = removeNode(drawn(), 'action-2-1');
    expect(c.edges.some((e) => e.from === 'action-2-1' || e.to === 'action-2-1')).toBe(false);
    expect(canvasProblems(c)).toEqual({
      'nodes.rule-2': 'Connect each condition step to the first of its actions.',
      'nodes.action-2-2': 'This step is not connected to the workflow.',
    });
    const fixed = connect(c, 'rule-2', 'action-2-2');
    expect(canvasToWorkflow(fixed)).toMatchObject({ ok: true, rules: [rules[0], { ...rules[1], actions: [rules[1]!.actions[1]] }] });
  });

  it('the trigger cannot be removed; an edge can', () => {
    expect(removeNode(drawn(), 'trigger')).toEqual(drawn());
    expect(canvasProblems(removeEdge(drawn(), 'trigger', 'rule-1'))['nodes.trigger']).toBe('Connect the trigger to one condition step.');
  });

  it('marks an action the trigger cannot use on its node', () => {
    const { canvas, id } = addNode(drawn(), { type: 'action', action: { kind: 'lock_card' } });
    expect(id).toBe('action-1');
    const c = connect(canvas, 'action-2-2', id);
    expect(canvasProblems(c)).toEqual({ [`nodes.${id}`]: 'Lock the card cannot follow "A claim is submitted".' });
  });

  it('puts the server’s rule paths on the nodes', () => {
    expect(serverMarks(drawn(), { 'rules.0.actions.1': 'No.', 'conditions.0': 'Nope.', 'nodes.rule-2': 'Bad.', other: 'Whole.' })).toEqual({
      'nodes.action-2-2': 'No.', 'nodes.rule-1': 'Nope.', 'nodes.rule-2': 'Bad.', nodes: 'Whole.',
    });
  });

  it('a redrawn workflow keeps the positions of the nodes it still has', () => {
    const moved = moveNode(drawn(), 'action-2-2', { x: 900, y: 900 });
    const again = keepPositions(workflowToCanvas({ trigger: 'claim.submitted', rules }), moved);
    expect(again.nodes.find((n) => n.id === 'action-2-2')!.position).toEqual({ x: 900, y: 900 });
  });
});
