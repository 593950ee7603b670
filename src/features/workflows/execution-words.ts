import type { WorkflowExecution } from '../../../schema/workflow.ts';
import { formatMoney } from '../../lib/format.ts';

/** The execution log's words (issue 29): statuses, objects, what the conditions read. */
export const EXECUTION_STATUS: Record<WorkflowExecution['status'], { label: string; tone: 'ok' | 'warn' | 'danger' | 'sync' }> = {
  SUCCEEDED: { label: 'Ran', tone: 'ok' },
  NO_MATCH: { label: 'No rule matched', tone: 'sync' },
  PARTIAL: { label: 'Partly done', tone: 'warn' },
  FAILED: { label: 'Failed', tone: 'danger' },
};

export const ACTION_STATUS_WORDS = { DONE: 'done', SKIPPED: 'skipped', FAILED: 'failed' } as const;

const OBJECTS: Record<string, string> = {
  transaction: 'Card transaction', reimbursement: 'Claim', bill: 'Bill', card_request: 'Card request', spend_request: 'Spend request', receipt: 'Receipt',
};
export const objectWords = (type: string) => OBJECTS[type] ?? type;

/** "Claim · Blue Bottle · $20.00" from what the conditions read (the inputs); the id's start when there is nothing else. */
export function executionSubject(e: Pick<WorkflowExecution, 'object_type' | 'object_id' | 'inputs'>): string {
  const i = e.inputs;
  const merchant = typeof i.merchant === 'string' && i.merchant ? i.merchant : null;
  const money = typeof i.amount === 'number' && typeof i.currency === 'string' ? formatMoney(i.amount, i.currency) : null;
  const parts = [objectWords(e.object_type), merchant, money].filter(Boolean);
  return parts.length > 1 ? parts.join(' · ') : `${parts[0]} ${e.object_id.slice(0, 8)}`;
}
