import {
  assignmentsDelete, clientFirmsEnd, clientFirmsList, clientProposalsAccept, clientProposalsCreate, clientProposalsList, clientProposalsReject,
  clientsList, clientsOpen, proposalsBulk, proposalsCreate, proposalsCsvParse, proposalsList, proposalsRevoke, proposalsValidate,
} from '../../schema/api/calls-external-firm-proposals.ts';
import {
  firmApplicationGet, firmApply, firmApplyVerify, firmGet, firmInvitesAccept, firmInvitesAcceptSignedIn, firmInvitesCreate, firmInvitesDelete,
  firmInvitesResend, firmUsersDelete,
} from '../../schema/api/calls-external-firm-console.ts';
import { logoDelete, logoGet, logoPut } from '../../schema/api/calls-external-firm-logo.ts';
import { businessReferrals, referralsCreate, referralsDelete, referralsList } from '../../schema/api/calls-external-firm-referrals.ts';
import {
  firmApplicationsList, firmApplicationsPut, firmApplicationsWithdraw, type FirmClientApplication,
} from '../../schema/api/calls-financing-starts.ts';
import { listAuditLog, type AuditLogRow } from '../../schema/api/calls-audit-log.ts';
import type {
  AdvisorRight, Firm, FirmApplication, FirmClient, FirmInvite, FirmReferral, FirmUser, FirmUserRole, FirmView,
} from '../../schema/entities/external-firm.ts';
import type { FirmAuthorization } from '../../schema/entities/firm-authorization.ts';
import type { FirmProposal } from '../../schema/entities/firm-proposal.ts';
import type { SwitchScopeResult } from '../contracts/session.ts';
import type { SignInResult } from '../contracts/session.ts';
import type { FinishSignIn } from './application.ts';
import { answerOf, bindDomain, custom, offlineFailure, onlineDomain, via, type OnlineApi, type OnlinePort } from '../online.ts';
import type { OnlineFailure } from '../contracts/views.ts';

export type {
  AdvisorRight, AuditLogRow, Firm, FirmApplication, FirmAuthorization, FirmClient, FirmClientApplication, FirmInvite, FirmProposal,
  FirmReferral, FirmUser, FirmUserRole, FirmView,
};
export type ConsoleApplicationInput = {
  id: string; client_name: string; applicant_email: string; applicant_first_name: string; applicant_last_name: string;
};
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
  /** Team (admins): invite by email with a role, send the invite again, withdraw it, remove a member, unassign one from a client. */
  consoleInvite: via(firmInvitesCreate, (email: string, role: FirmUserRole) => ({ body: { email, role } }), (invite: FirmInvite) => ({ invite })),
  consoleResendInvite: via(firmInvitesResend, (id: string) => ({ params: { invite_id: id } }), (invite: FirmInvite) => ({ invite })),
  consoleWithdrawInvite: via(firmInvitesDelete, (id: string) => ({ params: { invite_id: id } }), (invite: FirmInvite) => ({ invite })),
  consoleRemoveMember: via(firmUsersDelete, (id: string) => ({ params: { firm_user_id: id } }), (user: FirmUser) => ({ user })),
  consoleUnassign: via(assignmentsDelete, (authorizationId: string, firmUserId: string) => ({
    params: { authorization_id: authorizationId, firm_user_id: firmUserId },
  })),
  /** Referral codes (admins). */
  consoleReferrals: via(referralsList, () => ({}), (d) => ({ rows: d.data as FirmReferral[] })),
  consoleCreateReferral: via(referralsCreate, (label: string) => ({ body: { label } }), (referral: FirmReferral) => ({ referral })),
  consoleDeleteReferral: via(referralsDelete, (id: string) => ({ params: { referral_id: id } }), (referral: FirmReferral) => ({ referral })),
  /** Financing applications the firm started for clients (admins); the `id` is the client's, so a retry is the same application. */
  consoleApplications: via(firmApplicationsList, () => ({}), (d) => ({ rows: d.data as FirmClientApplication[] })),
  consoleStartApplication: via(firmApplicationsPut, (body: ConsoleApplicationInput) => ({ body }), (application: FirmClientApplication) => ({ application })),
  consoleWithdrawApplication: via(firmApplicationsWithdraw, (id: string) => ({ params: { financing_application_id: id } }),
    (application: FirmClientApplication) => ({ application })),
  /** The firm applicant's own application (ADVISOR_CONSOLE_APPLICATION token). */
  consoleFirmApplication: via(firmApplicationGet, () => ({}), (application: FirmApplication) => ({ application })),
  /** The firm's logo removed (admins). */
  consoleRemoveLogo: via(logoDelete, () => ({}), (firm: Firm) => ({ firm })),
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
  /** Settings → Accounting firms: the firm whose referral code this business applied with (null: none). Not for a firm's own users. */
  businessReferral: via(businessReferrals, () => ({}), (d) => ({ firm: d.referred_by_firm })),
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
  /** The firm's logo as a Blob (null when the firm has none: 404). */
  consoleLogo(): Promise<{ ok: true; file: Blob | null } | OnlineFailure>;
  /** A PNG or JPEG ≤ 512 KB as the firm's logo (admins); the server checks the bytes. */
  consolePutLogo(file: Blob): Promise<{ ok: true; firm: Firm } | OnlineFailure>;
  /** The mailed invite link (public): a new identity with these names and password joins the firm; signs in to the console. */
  acceptFirmInvite(token: string, body: { password: string; first_name: string; last_name: string }): Promise<SignInResult>;
  /** Signed in as the invite's email: that identity joins the firm; signs in to the console. */
  acceptFirmInviteSignedIn(token: string, body: { first_name: string; last_name: string }): Promise<SignInResult>;
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
  const logo = custom((_send, port, offline) => async (): Promise<{ ok: true; file: Blob | null } | OnlineFailure> => {
    if (!port.hub.online) return offline;
    const r = answerOf(port, await port.requireHttp().blob(logoGet, {}), offline);
    if (r.ok) return { ok: true, file: r.data };
    return 'offline' in r || r.error.error_code !== 'REQUEST_7004' ? r : { ok: true, file: null };
  });
  const putLogo = custom((send) => async (file: Blob): Promise<{ ok: true; firm: Firm } | OnlineFailure> => {
    const r = await send(logoPut, { file: { body: file, contentType: file.type } });
    return r.ok ? { ok: true, firm: r.data } : r;
  });
  const accept = custom((send) => async (token: string, body: { password: string; first_name: string; last_name: string }): Promise<SignInResult> => {
    const r = await send(firmInvitesAccept, { params: { token }, body });
    return r.ok ? finishSignIn(r.data.id_token, r.data.mfa_required, null) : { ok: false, error: r.error };
  });
  const acceptSignedIn = custom((send) => async (token: string, body: { first_name: string; last_name: string }): Promise<SignInResult> => {
    const r = await send(firmInvitesAcceptSignedIn, { params: { token }, body });
    return r.ok ? finishSignIn(r.data.id_token, r.data.mfa_required, null) : { ok: false, error: r.error };
  });
  const domain = onlineDomain(CONSOLE_OFFLINE, {
    ...ADVISOR_CONSOLE_CALLS.methods, openClient: open, firmApply: apply, firmApplyVerify: verify,
    consoleLogo: logo, consolePutLogo: putLogo, acceptFirmInvite: accept, acceptFirmInviteSignedIn: acceptSignedIn,
  });
  return bindDomain(ctx, domain);
}
