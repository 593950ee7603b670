import { statementRequestSchema, monthLabel } from '../../../schema/statements.ts';
import type { Queryable } from '../../db/db.ts';
import { ApiError } from '../../core/errors.ts';
import { assertActivity, readStatement, type StatementScope } from './data.ts';
import { renderStatementCsv } from './render-csv.ts';
import { renderStatementPdf } from './render-pdf.ts';

/** The `statement` job's params: the checked request plus the scope it resolved to. */
export type StatementJobParams = { request: unknown; scope: StatementScope; title: string };

type Progress = (percent: number, text: string) => Promise<void>;
type File = { bytes: Uint8Array; contentType: string; name: string };

/**
 * Makes the statement file. `final` wraps refusals retrying cannot mend (no activity any more): the
 * runner then fails the job at once with the refusal's words.
 */
export async function runStatementJob(
  db: Queryable, params: Record<string, unknown>, report: Progress, now: Date, final: (message: string) => Error,
): Promise<File> {
  const request = statementRequestSchema.parse(params.request);
  const scope = params.scope as StatementScope;
  await report(10, 'Reading card transactions');
  try {
    await assertActivity(db, scope);
  } catch (err) {
    if (err instanceof ApiError) throw final(err.message);
    throw err;
  }
  const data = await readStatement(db, scope);
  await report(60, request.format === 'pdf' ? 'Writing the PDF' : 'Writing the CSV');
  const base = `statement-${scope.month}-${data.card ? `card-${data.card.last_four ?? scope.cardId!.slice(0, 8)}` : 'business'}`;
  if (request.format === 'csv') return { bytes: renderStatementCsv(data), contentType: 'text/csv; charset=utf-8', name: `${base}.csv` };
  return { bytes: await renderStatementPdf(data, now), contentType: 'application/pdf', name: `${base}.pdf` };
}

/** "Statement · October 2026 · Business · PDF". */
export function statementTitle(month: string, what: string, format: string): string {
  return `Statement · ${monthLabel(month)} · ${what} · ${format.toUpperCase()}`;
}
