import type { CanvasNode } from '../../../schema/workflow-canvas.ts';
import { ACTION_LABELS, TRIGGER_LABELS } from '../../../schema/workflow.ts';
import { actionText, conditionText, type WorkflowNames } from './workflow-text.ts';

/** A canvas step in words: its heading ("Condition step 2", "Approve automatically") and what it says. */
export function nodeTitle(n: CanvasNode, names: WorkflowNames): { heading: string; description: string } {
  if (n.type === 'trigger') return { heading: 'Trigger', description: TRIGGER_LABELS[n.trigger] };
  if (n.type === 'rule') {
    const when = n.conditions.map((c) => conditionText(c, names)).join(' and ');
    return { heading: `Condition step (${n.id})`, description: when ? `If ${when}` : 'Always' };
  }
  const text = actionText(n.action, names);
  return { heading: `${ACTION_LABELS[n.action.kind]} (${n.id})`, description: text.charAt(0).toUpperCase() + text.slice(1) };
}
