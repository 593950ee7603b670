import { useState } from 'react';
import type { Canvas, CanvasNode } from '../../../schema/workflow-canvas.ts';
import { TRIGGER_LABELS, WORKFLOW_TRIGGERS, type WorkflowTrigger } from '../../../schema/workflow.ts';
import { Button } from '../../components/button.tsx';
import { Modal } from '../../components/modal.tsx';
import { SelectField } from '../../components/select-field.tsx';
import { connectRefusal } from './canvas-edit.ts';
import { ActionEditor, ConditionEditor, type PickerOptions } from './rule-editor.tsx';
import { actionDraft, blankCondition, compileAction, compileCondition, conditionDraft, type DraftAction, type DraftCondition } from './workflow-draft.ts';
import { nodeTitle } from './node-words.ts';
import type { WorkflowNames } from './workflow-text.ts';

export interface NodeDialogProps {
  canvas: Canvas;
  node: CanvasNode;
  trigger: WorkflowTrigger;
  currency: string;
  options: PickerOptions;
  names: WorkflowNames;
  onSave(next: CanvasNode): void;
  onConnect(to: string): void;
  onDisconnect(to: string): void;
  onDelete(): void;
  onClose(): void;
}

/**
 * A canvas step's settings (Enter on a step, or a double click): the trigger, a condition step's
 * conditions, or an action; the arrows leaving it (the keyboard's way to connect and disconnect);
 * and removing it. Conditions and actions use the form view's editors and checks.
 */
export function NodeDialog(p: NodeDialogProps) {
  const { node, canvas } = p;
  const [trigger, setTrigger] = useState<WorkflowTrigger>(node.type === 'trigger' ? node.trigger : p.trigger);
  const [conditions, setConditions] = useState<DraftCondition[]>(node.type === 'rule' ? node.conditions.map((c) => conditionDraft(c, p.currency)) : []);
  const [action, setAction] = useState<DraftAction | null>(node.type === 'action' ? actionDraft(node.action, p.currency) : null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [target, setTarget] = useState('');
  const title = nodeTitle(node, p.names);
  const byId = new Map(canvas.nodes.map((n) => [n.id, n]));
  const outgoing = canvas.edges.filter((e) => e.from === node.id);
  const targets = canvas.nodes.filter((n) => connectRefusal(canvas, node.id, n.id) === null);

  const apply = () => {
    if (node.type === 'trigger') return p.onSave({ ...node, trigger });
    if (node.type === 'rule') {
      const next: Record<string, string> = {};
      const compiled = conditions.map((c, i) => {
        const r = compileCondition(c);
        if (!r.ok) next[`c${i}`] = r.message;
        return r;
      });
      setErrors(next);
      if (Object.keys(next).length > 0) return;
      return p.onSave({ ...node, conditions: compiled.flatMap((r) => (r.ok ? [r.value] : [])) });
    }
    if (!action) return;
    const r = compileAction(action);
    if (!r.ok) return setErrors({ a: r.message });
    p.onSave({ ...node, action: r.value });
  };

  return (
    <Modal title={title.heading} description={title.description} onClose={p.onClose} size="lg" onSubmit={(e) => { e.preventDefault(); apply(); }}>
      <div className="wf-node-dialog">
        {node.type === 'trigger' && (
          <SelectField label="When" value={trigger} options={WORKFLOW_TRIGGERS.map((t) => ({ value: t, label: TRIGGER_LABELS[t] }))} onChange={(t) => setTrigger(t as WorkflowTrigger)} />
        )}
        {node.type === 'rule' && (
          <fieldset className="wf-fieldset">
            <legend>All of these hold (none: always)</legend>
            {conditions.map((c, i) => (
              <ConditionEditor key={c.key} trigger={p.trigger} draft={c} label={`Condition ${i + 1}`} options={p.options} error={errors[`c${i}`]}
                onChange={(next) => setConditions((list) => list.map((x) => (x.key === c.key ? next : x)))}
                onRemove={() => setConditions((list) => list.filter((x) => x.key !== c.key))} />
            ))}
            <Button variant="ghost" size="sm" onClick={() => setConditions((list) => [...list, blankCondition('amount', p.currency)])}>Add condition</Button>
          </fieldset>
        )}
        {action && <ActionEditor trigger={p.trigger} draft={action} label="Action" options={p.options} error={errors.a} onChange={setAction} />}
        <fieldset className="wf-fieldset">
          <legend>Arrows from this step</legend>
          {outgoing.length === 0 && <p className="muted wf-note">None yet.</p>}
          <ul className="wf-arrows">
            {outgoing.map((e) => (
              <li key={e.to}>
                <span>→ {byId.get(e.to) ? nodeTitle(byId.get(e.to)!, p.names).heading : e.to}</span>
                <Button variant="ghost" size="sm" onClick={() => p.onDisconnect(e.to)}>Remove arrow</Button>
              </li>
            ))}
          </ul>
          {targets.length > 0 && (
            <div className="wf-connect">
              <SelectField label="Connect to" value={target} leading={[{ value: '', label: 'Choose a step…' }]}
                options={targets.map((n) => ({ value: n.id, label: nodeTitle(n, p.names).heading }))} onChange={setTarget} />
              <Button size="sm" disabled={!target} onClick={() => { p.onConnect(target); setTarget(''); }}>Connect</Button>
            </div>
          )}
        </fieldset>
      </div>
      <div className="modal-actions">
        {node.type !== 'trigger' && <Button variant="danger" onClick={p.onDelete}>Remove step</Button>}
        <span className="spacer" />
        <Button variant="ghost" onClick={p.onClose}>Cancel</Button>
        <Button variant="primary" type="submit">Apply</Button>
      </div>
    </Modal>
  );
}
