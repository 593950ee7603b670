import { z } from 'zod';
import { advisorRightsSchema, type AdvisorRight } from './entities/external-firm.ts';
import type { ProposalStatus } from './entities/firm-proposal.ts';

/**
 * Proposals between a firm and a client business (issue 31, §4 "proposals created, validated,
 * accepted, rejected or revoked"): DRAFT →validate→ PENDING →accept→ ACCEPTED | →reject→ REJECTED;
 * DRAFT|PENDING →revoke→ REVOKED. The firm validates and revokes; the receiving side accepts or
 * rejects (the client for FIRM_TO_BUSINESS, the firm for BUSINESS_TO_FIRM).
 */
export type ProposalAction = 'validate' | 'accept' | 'reject' | 'revoke';
export type ProposalSide = 'proposer' | 'receiver';

const NEXT: Record<ProposalAction, { from: readonly ProposalStatus[]; to: ProposalStatus; by: ProposalSide }> = {
  validate: { from: ['DRAFT'], to: 'PENDING', by: 'proposer' },
  revoke: { from: ['DRAFT', 'PENDING'], to: 'REVOKED', by: 'proposer' },
  accept: { from: ['PENDING'], to: 'ACCEPTED', by: 'receiver' },
  reject: { from: ['PENDING'], to: 'REJECTED', by: 'receiver' },
};

/**
 * The status an action leads to, or null when the proposal's status does not allow it (FIRM_7002,
 * nothing written) or the side may not take it (the caller answers 404: not its proposal to decide).
 */
export function proposalTransition(status: ProposalStatus, action: ProposalAction, side: ProposalSide): ProposalStatus | 'FIRM_7002' | 'NOT_YOURS' {
  const rule = NEXT[action];
  if (rule.by !== side) return 'NOT_YOURS';
  return rule.from.includes(status) ? rule.to : 'FIRM_7002';
}

/** FIRM_7002's words: what the proposal was and what was asked. */
export function proposalRefusalMessage(status: ProposalStatus, action: ProposalAction): string {
  const was: Record<ProposalStatus, string> = {
    DRAFT: 'still a draft', PENDING: 'already sent', ACCEPTED: 'accepted', REJECTED: 'rejected', REVOKED: 'revoked',
  };
  const verb: Record<ProposalAction, string> = { validate: 'sent', accept: 'accepted', reject: 'rejected', revoke: 'revoked' };
  return `This proposal was ${was[status]} and can't be ${verb[action]}.`;
}

export const CSV_MAX_ROWS = 200;
export const clientProposalRowSchema = z.object({
  client_email: z.email().max(254),
  client_name: z.string().trim().min(1).max(200),
  rights: advisorRightsSchema,
});
export type ClientProposalRow = z.infer<typeof clientProposalRowSchema>;
export type CsvRowResult = { line: number; body?: ClientProposalRow; errors?: Record<string, string> };

/** One CSV line split into cells: commas, double-quoted cells with "" for a quote. */
function cells(line: string): string[] {
  const out: string[] = [];
  let cur = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (quoted) {
      if (ch === '"' && line[i + 1] === '"') { cur += '"'; i++; } else if (ch === '"') quoted = false; else cur += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') { out.push(cur); cur = ''; } else cur += ch;
  }
  out.push(cur);
  return out.map((c) => c.trim());
}

const HEADER = ['client_email', 'client_name', 'rights'] as const;

/** Rights as a cell: `READ;CODE` (or `READ CODE`); a row without READ is refused, never completed. */
function rightsOf(cell: string): string[] {
  return cell.split(/[;|\s]+/).map((r) => r.trim().toUpperCase()).filter(Boolean);
}

/**
 * Parses the clients CSV of a bulk proposal (header `client_email,client_name,rights`; rights
 * separated by `;`): every row's body, or its errors by column; an address repeated within the
 * file is refused on each later line (as the vendor upload refuses a repeated name). Line numbers
 * count the header as line 1. A missing or wrong header answers one error on line 1.
 */
export function parseClientsCsv(csv: string): CsvRowResult[] {
  const lines = csv.replace(/^\uFEFF/, '').split(/\r?\n/);
  const header = cells(lines[0] ?? '').map((h) => h.toLowerCase());
  if (HEADER.some((h, i) => header[i] !== h) || header.length !== HEADER.length) {
    return [{ line: 1, errors: { header: `the first line must be ${HEADER.join(',')}` } }];
  }
  const seen = new Map<string, number>();
  const results: CsvRowResult[] = [];
  lines.slice(1).forEach((text, i) => {
    const line = i + 2;
    if (text.trim() === '') return;
    const [email = '', name = '', rights = ''] = cells(text);
    const input = { client_email: email, client_name: name, rights: rightsOf(rights) };
    const parsed = clientProposalRowSchema.safeParse(input);
    const errors: Record<string, string> = {};
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const field = String(issue.path[0] ?? 'row');
        errors[field] ??= field === 'rights' ? 'rights must be READ, CODE or CLOSE_BOOKS (with READ), separated by ;' : `${field} must be a valid ${field === 'client_email' ? 'email' : 'name'}`;
      }
    }
    const key = email.toLowerCase();
    const first = seen.get(key);
    if (first !== undefined && key !== '') errors.client_email = `client_email repeats line ${first}`;
    else if (key !== '') seen.set(key, line);
    results.push(Object.keys(errors).length > 0 || !parsed.success ? { line, errors } : { line, body: parsed.data });
  });
  return results;
}

/** Rights narrowed by a client on accept: a subset of the proposal's, READ kept. */
export function narrowedRights(proposed: readonly AdvisorRight[], asked: readonly AdvisorRight[] | undefined): AdvisorRight[] | null {
  if (!asked) return [...proposed];
  if (!asked.includes('READ') || asked.some((r) => !proposed.includes(r))) return null;
  return [...asked];
}
