import type { z } from 'zod';
import {
  APPLICATION_ID_HEADER, applicationAccountsDelete, applicationBankAccounts, applicationBusinessDetails, applicationCheckbox,
  applicationCompany, applicationDocumentRequests, applicationFinancialDetails, applicationGet, applicationInviteApplicant, applicationInviteDelete, applicationKybDocuments,
  applicationKybPageDelete, applicationKybPageUpload, applicationKycDocuments, applicationKycIndividual, applicationKycPageDelete,
  applicationKycPageUpload, applicationLeadership, applicationOwnerships, applicationOwnershipsDelete, applicationProducts,
  applicationStart, applicationSubmit, applicationSurvey, applicationVerify,
} from '../../schema/api/calls-application-steps.ts';
import type { FinancingApplication, documentRequestSchema } from '../../schema/entities/financing-application.ts';
import type { SignInResult } from '../contracts/session.ts';
import { bindDomain, custom, offlineFailure, onlineDomain, via, type OnlineApi, type OnlinePort } from '../online.ts';
import type { OnlineFailure } from '../contracts/views.ts';

export type { FinancingApplication };
export type ApplicationDocumentRequest = z.infer<typeof documentRequestSchema>;
/** A step the client saves as one call: the design's step keys, a KYC individual as `kyc:<id>`. */
export type ApplicationStepKey =
  | 'business_details' | 'financial_details' | 'company' | 'leadership' | 'ownerships' | 'products' | 'bank_accounts' | 'checkbox'
  | `kyc:${string}`;
export type ApplicationSaved = { ok: true; application: FinancingApplication } | OnlineFailure;

/** Refused before any request. The application's answers are kept on this device meanwhile (the UI's draft store). */
export const APPLICATION_OFFLINE = offlineFailure('You’re offline. Your answers are saved on this device and are sent when you’re back online.');

/** The application's header on every step call (checked equal to the token's application). */
const h = (appId: string) => ({ [APPLICATION_ID_HEADER]: appId });
const draftOf = (application: FinancingApplication) => ({ application });

const STEP_CALLS = {
  business_details: applicationBusinessDetails,
  financial_details: applicationFinancialDetails,
  company: applicationCompany,
  leadership: applicationLeadership,
  ownerships: applicationOwnerships,
  products: applicationProducts,
  bank_accounts: applicationBankAccounts,
  checkbox: applicationCheckbox,
} as const;

/**
 * Issue 31, the financing application's calls (schema/api/calls-application-steps.ts; surface
 * FINANCING_APPLICATION): start and the mailed code (public), then the steps with the application
 * id header and the version as If-Match. Online only: drafts wait on the page's side.
 */
