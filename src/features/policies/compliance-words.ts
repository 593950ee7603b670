import type { ComplianceRow } from '../../../schema/api/calls-expense-policies.ts';

type RemindAnswer = {
  reminded: { user_id: string; item_count: number }[];
  skipped: { user_id: string; code: string; message: string }[];
};

/** 0.925 → "92.5%"; whole rates without decimals ("100%"). */
export function complianceRate(rate: number): string {
  const pct = Math.round(rate * 1000) / 10;
  return `${Number.isInteger(pct) ? pct.toFixed(0) : pct.toFixed(1)}%`;
}

/** "Emailed 2 people (5 items). Not emailed: Ana Lee — This person was already reminded today." */
export function remindOutcome(answer: RemindAnswer, rows: readonly Pick<ComplianceRow, 'id' | 'name'>[]): string {
  const name = (id: string) => rows.find((r) => r.id === id)?.name ?? 'Unknown person';
  const items = answer.reminded.reduce((n, r) => n + r.item_count, 0);
  const sent = answer.reminded.length === 0 ? 'No one was emailed.'
    : `Emailed ${answer.reminded.length === 1 ? '1 person' : `${answer.reminded.length} people`} (${items === 1 ? '1 item' : `${items} items`}).`;
  if (answer.skipped.length === 0) return sent;
  return `${sent} Not emailed: ${answer.skipped.map((s) => `${name(s.user_id)} — ${s.message}`).join('; ')}`;
}
