import { describe, expect, it } from 'vitest';
import { evaluateWorkflow, executionStatus, findLoop, workflowProblems, type WorkflowCondition, type WorkflowRule, type WorkflowSubject } from './workflow.ts';
import { canvasToWorkflow, workflowToCanvas } from './workflow-canvas.ts';

const R1 = '00000000-0000-4000-8000-000000000101';
const R2 = '00000000-0000-4000-8000-000000000102';
const U = '00000000-0000-4000-8000-0000000000aa';
const GL = '00000000-0000-4000-8000-0000000000bb';

const claim = (amount: number, extra: Partial<WorkflowSubject> = {}): WorkflowSubject => ({
  object_type: 'reimbursement', object_id: '00000000-0000-4000-8000-000000000001', amount, currency: 'USD', merchant: 'Café Rouge', user_id: U, ...extra,
});
const autoApprove: WorkflowRule = { id: R1, conditions: [{ kind: 'amount', op: 'lt', amount: 2500, currency: 'USD' }], actions: [{ kind: 'auto_approve', under: { amount: 2500, currency: 'USD' } }] };
const notifyRest: WorkflowRule = { id: R2, conditions: [], actions: [{ kind: 'notify', to: { kind: 'manager' }, message: 'A claim needs you' }] };

describe('evaluateWorkflow', () => {
  it.each([
    ['under the amount: the first rule', claim(2000), R1, ['auto_approve']],
    ['at the amount: the else rule', claim(2500), R2, ['notify']],
    ['another currency never matches the amount: the else rule', claim(100, { currency: 'EUR' }), R2, ['notify']],
  ])('%s', (_, subject, rule, kinds) => {
    const e = evaluateWorkflow({ rules: [autoApprove, notifyRest] }, subject);
    expect(e.rule_id).toBe(rule);
    expect(e.actions.map((a) => a.kind)).toEqual(kinds);
  });

  it('traces every condition of each rule tried, with the figures', () => {
    const e = evaluateWorkflow({ rules: [autoApprove] }, claim(3000));
    expect(e.rule_id).toBeNull();
    expect(e.rules[0]!.conditions[0]).toMatchObject({ met: false, reason: '$30.00 is not under $25.00' });
  });

  it.each([
    [{ kind: 'merchant', op: 'contains', value: 'cafe' } as const, true],
    [{ kind: 'merchant', op: 'is', value: 'CAFÉ ROUGE' } as const, true],
    [{ kind: 'merchant', op: 'is', value: 'Café' } as const, false],
    [{ kind: 'person', in: [U] } as const, true],
    [{ kind: 'vendor', in: [U] } as const, false],
    [{ kind: 'policy_violation', codes: ['missing_receipt'] } as const, false],
  ] as [WorkflowCondition, boolean][])('condition %j → %s', (condition, met) => {
    expect(evaluateWorkflow({ rules: [{ id: R1, conditions: [condition], actions: [{ kind: 'comment', text: 'x' }] }] }, claim(100)).rule_id !== null).toBe(met);
  });
});

describe('workflowProblems', () => {
  it('names an action the trigger cannot take and a condition it cannot check', () => {
    expect(workflowProblems('receipt.uploaded', [{ conditions: [{ kind: 'vendor', in: [U] }], actions: [{ kind: 'lock_card' }] }])).toEqual({
      'conditions.0': '"A receipt is uploaded" has no vendor to check.',
      'actions.0': 'Lock the card cannot follow "A receipt is uploaded".',
    });
    expect(workflowProblems('claim.submitted', [autoApprove, notifyRest])).toEqual({});
  });
});

describe('findLoop', () => {
  const coding = { kind: 'set_coding', gl_account_id: GL } as const;
  it('refuses a workflow whose action raises its own trigger', () => {
    expect(findLoop({ id: 'a', name: 'Code on coding', trigger: 'transaction.coded', enabled: true, rules: [{ actions: [coding] }] }, [])).toEqual(['Code on coding']);
  });
  it('finds a loop through another enabled workflow, and none through a disabled one', () => {
    const other = { id: 'b', name: 'Recode', trigger: 'transaction.coded' as const, enabled: true, rules: [{ actions: [coding] }] };
    const candidate = { id: 'a', name: 'Code new', trigger: 'transaction.coded' as const, enabled: true, rules: [{ actions: [{ kind: 'comment', text: 'x' } as const] }] };
    expect(findLoop(candidate, [other])).toBeNull();
    const starter = { id: 'c', name: 'Code new', trigger: 'transaction.created' as const, enabled: true, rules: [{ actions: [coding] }] };
    expect(findLoop(starter, [other])).toBeNull();
    expect(findLoop({ ...other, id: 'd', name: 'Again' }, [other])).toEqual(['Again']);
    expect(findLoop({ ...candidate, rules: [{ actions: [coding] }] }, [{ ...other, enabled: false }])).toEqual(['Code new']);
  });
});

describe('the canvas', () => {
  it('draws a workflow and reads it back unchanged', () => {
    const rules = [autoApprove, notifyRest];
    const back = canvasToWorkflow(workflowToCanvas({ trigger: 'claim.submitted', rules }));
    expect(back).toEqual({ ok: true, trigger: 'claim.submitted', rules });
  });
  it('marks a node left unconnected and a trigger with no condition step', () => {
    const c = workflowToCanvas({ trigger: 'claim.submitted', rules: [autoApprove] });
    const result = canvasToWorkflow({ nodes: c.nodes, edges: c.edges.filter((e) => e.from !== 'trigger') });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(Object.keys(result.problems).sort()).toEqual(['nodes.action-1-1', 'nodes.rule-1', 'nodes.trigger']);
  });
  it('refuses an action chain that loops', () => {
    const c = workflowToCanvas({ trigger: 'claim.submitted', rules: [{ ...autoApprove, actions: [...autoApprove.actions, { kind: 'comment', text: 'x' }] }] });
    const result = canvasToWorkflow({ nodes: c.nodes, edges: [...c.edges, { from: 'action-1-2', to: 'action-1-1' }] });
    expect(result.ok).toBe(false);
  });
});

describe('executionStatus', () => {
  it.each([
    [{ rule_id: null }, [], null, 'NO_MATCH'],
    [{ rule_id: R1 }, [{ kind: 'comment', status: 'DONE', detail: '' }], null, 'SUCCEEDED'],
    [{ rule_id: R1 }, [{ kind: 'comment', status: 'DONE', detail: '' }, { kind: 'lock_card', status: 'FAILED', detail: '' }], null, 'PARTIAL'],
    [{ rule_id: R1 }, [], 'depth limit', 'FAILED'],
  ] as const)('%j %j %s → %s', (e, results, error, status) => {
    expect(executionStatus(e, results, error)).toBe(status);
  });
});
