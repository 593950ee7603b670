import {
  clientFirmsEnd, clientFirmsList, clientProposalsAccept, clientProposalsCreate, clientProposalsList, clientProposalsReject, clientsList,
  clientsOpen, proposalsBulk, proposalsCreate, proposalsCsvParse, proposalsList, proposalsRevoke, proposalsValidate,
} from '../../schema/api/calls-external-firm-proposals.ts';
import { firmApply, firmApplyVerify, firmGet } from '../../schema/api/calls-external-firm-console.ts';
import { listAuditLog, type AuditLogRow } from '../../schema/api/calls-audit-log.ts';
import type { AdvisorRight, FirmClient, FirmView } from '../../schema/entities/external-firm.ts';
import type { FirmAuthorization } from '../../schema/entities/firm-authorization.ts';
import type { FirmProposal } from '../../schema/entities/firm-proposal.ts';
import type { SwitchScopeResult } from '../contracts/session.ts';
import type { FinishSignIn } from './application.ts';
import { bindDomain, custom, offlineFailure, onlineDomain, via, type OnlineApi, type OnlinePort } from '../online.ts';
import type { OnlineFailure } from '../contracts/views.ts';

export type { AdvisorRight, AuditLogRow, FirmAuthorization, FirmClient, FirmProposal, FirmView };
export type ConsoleProposalInput = { client_email: string; client_name: string; rights: AdvisorRight[]; firm_user_ids: string[] };

/** Refused before any request: the console's lists and changes live on the server. */
export const CONSOLE_OFFLINE = offlineFailure('You’re offline. This needs a connection: nothing was sent.');

/** How many clients one page of the console asks for. */
export const CLIENTS_PAGE_SIZE = 25;

/**
 * Issue 31, the advisor console's calls (schema/api/calls-external-firm*.ts, ADVISOR_CONSOLE
 * token) and the client business's side of them (Settings → Accounting firms, BUSINESS token,
 * admins). Online only: the UI keeps the last answer with its time for offline reads.
 */
export const ADVISOR_CONSOLE_CALLS = onlineDomain(CONSOLE_OFFLINE, {
  /** The firm, the caller as a firm user, its members and open invites. */
  consoleFirm: via(firmGet, () => ({}), (firm: FirmView) => ({ firm })),
  /** One page of the firm's clients with their open items; `start` from the previous page's `next`. */
  consoleClients: via(clientsList, (start?: string) => ({ query: { page_size: CLIENTS_PAGE_SIZE, ...(start ? { start } : {}) } }),
    (d) => ({ rows: d.data as FirmClient[], next: d.page.next })),
  consoleProposals: via(proposalsList, () => ({ query: {} }), (d) => ({ rows: d.data as FirmProposal[] })),
  /** A draft proposal (not sent until validated). */
  consoleCreateProposal: via(proposalsCreate, (body: ConsoleProposalInput) => ({ body }), (proposal: FirmProposal) => ({ proposal })),
  /** A CSV of many clients checked by the server: each line's proposal body or its errors by field. */
  consoleParseCsv: via(proposalsCsvParse, (csv: string) => ({ body: { csv } }), (d) => ({ rows: d.rows })),
  consoleValidateProposal: via(proposalsValidate, (id: string) => ({ params: { proposal_id: id } }), (proposal: FirmProposal) => ({ proposal })),
  consoleRevokeProposal: via(proposalsRevoke, (id: string) => ({ params: { proposal_id: id } }), (proposal: FirmProposal) => ({ proposal })),
  /** Many at once: each id answers on its own (one refused does not stop the others). */
  consoleBulkProposals: via(proposalsBulk, (action: 'validate' | 'revoke', ids: string[]) => ({ body: { action, ids } }),
    (d) => ({ results: d.results.map((r) => (r.ok ? { id: r.id, ok: true as const } : { id: r.id, ok: false as const, message: r.error_v2.message })) })),
  // The client business's side (main app, admins).
  firmProposalsForBusiness: via(clientProposalsList, () => ({}), (d) => ({ rows: d.data as FirmProposal[] })),
  acceptFirmProposal: via(clientProposalsAccept, (id: string, rights?: AdvisorRight[]) => ({ params: { proposal_id: id }, body: rights ? { rights } : {} }),
    (proposal: FirmProposal) => ({ proposal })),
  rejectFirmProposal: via(clientProposalsReject, (id: string) => ({ params: { proposal_id: id } }), (proposal: FirmProposal) => ({ proposal })),
  proposeToFirm: via(clientProposalsCreate, (email: string, rights: AdvisorRight[]) => ({ body: { firm_admin_email: email, rights } }),
    (proposal: FirmProposal) => ({ proposal })),
  businessFirms: via(clientFirmsList, () => ({}), (d) => ({ rows: d.data as FirmAuthorization[] })),
  endFirmAccess: via(clientFirmsEnd, (authorizationId: string) => ({ params: { authorization_id: authorizationId } }),
    (authorization: FirmAuthorization) => ({ authorization })),
  /** Settings → Activity (admins): one page of the audit log, newest first; `call` narrows to one call id. */
  auditLog: via(listAuditLog, (start?: string, call?: string) => ({ query: { page_size: 50, ...(start ? { start } : {}), ...(call ? { call } : {}) } }),
    (d) => ({ rows: d.data as AuditLogRow[], next: d.page.next })),
});

type ConsoleDomainApi = OnlineApi<typeof ADVISOR_CONSOLE_CALLS>;
export interface AdvisorConsoleApi extends ConsoleDomainApi {
  /**
   * Opens a client: the server's token for the business acting for the firm, completed as a
   * sign-in (the business's mirror opens; the acting bar's "Back to console" returns).
   */
  openClient(businessId: string): Promise<SwitchScopeResult>;
  /** `/console/apply`: the firm application (always accepted: a code is mailed whether or not the email has an account). */
  firmApply(body: { firm_name: string; email: string; first_name: string; last_name: string }): Promise<{ ok: true } | OnlineFailure>;
  /** The mailed code: signed in to the console, or to the firm application when screening holds it. */
  firmApplyVerify(email: string, code: string): Promise<SwitchScopeResult>;
}

/** What the console's calls read of the worker: the online port, and the stored session's email. */
type ConsolePort = OnlinePort & { readonly stored: { readonly session: object } | null };

export function advisorConsoleHandlers(ctx: ConsolePort, finishSignIn: FinishSignIn): AdvisorConsoleApi {
  const open = custom((send) => async (businessId: string): Promise<SwitchScopeResult> => {
    const r = await send(clientsOpen, { params: { business_id: businessId } });
    if (!r.ok) return { ok: false, error: r.error };
    const email = (ctx.stored?.session as { email?: string | null } | undefined)?.email ?? null;
    const done = await finishSignIn(r.data.id_token, r.data.mfa_required, email);
    return done.ok ? { ok: true, session: done.session, left_behind: null } : done;
  });
  const verify = custom((send) => async (email: string, code: string): Promise<SwitchScopeResult> => {
    const r = await send(firmApplyVerify, { body: { email, code } });
    if (!r.ok) return { ok: false, error: r.error };
    const done = await finishSignIn(r.data.id_token, r.data.mfa_required, email);
    return done.ok ? { ok: true, session: done.session, left_behind: null } : done;
  });
  const apply = via(firmApply, (body: { firm_name: string; email: string; first_name: string; last_name: string }) => ({ body }));
  const domain = onlineDomain(CONSOLE_OFFLINE, { ...ADVISOR_CONSOLE_CALLS.methods, openClient: open, firmApply: apply, firmApplyVerify: verify });
  return bindDomain(ctx, domain);
}
