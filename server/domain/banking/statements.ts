import { createHash, randomUUID } from 'node:crypto';
import { checkFileContent } from '../../../schema/file-content.ts';
import { STATEMENT_CONTENT_TYPES, type BankStatement } from '../../../schema/api/calls-banking.ts';
import type { Queryable } from '../../db/db.ts';
import type { ActingUser } from '../../core/actor.ts';
import { ApiError, validationError } from '../../core/errors.ts';
import { bankLedgerAccount, findBankAccount } from './bank-accounts.ts';

/**
 * Bank statements (issue 30): the file an admin uploads for a linked bank account (bytes sniffed
 * as receipts' are, schema/file-content.ts: markup or a signature that is not the declared type →
 * BANKING_7005, nothing stored), kept in `bank_statements.bytes` (the statement is the bank
 * account's, not a person's receipt: it is not in the receipt store, whose dedupe and visibility
 * are per uploader), and the lines read from it — by the device's OCR when the
 * `bank_account_statement_ocr` flag is on, or typed — which replace the saved ones on each PUT.
 *
 * Matching: each line to a journal entry posted on the bank account's EXTERNAL_BANK ledger account
 * with the same amount and an effective date within ±3 days, each entry to at most one line (of
 * any live statement: a unique index), pairs taken best first by date distance (then line order,
 * then the entry's date and id). Sign: a posting on the EXTERNAL_BANK account is what that account
 * gains, which is the bank's own view: a transfer from the wallet to the bank settles as +amount
 * there (money into the bank, a positive statement line) and a transfer pulled from the bank
 * holds −amount there (money out, a negative line). So a line matches an entry whose net posting
 * on the account equals the line's amount. Matches are computed when lines are saved, under the
 * bank account's row lock (two PUTs of one account never claim the same entry).
 */
export const MATCH_WINDOW_DAYS = 3;
const MAX_LINE_AMOUNT = 1e13;

type StatementRow = Omit<BankStatement, 'lines' | 'matched' | 'unmatched' | 'size'> & { size: number; matched: number; unmatched: number };
type LineRow = { date: string; description: string; amount: number; matched_entry_id: string | null; matched_transfer_id: string | null };

const day = (col: string) => `to_char(${col}, 'YYYY-MM-DD')`;
const COLUMNS = `s.id, s.bank_account_id, s.file_name, s.content_type, s.size, s.status, ${day('s.period_start')} AS period_start,
  ${day('s.period_end')} AS period_end, s.uploaded_by, to_char(s.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS created_at,
  (SELECT count(*) FROM bank_statement_lines l WHERE l.statement_id = s.id AND l.matched_entry_id IS NOT NULL) AS matched,
  (SELECT count(*) FROM bank_statement_lines l WHERE l.statement_id = s.id AND l.matched_entry_id IS NULL) AS unmatched`;

const numbers = (r: StatementRow): StatementRow => ({ ...r, size: Number(r.size), matched: Number(r.matched), unmatched: Number(r.unmatched) });

async function findStatement(db: Queryable, businessId: string, id: string, lock = false): Promise<StatementRow> {
  const rows = await db.query<StatementRow>(
    `SELECT ${COLUMNS} FROM bank_statements s WHERE s.business_id = $1 AND s.id = $2 AND NOT s.deleted${lock ? ' FOR UPDATE' : ''}`,
    [businessId, id],
  );
  if (!rows[0]) throw new ApiError('REQUEST_7004', 'There is no such statement.');
  return numbers(rows[0]);
}

async function withLines(db: Queryable, s: StatementRow): Promise<BankStatement> {
  const lines = await db.query<LineRow>(
    `SELECT ${day('date')} AS date, description, amount, matched_entry_id, matched_transfer_id
       FROM bank_statement_lines WHERE statement_id = $1 ORDER BY line_no`,
    [s.id],
  );
  return { ...s, lines: lines.map((l) => ({ ...l, amount: Number(l.amount) })) } as BankStatement;
}

export async function getStatement(db: Queryable, businessId: string, id: string): Promise<BankStatement> {
  return withLines(db, await findStatement(db, businessId, id));
}

