import type { CodingField, Violation } from '../../../schema/expense-policy.ts';
import type { MissingItemView } from '../../../workers/api.ts';

export type CodingValues = Record<CodingField, string | null>;

const WORDS: Partial<Record<Violation['code'], string>> = { missing_receipt: 'a receipt', missing_memo: 'a memo', missing_coding: 'coding' };

/** "a receipt and a memo": what the item misses, in words. */
export function missingWords(vs: readonly Pick<Violation, 'code'>[]): string {
  const words = vs.map((v) => WORDS[v.code]).filter((w): w is string => !!w);
  return words.length <= 1 ? (words[0] ?? 'nothing') : `${words.slice(0, -1).join(', ')} and ${words.at(-1)}`;
}

/**
 * What Next saves: the memo and the coding fields that changed (a claim has no location), as
 * one coding patch (`transaction.code`) or claim patch (`reimbursement.update`); null: nothing.
 */
export function wizardPatch(item: MissingItemView, memo: string, coding: CodingValues): Partial<{ memo: string | null } & CodingValues> | null {
  const out: Partial<{ memo: string | null } & CodingValues> = {};
  const typed = memo.trim();
  if (typed !== (item.memo ?? '').trim()) out.memo = typed || null;
  const fields: CodingField[] = item.object_type === 'transaction' ? ['gl_account_id', 'department_id', 'location_id'] : ['gl_account_id', 'department_id'];
  for (const f of fields) if (coding[f] !== item[f]) out[f] = coding[f];
  return Object.keys(out).length > 0 ? out : null;
}