export const APPLICATION_CALLS = onlineDomain(APPLICATION_OFFLINE, {
  applicationStart: via(applicationStart, (body: { email: string; first_name: string; last_name: string; referral_code?: string }) => ({ body })),
  application: via(applicationGet, (appId: string) => ({ headers: h(appId) }), draftOf),
  /** One step's answers, against `version` (409 CONFLICT when the application changed since). */
  saveApplicationStep: custom((send) => async (appId: string, step: ApplicationStepKey, body: unknown, version?: number): Promise<ApplicationSaved> => {
    const base = { headers: h(appId), ...(version === undefined ? {} : { ifMatch: version }), idempotencyKey: `${appId}:${step}:${version ?? 'any'}` };
    const r = step.startsWith('kyc:')
      ? await send(applicationKycIndividual, { ...base, params: { kyc_individual_uuid: step.slice(4) }, body: body as never })
      : await send(STEP_CALLS[step as keyof typeof STEP_CALLS], { ...base, body: body as never });
    return r.ok ? { ok: true, application: r.data } : r;
  }),
  deleteApplicationOwners: via(applicationOwnershipsDelete, (appId: string, ids: string[]) => ({ headers: h(appId), body: { ids } }), draftOf),
  deleteApplicationAccount: via(applicationAccountsDelete, (appId: string, accountId: string) => ({ headers: h(appId), params: { account_id: accountId } }), draftOf),
  /** Adds (no id) documents of a type: KYB for the business, KYC for one person. */
  addApplicationDocument: custom((send) => async (appId: string, docType: string, kycIndividualId: string | null): Promise<ApplicationSaved> => {
    const r = kycIndividualId
      ? await send(applicationKycDocuments, { headers: h(appId), body: { documents: [{ doc_type: docType, kyc_individual_id: kycIndividualId }] } })
      : await send(applicationKybDocuments, { headers: h(appId), body: { documents: [{ doc_type: docType }] } });
    return r.ok ? { ok: true, application: r.data } : r;
  }),
  uploadApplicationPage: custom((send) => async (appId: string, kind: 'KYB' | 'KYC', documentId: string, file: Blob): Promise<ApplicationSaved> => {
    const opts = { headers: h(appId), params: { document_id: documentId }, file: { body: file, contentType: file.type } };
    const r = kind === 'KYB' ? await send(applicationKybPageUpload, opts) : await send(applicationKycPageUpload, opts);
    return r.ok ? { ok: true, application: r.data } : r;
  }),
  deleteApplicationPage: custom((send) => async (appId: string, kind: 'KYB' | 'KYC', documentId: string, page: number): Promise<ApplicationSaved> => {
    const opts = { headers: h(appId), params: { document_id: documentId, page } };
    const r = kind === 'KYB' ? await send(applicationKybPageDelete, opts) : await send(applicationKycPageDelete, opts);
    return r.ok ? { ok: true, application: r.data } : r;
  }),
  submitApplication: via(applicationSubmit, (appId: string) => ({ headers: h(appId), body: {} }), (d) => ({ result: d })),
  applicationSurvey: via(applicationSurvey, (appId: string, body: { heard_from: string; rating: number; comment?: string }) => ({ headers: h(appId), body })),
  /** Asks someone (by email) to help with the application, optionally filling one person's identity check; mails them a link. */
  inviteApplicant: via(applicationInviteApplicant, (appId: string, email: string, kycIndividualId?: string) => ({
    headers: h(appId), body: { email, ...(kycIndividualId ? { kyc_individual_uuid: kycIndividualId } : {}) },
  }), draftOf),
  /** Withdraws an invite not yet accepted (its link stops working). */
  deleteApplicationInvite: via(applicationInviteDelete, (appId: string, inviteId: string) => ({ headers: h(appId), params: { invite_id: inviteId } }), draftOf),
  applicationDocumentRequests: via(applicationDocumentRequests, (appId: string) => ({ headers: h(appId) }), (d) => ({ requests: d.requests })),
});

export type ApplicationApi = OnlineApi<typeof APPLICATION_CALLS> & {
  /** The mailed code: signs in to the application (a surface token; MFA as the identity asks). */
  applicationVerify(email: string, code: string, opts?: ApplicationVerifyOptions): Promise<SignInResult>;
};
/** An invite's link (joins that application as a co-applicant), or the application to resume. */
export interface ApplicationVerifyOptions { inviteToken?: string; financingApplicationId?: string }

/** Finishes a sign-in with a surface's token (handlers/session.ts `afterPasswordSignIn`, handed in by data-service.ts: importing it here would loop through api.ts). */
export type FinishSignIn = (token: string, mfaRequired: boolean, email: string | null) => Promise<SignInResult>;

export function applicationHandlers(ctx: OnlinePort, finishSignIn: FinishSignIn): ApplicationApi {
  return {
    ...bindDomain(ctx, APPLICATION_CALLS),
    async applicationVerify(email, code, opts = {}) {
      if (!ctx.hub.online) return { ok: false, error: APPLICATION_OFFLINE.error };
      const body = {
        email, code,
        ...(opts.inviteToken ? { invite_token: opts.inviteToken } : {}),
        ...(opts.financingApplicationId ? { financing_application_id: opts.financingApplicationId } : {}),
      };
      const res = await ctx.requireHttp().call(applicationVerify, { body });
      if (!res.ok) return { ok: false, error: res.error };
      return finishSignIn(res.data.id_token, res.data.mfa_required, email);
    },
  };
}
