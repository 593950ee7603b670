import { ACTIONS_FOR, CONDITIONS_FOR, MAX_RULE_ACTIONS, MAX_RULE_CONDITIONS, MAX_WORKFLOW_RULES } from '../../../schema/workflow.ts';
import { Button } from '../../components/button.tsx';
import { ActionEditor, ConditionEditor } from './rule-editor.tsx';
import { blankAction, blankCondition, blankRule, ruleKey, type DraftRule } from './workflow-draft.ts';
import type { WorkflowEditor } from './use-workflow-editor.ts';

/**
 * The form view of a workflow (the phone's default): its rules in order as "If … then …",
 * "Otherwise if … then …"; each with its conditions (all must hold; none: always) and actions.
 */
export function WorkflowForm({ e }: { e: WorkflowEditor }) {
  const { draft, errors, options } = e;
  const setRule = (key: string, change: (r: DraftRule) => DraftRule) => e.editDraft((d) => ({ ...d, rules: d.rules.map((r) => (r.key === key ? change(r) : r)) }));
  const move = (i: number, by: -1 | 1) => e.editDraft((d) => {
    const rules = [...d.rules];
    const [r] = rules.splice(i, 1);
    rules.splice(i + by, 0, r!);
    return { ...d, rules };
  });
  return (
    <div className="wf-form">
      <ol className="wf-rules" aria-label="Rules, tried in order">
        {draft.rules.map((r, ri) => {
          const n = ri + 1;
          const heading = ri === 0 ? 'If' : 'Otherwise if';
          return (
            <li key={r.key} className="wf-rule">
              <section aria-labelledby={`${r.key}-h`}>
                <div className="wf-rule-head">
                  <h3 id={`${r.key}-h`}>Rule {n}: {r.conditions.length === 0 ? (ri === 0 ? 'Always' : 'Otherwise') : heading}</h3>
                  <span className="spacer" />
                  <Button variant="ghost" size="sm" disabled={ri === 0} aria-label={`Move rule ${n} up`} onClick={() => move(ri, -1)}>↑</Button>
                  <Button variant="ghost" size="sm" disabled={ri === draft.rules.length - 1} aria-label={`Move rule ${n} down`} onClick={() => move(ri, 1)}>↓</Button>
                  <Button variant="ghost" size="sm" disabled={draft.rules.length === 1} aria-label={`Remove rule ${n}`}
                    onClick={() => e.editDraft((d) => ({ ...d, rules: d.rules.filter((x) => x.key !== r.key) }))}>Remove</Button>
                </div>
                <fieldset className="wf-fieldset">
                  <legend>{ri === 0 ? 'If all of these hold' : 'Otherwise, if all of these hold'} <span className="muted">(none: always)</span></legend>
                  {r.conditions.map((c, i) => (
                    <ConditionEditor key={c.key} trigger={draft.trigger} draft={c} label={`Condition ${i + 1} of rule ${n}`} options={options}
                      error={errors[ruleKey(ri, 'conditions', i)]}
                      onChange={(next) => setRule(r.key, (x) => ({ ...x, conditions: x.conditions.map((y) => (y.key === c.key ? next : y)) }))}
                      onRemove={() => setRule(r.key, (x) => ({ ...x, conditions: x.conditions.filter((y) => y.key !== c.key) }))} />
                  ))}
                  {r.conditions.length < MAX_RULE_CONDITIONS && (
                    <Button variant="ghost" size="sm" className="wf-add" aria-label={`Add condition to rule ${n}`}
                      onClick={() => setRule(r.key, (x) => ({ ...x, conditions: [...x.conditions, blankCondition(CONDITIONS_FOR[draft.trigger][0]!, e.currency)] }))}>
                      + Add condition
                    </Button>
                  )}
                </fieldset>
                <fieldset className="wf-fieldset">
                  <legend>Then</legend>
                  {r.actions.map((a, i) => (
                    <ActionEditor key={a.key} trigger={draft.trigger} draft={a} label={`Action ${i + 1} of rule ${n}`} options={options}
                      error={errors[ruleKey(ri, 'actions', i)]}
                      onChange={(next) => setRule(r.key, (x) => ({ ...x, actions: x.actions.map((y) => (y.key === a.key ? next : y)) }))}
                      onRemove={r.actions.length > 1 ? () => setRule(r.key, (x) => ({ ...x, actions: x.actions.filter((y) => y.key !== a.key) })) : undefined} />
                  ))}
                  {errors[`r${ri}.actions`] && <p className="field-error">{errors[`r${ri}.actions`]}</p>}
                  {r.actions.length < MAX_RULE_ACTIONS && (
                    <Button variant="ghost" size="sm" className="wf-add" aria-label={`Add action to rule ${n}`}
                      onClick={() => setRule(r.key, (x) => ({ ...x, actions: [...x.actions, blankAction(ACTIONS_FOR[draft.trigger][0]!, e.currency)] }))}>
                      + Add action
                    </Button>
                  )}
                </fieldset>
              </section>
            </li>
          );
        })}
      </ol>
      {errors.rules && <p className="field-error">{errors.rules}</p>}
      {draft.rules.length < MAX_WORKFLOW_RULES && (
        <Button onClick={() => e.editDraft((d) => ({ ...d, rules: [...d.rules, blankRule(d.trigger, e.currency)] }))}>Add an “otherwise if” rule</Button>
      )}
    </div>
  );
}
