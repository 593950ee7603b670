import type { BankStatement } from '../../../schema/api/calls-banking.ts';
import type { WalletTransfer } from '../../../schema/entities/wallet-transfer.ts';
import { Button } from '../../components/button.tsx';
import { DateField } from '../../components/date-field.tsx';
import { StatusPill } from '../../components/status-pill.tsx';
import { formatDay, formatMoney } from '../../lib/format.ts';
import { blankLine, draftTotals, matchText, type LineErrors, type StatementDraft } from './statement-draft.ts';

export interface StatementLinesEditorProps {
  draft: StatementDraft;
  errors: LineErrors;
  periodError?: string | undefined;
  currency: string;
  today: string;
  onChange(draft: StatementDraft): void;
}

/**
 * The lines read from a statement, for review and editing before they are sent (offline too):
 * date, description, signed amount (money out negative); a sign the reader only guessed is marked;
 * remove a line, add one, set the period. One stacked card per line on a phone.
 */
export function StatementLinesEditor({ draft, errors, periodError, currency, today, onChange }: StatementLinesEditorProps) {
  const totals = draftTotals(draft);
  const setLine = (key: string, patch: Partial<StatementDraft['lines'][number]>) =>
    onChange({ ...draft, lines: draft.lines.map((l) => (l.key === key ? { ...l, ...patch } : l)) });
  return (
    <div className="stmt-editor">
      <div className="stmt-period">
        <DateField label="Period from" value={draft.period_start} max={draft.period_end || undefined} onChange={(period_start) => onChange({ ...draft, period_start })} />
        <DateField label="Period to" value={draft.period_end} min={draft.period_start || undefined} error={periodError} onChange={(period_end) => onChange({ ...draft, period_end })} />
      </div>
      <p className="muted stmt-summary" role="status">
        {draft.lines.length === 1 ? '1 line' : `${draft.lines.length} lines`} · in {formatMoney(totals.moneyIn, currency)} · out {formatMoney(totals.moneyOut, currency)}
        {totals.guesses > 0 && ` · ${totals.guesses} with a guessed sign: check them`}
      </p>
      <ol className="stmt-lines" aria-label="Statement lines">
        {draft.lines.map((l, i) => {
          const e = errors[l.key] ?? {};
          const n = i + 1;
          return (
            <li key={l.key} className="stmt-line">
              <label className="stmt-cell stmt-date">
                <span className="field-label">Date<span className="sr-only"> of line {n}</span></span>
                <input type="date" value={l.date} aria-invalid={e.date ? true : undefined} onChange={(ev) => setLine(l.key, { date: ev.target.value })} />
              </label>
              <label className="stmt-cell stmt-desc">
                <span className="field-label">Description<span className="sr-only"> of line {n}</span></span>
                <input type="text" value={l.description} maxLength={300} aria-invalid={e.description ? true : undefined} onChange={(ev) => setLine(l.key, { description: ev.target.value })} />
              </label>
              <label className="stmt-cell stmt-amount">
                <span className="field-label">Amount<span className="sr-only"> of line {n}</span></span>
                <input type="text" inputMode="decimal" value={l.amount} aria-invalid={e.amount ? true : undefined} onChange={(ev) => setLine(l.key, { amount: ev.target.value, sign: null })} />
              </label>
              <Button size="sm" variant="ghost" onClick={() => onChange({ ...draft, lines: draft.lines.filter((x) => x.key !== l.key) })}>
                Remove<span className="sr-only"> line {n}</span>
              </Button>
              {l.sign === 'guess' && <p className="stmt-note">The reader could not tell money in from money out: check the sign.</p>}
              {(e.date || e.description || e.amount) && <p className="field-error stmt-note">{[e.date, e.description, e.amount].filter(Boolean).join(' ')}</p>}
            </li>
          );
        })}
      </ol>
      <Button size="sm" onClick={() => onChange({ ...draft, lines: [...draft.lines, blankLine(draft.period_end || today)] })}>Add line</Button>
    </div>
  );
}

/** A statement as the server answered it: each line with what it matched (which transfer), or unmatched. */
export function StatementMatches({ statement, currency, transfers }: { statement: BankStatement; currency: string; transfers: readonly WalletTransfer[] }) {
  return (
    <div className="stmt-matches">
      <p className="stmt-summary">
        <StatusPill tone="ok">{statement.matched} matched</StatusPill>{' '}
        <StatusPill tone={statement.unmatched > 0 ? 'warn' : 'neutral'}>{statement.unmatched} unmatched</StatusPill>
      </p>
      {statement.lines.length === 0 && <p className="muted">No lines saved for this statement yet.</p>}
      <ul className="stmt-result-lines" aria-label="Matched lines">
        {statement.lines.map((l, i) => {
          const m = matchText(l, transfers);
          return (
            <li key={`${i}-${l.date}`} className={m.matched ? 'stmt-result stmt-result-matched' : 'stmt-result'}>
              <span className="stmt-result-date">{formatDay(l.date)}</span>
              <span className="stmt-result-desc">{l.description}</span>
              <span className={l.amount < 0 ? 'stmt-result-amount' : 'stmt-result-amount stmt-in'}>{formatMoney(l.amount, currency)}</span>
              <span className="stmt-result-match">{m.text}</span>
            </li>
          );
        })}
      </ul>
    </div>
  );
}
