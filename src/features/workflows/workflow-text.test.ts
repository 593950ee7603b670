import { describe, expect, it } from 'vitest';
import type { WorkflowAction, WorkflowCondition } from '../../../schema/workflow.ts';
import { actionText, conditionText, workflowText, type WorkflowNames } from './workflow-text.ts';

const names: WorkflowNames = {
  user: (id) => ({ u1: 'Ana Ruiz', u2: 'Ben Li' })[id] ?? '', department: (id) => (id === 'd1' ? 'Sales' : ''), vendor: () => 'Acme',
  glAccount: (id) => (id === 'g1' ? '6000 Travel' : ''), location: () => '',
};

describe('workflows in words', () => {
  it.each<[WorkflowCondition, string]>([
    [{ kind: 'amount', op: 'lt', amount: 2500, currency: 'USD' }, 'amount under $25.00'],
    [{ kind: 'merchant', op: 'contains', value: 'Uber' }, 'merchant contains “Uber”'],
    [{ kind: 'person', in: ['u1', 'u2'] }, 'person is Ana Ruiz or Ben Li'],
    [{ kind: 'department', in: ['d1', 'dx'] }, 'department is Sales or someone removed'],
    [{ kind: 'policy_violation', codes: ['missing_receipt'] }, 'it breaks the policy (missing receipt)'],
  ])('condition %j', (c, text) => expect(conditionText(c, names)).toBe(text));

  it.each<[WorkflowAction, string]>([
    [{ kind: 'auto_approve', under: { amount: 2500, currency: 'USD' } }, 'approve automatically when under $25.00'],
    [{ kind: 'set_coding', gl_account_id: 'g1', department_id: 'd1' }, 'set coding: GL 6000 Travel, department Sales'],
    [{ kind: 'add_approval_step', approvers: { kind: 'user', user_id: 'u2' } }, 'add an approval step: Ben Li'],
    [{ kind: 'notify', to: { kind: 'manager' }, message: 'x' }, 'notify their manager'],
  ])('action %j', (a, text) => expect(actionText(a, names)).toBe(text));

  it('reads the chain as if / otherwise if / otherwise', () => {
    expect(workflowText('claim.submitted', [
      { conditions: [{ kind: 'amount', op: 'lt', amount: 2500, currency: 'USD' }], actions: [{ kind: 'auto_approve', under: { amount: 2500, currency: 'USD' } }] },
      { conditions: [{ kind: 'person', in: ['u1'] }], actions: [{ kind: 'require_receipt' }, { kind: 'comment', text: 'c' }] },
      { conditions: [], actions: [{ kind: 'notify', to: { kind: 'owner' }, message: 'm' }] },
    ], names)).toBe('A claim is submitted. If amount under $25.00, then approve automatically when under $25.00. '
      + 'Otherwise if person is Ana Ruiz, then require a receipt and add a comment. Otherwise, notify the owner.');
  });
});