export async function listStatements(db: Queryable, businessId: string, bankAccountId?: string) {
  if (bankAccountId) await findBankAccount(db, businessId, bankAccountId);
  const rows = await db.query<StatementRow>(
    `SELECT ${COLUMNS} FROM bank_statements s
      WHERE s.business_id = $1 AND NOT s.deleted AND ($2::uuid IS NULL OR s.bank_account_id = $2::uuid)
      ORDER BY s.created_at DESC, s.id DESC`,
    [businessId, bankAccountId ?? null],
  );
  return { data: rows.map(numbers) };
}

/** Stores an uploaded statement (201, UPLOADED, no lines yet). */
export async function uploadStatement(
  tx: Queryable, user: ActingUser, q: { bank_account_id: string; file_name: string }, declared: string, bytes: Uint8Array, now: Date,
): Promise<BankStatement> {
  await findBankAccount(tx, user.business_id, q.bank_account_id);
  const content = checkFileContent(declared, bytes);
  if (!content.ok || !(STATEMENT_CONTENT_TYPES as readonly string[]).includes(content.contentType)) {
    throw new ApiError('BANKING_7005', content.ok ? undefined : `This statement could not be read. ${content.message}`);
  }
  const id = randomUUID();
  await tx.query(
    `INSERT INTO bank_statements (id, business_id, bank_account_id, file_name, content_type, size, sha256, bytes, uploaded_by, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $10)`,
    [id, user.business_id, q.bank_account_id, q.file_name, content.contentType, bytes.length,
      createHash('sha256').update(bytes).digest('hex'), bytes, user.id, now.toISOString()],
  );
  return getStatement(tx, user.business_id, id);
}

export async function readStatementFile(db: Queryable, businessId: string, id: string) {
  const rows = await db.query<{ id: string; content_type: string; size: number; bytes: Uint8Array }>(
    'SELECT id, content_type, size, bytes FROM bank_statements WHERE business_id = $1 AND id = $2 AND NOT deleted', [businessId, id],
  );
  if (!rows[0]) throw new ApiError('REQUEST_7004', 'There is no such statement.');
  return rows[0];
}

export function statementFileName(id: string, contentType: string): string {
  const ext = { 'image/jpeg': 'jpg', 'image/png': 'png', 'image/webp': 'webp', 'application/pdf': 'pdf' }[contentType] ?? 'bin';
  return `statement-${id}.${ext}`;
}

const dayNumber = (d: string) => Date.UTC(Number(d.slice(0, 4)), Number(d.slice(5, 7)) - 1, Number(d.slice(8, 10))) / 86_400_000;
const realDate = (d: string) => new Date(`${d}T00:00:00Z`).toISOString().slice(0, 10) === d;

type InputLine = { date: string; description: string; amount: number };
type Candidate = { id: string; date: string; amount: number; source_type: string | null; source_id: string | null };

/** Pairs lines with entries: same amount, within the window, closest dates first; each side once. */
export function matchLines(lines: readonly InputLine[], entries: readonly Candidate[]): (Candidate | null)[] {
  const pairs: { line: number; entry: Candidate; distance: number }[] = [];
  lines.forEach((l, i) => {
    for (const e of entries) {
      const distance = Math.abs(dayNumber(l.date) - dayNumber(e.date));
      if (e.amount === l.amount && distance <= MATCH_WINDOW_DAYS) pairs.push({ line: i, entry: e, distance });
    }
  });
  pairs.sort((a, b) => a.distance - b.distance || a.line - b.line || a.entry.date.localeCompare(b.entry.date) || a.entry.id.localeCompare(b.entry.id));
  const out: (Candidate | null)[] = lines.map(() => null);
  const taken = new Set<string>();
  for (const p of pairs) {
    if (out[p.line] || taken.has(p.entry.id)) continue;
    out[p.line] = p.entry;
    taken.add(p.entry.id);
  }
  return out;
}

function checkLines(body: { period_start?: string | null; period_end?: string | null; lines: readonly InputLine[] }): void {
  const errors: Record<string, string> = {};
  for (const field of ['period_start', 'period_end'] as const) {
    const v = body[field];
    if (v && !realDate(v)) errors[field] = `${field} must be a valid date`;
  }
  if (body.period_start && body.period_end && !errors.period_start && !errors.period_end && body.period_start > body.period_end) {
    errors.period_end = 'period_end must not be before period_start';
  }
  body.lines.forEach((l, i) => {
    if (!realDate(l.date)) errors[`lines.${i}.date`] ??= `lines.${i}.date must be a valid date`;
    if (l.amount === 0) errors[`lines.${i}.amount`] = `lines.${i}.amount must not be zero`;
    else if (Math.abs(l.amount) > MAX_LINE_AMOUNT) errors[`lines.${i}.amount`] = `lines.${i}.amount is too large`;
  });
  if (Object.keys(errors).length > 0) throw validationError(errors);
}

