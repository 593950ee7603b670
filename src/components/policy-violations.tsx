import type { Violation } from '../../schema/expense-policy.ts';
import type { DataClient } from '../data-access/types.ts';
import { useAnswer } from '../lib/use-answer.ts';
import { StatusPill } from './status-pill.tsx';

const LABELS: Record<Violation['code'], string> = {
  missing_receipt: 'Missing receipt', missing_memo: 'Missing memo', missing_coding: 'Missing coding', over_cap: 'Over cap',
  over_daily_cap: 'Over daily cap', blocked_category: 'Blocked category', over_per_diem: 'Over per diem', over_mileage: 'Over mileage',
};
const FIXABLE = new Set<Violation['code']>(['missing_receipt', 'missing_memo', 'missing_coding']);

export interface PolicySectionProps {
  client: DataClient;
  objectType: 'transaction' | 'reimbursement';
  id: string;
  /** The data version: the section follows edits (a receipt added clears "Missing receipt" at once). */
  version: number;
}

/**
 * Issue 29: a transaction's or claim's "Policy" section in its drawer — each expense policy
 * violation in words with the policy's name, read from the mirror by the worker's evaluator
 * (offline too). Nothing when the item breaks no policy.
 */
export function PolicySection({ client, objectType, id, version }: PolicySectionProps) {
  const violations = useAnswer(() => client.itemViolations(objectType, id), [client, objectType, id, version]);
  if (!violations || violations.length === 0) return null;
  return (
    <section className="policy-section" aria-labelledby={`policy-${id}`}>
      <h3 id={`policy-${id}`} className="policy-section-title">Policy</h3>
      <ul>
        {violations.map((v) => (
          <li key={v.code}>
            <StatusPill tone={FIXABLE.has(v.code) ? 'warn' : 'danger'}>{LABELS[v.code]}</StatusPill>
            <span>{v.message} <span className="muted">({v.policy_name})</span></span>
          </li>
        ))}
      </ul>
    </section>
  );
}
