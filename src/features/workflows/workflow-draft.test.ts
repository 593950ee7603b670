import { describe, expect, it } from 'vitest';
import { workflowInputSchema, type Workflow } from '../../../schema/workflow.ts';
import { blankAction, blankCondition, blankDraft, compile, formKeyOf, retrigger, workflowDraft, type WorkflowDraft } from './workflow-draft.ts';

const RULE = '00000000-0000-4000-8000-0000000000a1';
const USER = '00000000-0000-4000-8000-0000000000b1';

/** "Auto-approve claims under 25 USD", the workflow, as the form holds it. */
function autoApprove(): WorkflowDraft {
  const d = blankDraft('USD');
  const cond = { ...blankCondition('amount', 'USD'), op: 'lt' as const, amount: '25' };
  const act = { ...blankAction('auto_approve', 'USD'), amount: '25.00' };
  return { ...d, name: ' Auto-approve small claims ', rules: [{ ...d.rules[0]!, conditions: [cond], actions: [act] }] };
}

describe('compile', () => {
  it('makes the create body the server checks, amounts in minor units', () => {
    const r = compile(autoApprove());
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(workflowInputSchema.parse(r.input)).toEqual(r.input);
    expect(r.input).toEqual({
      name: 'Auto-approve small claims', trigger: 'claim.submitted', enabled: false,
      conditions: [{ kind: 'amount', op: 'lt', amount: 2500, currency: 'USD' }],
      actions: [{ kind: 'auto_approve', under: { amount: 2500, currency: 'USD' } }], rules: [],
    });
  });

  it.each([
    ['a blank name', (d: WorkflowDraft) => ({ ...d, name: '  ' }), 'name', 'Name the workflow.'],
    ['an amount that is not money', (d: WorkflowDraft) => ({ ...d, rules: [{ ...d.rules[0]!, conditions: [{ ...d.rules[0]!.conditions[0]!, amount: 'abc' }] }] }), 'r0.conditions.0', 'Enter an amount such as 25.00.'],
    ['a person condition naming nobody', (d: WorkflowDraft) => ({ ...d, rules: [{ ...d.rules[0]!, conditions: [blankCondition('person', 'USD')] }] }), 'r0.conditions.0', 'Choose at least one.'],
    ['a notify without a message', (d: WorkflowDraft) => ({ ...d, rules: [{ ...d.rules[0]!, actions: [blankAction('notify', 'USD')] }] }), 'r0.actions.0', 'Write the message.'],
    ['set coding with nothing set', (d: WorkflowDraft) => ({ ...d, rules: [{ ...d.rules[0]!, actions: [blankAction('set_coding', 'USD')] }] }), 'r0.actions.0', 'Choose a GL account, a department or a location.'],
    ['a rule with no action', (d: WorkflowDraft) => ({ ...d, rules: [{ ...d.rules[0]!, actions: [] }] }), 'r0.actions', 'Add at least one action.'],
  ])('refuses %s with the field’s message', (_what, change, key, message) => {
    const r = compile(change(autoApprove()));
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.errors[key]).toBe(message);
  });

  it('names what the trigger cannot use (workflowProblems), on the second rule too', () => {
    const d = autoApprove();
    const lock = blankAction('lock_card', 'USD');
    const r = compile({ ...d, rules: [d.rules[0]!, { key: 'x', conditions: [], actions: [lock] }] });
    expect(r).toEqual({ ok: false, errors: { 'r1.actions.0': 'Lock the card cannot follow "A claim is submitted".' } });
  });
});

describe('the form and the saved workflow', () => {
  it('reads a saved workflow back to the same body', () => {
    const saved: Pick<Workflow, 'name' | 'trigger' | 'enabled' | 'rules'> = {
      name: 'Route big bills', trigger: 'bill.created', enabled: true,
      rules: [
        { id: RULE, conditions: [{ kind: 'amount', op: 'gte', amount: 1_000_000, currency: 'USD' }], actions: [{ kind: 'add_approval_step', approvers: { kind: 'user', user_id: USER } }] },
        { id: '00000000-0000-4000-8000-0000000000a2', conditions: [], actions: [{ kind: 'notify', to: { kind: 'role', role: 'BUSINESS_ADMIN' }, message: 'A bill came in.' }] },
      ],
    };
    const r = compile(workflowDraft(saved, 'USD'));
    expect(r.ok && r.rules).toEqual(saved.rules);
  });

  it('a trigger change drops what no longer fits and says how many', () => {
    const d = autoApprove();
    const { draft, dropped } = retrigger(d, 'transaction.created', 'USD');
    expect(dropped).toBe(1);
    expect(draft.rules[0]!.actions.map((a) => a.kind)).toEqual(['require_receipt']);
    expect(draft.rules[0]!.conditions.map((c) => c.kind)).toEqual(['amount']);
  });

  it.each([
    ['conditions.2', 'r0.conditions.2'],
    ['rules.0.actions.1', 'r1.actions.1'],
    ['rules.3.conditions.0.amount', 'r4.conditions.0'],
    ['name', null],
  ])('maps the server’s path %s to the form’s %s', (path, key) => {
    expect(formKeyOf(path)).toBe(key);
  });
});