/** Replaces the statement's lines (READ) and matches them to the bank account's ledger entries. */
export async function putStatementLines(
  tx: Queryable, businessId: string, id: string,
  body: { period_start?: string | null; period_end?: string | null; lines: readonly InputLine[] }, now: Date,
): Promise<BankStatement> {
  checkLines(body);
  const current = await findStatement(tx, businessId, id);
  const periodStart = body.period_start === undefined ? current.period_start : body.period_start;
  const periodEnd = body.period_end === undefined ? current.period_end : body.period_end;
  if (periodStart && periodEnd && periodStart > periodEnd) throw validationError({ period_end: 'period_end must not be before period_start' });
  // Lock order: the bank account (serialises matching on its entries), then the statement.
  await findBankAccount(tx, businessId, current.bank_account_id, true);
  await findStatement(tx, businessId, id, true);
  const ledger = await bankLedgerAccount(tx, businessId, current.bank_account_id);
  let entries: Candidate[] = [];
  if (body.lines.length > 0) {
    const dates = body.lines.map((l) => l.date).sort();
    const rows = await tx.query<Candidate>(
      `SELECT e.id, ${day('e.effective_date')} AS date, sum(p.amount) AS amount, e.source_type, e.source_id
         FROM postings p JOIN journal_entries e ON e.id = p.entry_id
        WHERE p.business_id = $1 AND p.account_id = $2
          AND e.effective_date BETWEEN $3::date - ${MATCH_WINDOW_DAYS} AND $4::date + ${MATCH_WINDOW_DAYS}
          AND NOT EXISTS (SELECT 1 FROM bank_statement_lines l WHERE l.matched_entry_id = e.id AND l.statement_id <> $5)
        GROUP BY e.id, e.effective_date, e.source_type, e.source_id
       HAVING sum(p.amount) <> 0`,
      [businessId, ledger.id, dates[0], dates[dates.length - 1], id],
    );
    entries = rows.map((r) => ({ ...r, amount: Number(r.amount) }));
  }
  const matches = matchLines(body.lines, entries);
  await tx.query('DELETE FROM bank_statement_lines WHERE statement_id = $1', [id]);
  if (body.lines.length > 0) {
    await tx.query(
      `INSERT INTO bank_statement_lines (business_id, statement_id, line_no, date, description, amount, matched_entry_id, matched_transfer_id)
       SELECT $1, $2, l.n - 1, l.d, l.descr, l.amount, l.entry, l.transfer
         FROM unnest($3::date[], $4::text[], $5::bigint[], $6::uuid[], $7::uuid[]) WITH ORDINALITY AS l(d, descr, amount, entry, transfer, n)`,
      [businessId, id, body.lines.map((l) => l.date), body.lines.map((l) => l.description), body.lines.map((l) => l.amount),
        matches.map((m) => m?.id ?? null), matches.map((m) => (m?.source_type === 'wallet_transfer' ? m.source_id : null))],
    );
  }
  await tx.query(
    `UPDATE bank_statements SET status = 'READ', updated_at = $3, period_start = $4::date, period_end = $5::date
      WHERE business_id = $1 AND id = $2`,
    [businessId, id, now.toISOString(), periodStart, periodEnd],
  );
  return getStatement(tx, businessId, id);
}

/** A tombstone: the bytes and the lines (so their entries can match another statement) go. */
export async function deleteStatement(tx: Queryable, businessId: string, id: string, now: Date): Promise<{ id: string; deleted: true }> {
  await findStatement(tx, businessId, id, true);
  await tx.query('DELETE FROM bank_statement_lines WHERE statement_id = $1', [id]);
  await tx.query(
    `UPDATE bank_statements SET deleted = true, bytes = NULL, updated_at = $3 WHERE business_id = $1 AND id = $2`,
    [businessId, id, now.toISOString()],
  );
  return { id, deleted: true };
}
