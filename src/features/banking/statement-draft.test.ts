import { describe, expect, it } from 'vitest';
import { blankLine, draftOf, draftTotals, linesBody, matchText } from './statement-draft.ts';

describe('statement draft', () => {
  it('turns the parser’s lines into the PUT body', () => {
    const draft = draftOf({ lines: [{ date: '2026-10-02', description: 'Deposit', amount: 25_000, sign: 'words' }, { date: '2026-10-03', description: 'Fee', amount: -1_500, sign: 'guess' }], period_start: '2026-10-01', period_end: '2026-10-31' });
    expect(draft.lines.map((l) => l.amount)).toEqual(['250.00', '-15.00']);
    expect(draftTotals(draft)).toEqual({ moneyIn: 25_000, moneyOut: 1_500, guesses: 1 });
    expect(linesBody(draft)).toEqual({ ok: true, body: { period_start: '2026-10-01', period_end: '2026-10-31', lines: [
      { date: '2026-10-02', description: 'Deposit', amount: 25_000 }, { date: '2026-10-03', description: 'Fee', amount: -1_500 },
    ] } });
  });

  it('names what each bad line needs, and a period that ends before it starts', () => {
    const bad = { ...blankLine('2026-10-05'), amount: 'abc' };
    const zero = { ...blankLine(''), description: 'x', amount: '0' };
    const r = linesBody({ lines: [bad, zero], period_start: '2026-10-31', period_end: '2026-10-01' });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.errors[bad.key]).toMatchObject({ description: 'Describe the line.', amount: expect.stringContaining('-89.99') });
    expect(r.errors[zero.key]).toMatchObject({ date: expect.any(String), amount: expect.stringContaining('cannot be 0') });
    expect(r.period).toBe('The period ends before it starts.');
    expect(r.message).toBe('2 lines need fixing before the statement is sent.');
  });

  it('says what a line matched', () => {
    const line = { date: '2026-10-02', description: 'Deposit', amount: 25_000, matched_entry_id: null, matched_transfer_id: null };
    expect(matchText(line, [])).toEqual({ matched: false, text: 'Unmatched: no ledger entry of this amount within 3 days' });
    expect(matchText({ ...line, matched_entry_id: '00000000-0000-4000-8000-000000000001' }, []).matched).toBe(true);
  });
});
