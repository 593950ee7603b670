import Papa from 'papaparse';
import { minorToDecimal } from '../../../schema/money.ts';
import { STATEMENT_INCLUDES } from '../../../schema/statements.ts';
import type { StatementData } from './data.ts';

/**
 * The statement as CSV: one table, a `type` column saying what each line is — `statement` (who,
 * which month), `includes` (which states count), `opening_balance`, `charge`, `payment`,
 * `card_total`, `charges_total`, `payments_total`, `closing_balance` — so a spreadsheet filters it
 * and every amount is a plain decimal beside its currency. Cells that a spreadsheet would run as a
 * formula are quoted as text (papaparse `escapeFormulae`); a negative amount (`-50.00`) is a number, not one.
 */
export const STATEMENT_CSV_HEADER = ['type', 'date', 'card', 'last_four', 'cardholder', 'description', 'amount', 'currency'] as const;

/** What a spreadsheet would run: =, +, @, tab, CR, or a `-` not starting a plain number. */
const FORMULA = /^[=+@\t\r]|^-(?!\d+(\.\d+)?$)/;

export function renderStatementCsv(s: StatementData): Uint8Array {
  const rows: (string | number)[][] = [];
  const money = (minor: number, currency: string) => minorToDecimal(minor, currency);
  const who = s.card ? `${s.businessName} · ${s.card.name} (${s.card.cardholder})` : s.businessName;
  rows.push(['statement', `${s.period.start}..${s.period.end}`, s.card?.name ?? '', s.card?.last_four ?? '', s.card?.cardholder ?? '', `${s.title} · ${who} · ${s.monthLabel}`, '', '']);
  rows.push(['includes', '', '', '', '', STATEMENT_INCLUDES, '', '']);
  for (const sum of s.summaries) rows.push(['opening_balance', s.period.start, '', '', '', 'Opening balance', money(sum.opening, sum.currency), sum.currency]);
  for (const c of s.charges) {
    rows.push(['charge', c.occurred_at.slice(0, 10), c.card_name, c.last_four ?? '', c.cardholder, c.merchant, money(c.amount, c.currency), c.currency]);
  }
  for (const p of s.payments) {
    rows.push(['payment', p.settled_at.slice(0, 10), '', '', '', `Card payment (${p.charges} charge${p.charges === 1 ? '' : 's'})`, money(-p.amount, p.currency), p.currency]);
  }
  for (const t of s.cardTotals) rows.push(['card_total', '', t.card_name, t.last_four ?? '', t.cardholder, `${t.count} charge${t.count === 1 ? '' : 's'}`, money(t.total, t.currency), t.currency]);
  for (const sum of s.summaries) {
    rows.push(['charges_total', '', '', '', '', `${sum.count} charge${sum.count === 1 ? '' : 's'}`, money(sum.charges, sum.currency), sum.currency]);
    rows.push(['payments_total', '', '', '', '', 'Payments', money(-sum.payments, sum.currency), sum.currency]);
    rows.push(['closing_balance', s.period.end, '', '', '', 'Closing balance', money(sum.closing, sum.currency), sum.currency]);
  }
  const text = Papa.unparse({ fields: [...STATEMENT_CSV_HEADER], data: rows }, { newline: '\r\n', escapeFormulae: FORMULA });
  return new TextEncoder().encode(`${text}\r\n`);
}
