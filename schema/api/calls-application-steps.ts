import { z } from 'zod';
import { defineCall, uploadBodySchema } from './define-call.ts';
import { callGroup } from './call-group.ts';
import {
  bankAccountInputSchema, businessDetailsSchema, checkboxSchema, companySchema, documentRequestSchema, financialDetailsSchema,
  financingApplicationSchema, kycIndividualInputSchema, leadershipSchema, ownerInputSchema, productsSchema,
} from '../entities/financing-application.ts';
import { uuid } from '../entities/common.ts';

/**
 * Issue 31, §7 "Application and onboarding" (docs/design/issue-31-surfaces.md §2.4): the steps of
 * a financing application. Surface FINANCING_APPLICATION, scope `email-otp` (§6: the token
 * application.verify mints carries it for 12 h); every call sends `X-RAMP-FINANCING-APPLICATION-ID`,
 * checked equal to the token's application (404 otherwise). Each write answers the whole draft.
 */
export const APPLICATION_ID_HEADER = 'X-RAMP-FINANCING-APPLICATION-ID';
export const APPLICATION_CODE_TTL_SECONDS = 10 * 60;
/** The application token's life (lead's decision 2): its `email-otp` lasts as long. */
export const APPLICATION_TOKEN_TTL_SECONDS = 12 * 60 * 60;
const APPLICATION_PAGE_CONTENT_TYPES = ['application/pdf', 'image/png', 'image/jpeg'] as const;
const APPLICATION_PAGE_MAX_BYTES = 10 * 1024 * 1024;
export const MAX_PAGES_PER_DOCUMENT = 20;

const surfaces = ['FINANCING_APPLICATION'] as const;
const step = callGroup('/v1/auth/application', { scopes: ['email-otp'] });
const draft = financingApplicationSchema;

export const applicationStart = defineCall({
  id: 'application.start',
  method: 'POST',
  path: '/v1/public/application/start',
  auth: 'public',
  body: z.object({
    email: z.email().max(320),
    first_name: z.string().trim().min(1).max(100),
    last_name: z.string().trim().min(1).max(100),
    referral_code: z.string().trim().min(1).max(64).optional(),
  }),
  response: z.null(),
});
export const applicationVerify = defineCall({
  id: 'application.verify',
  method: 'POST',
  path: '/v1/public/application/verify',
  auth: 'public',
  body: z.object({
    email: z.email().max(320),
    code: z.string().regex(/^\d{6}$/, 'must be the 6-digit code'),
    financing_application_id: uuid.optional(),
    /** An invite's token (application.inviteApplicant's link): joins that application as a co-applicant. */
    invite_token: z.string().min(16).max(128).optional(),
  }),
  response: z.object({ id_token: z.string(), mfa_required: z.boolean(), financing_application_id: uuid }),
});

export const applicationGet = step('application.get', 'GET', '', { surfaces, response: draft });
export const applicationPatch = step('application.patch', 'PATCH', '', {
  surfaces,
  body: z.object({ business_name: z.string().trim().min(1).max(200).optional(), current_step: z.string().trim().min(1).max(64).optional() }),
  response: draft,
});
export const applicationBusinessDetails = step('application.businessDetails', 'PATCH', '/business-details', { surfaces, body: businessDetailsSchema, response: draft });
export const applicationFinancialDetails = step('application.financialDetails', 'PATCH', '/financial-details', { surfaces, body: financialDetailsSchema, response: draft });
export const applicationCompany = step('application.company', 'PATCH', '/company', { surfaces, body: companySchema, response: draft });
export const applicationLeadership = step('application.leadership', 'PATCH', '/leadership', { surfaces, body: leadershipSchema, response: draft });
export const applicationOwnerships = step('application.ownerships', 'PATCH', '/ownerships', {
  surfaces,
  body: z.object({ owners: z.array(ownerInputSchema).min(1).max(10) }),
  response: draft,
});
export const applicationOwnershipsDelete = step('application.ownerships.delete', 'DELETE', '/ownerships', {
  surfaces,
  body: z.object({ ids: z.array(uuid).min(1).max(10) }),
  response: draft,
});
export const applicationKycIndividual = step('application.kycIndividual', 'PATCH', '/kyc-individual/:kyc_individual_uuid', {
  surfaces,
  params: z.object({ kyc_individual_uuid: uuid }),
  body: kycIndividualInputSchema,
  response: draft,
});
export const applicationCheckbox = step('application.checkbox', 'PATCH', '/checkbox', { surfaces, body: checkboxSchema, response: draft });
export const applicationProducts = step('application.products', 'PATCH', '/products', { surfaces, body: productsSchema, response: draft });
export const applicationBankAccounts = step('application.bankAccounts', 'PATCH', '/bank-accounts', {
  surfaces,
  body: z.object({ accounts: z.array(bankAccountInputSchema).min(1).max(3) }),
  response: draft,
});
export const applicationAccountsDelete = step('application.accounts.delete', 'DELETE', '/accounts/:account_id', {
  surfaces,
  params: z.object({ account_id: uuid }),
  response: draft,
});

const docType = z.string().trim().min(1).max(64);
export const applicationKybDocuments = step('application.kybDocuments', 'PATCH', '/kyb-documents', {
  surfaces,
  body: z.object({ documents: z.array(z.object({ id: uuid.optional(), doc_type: docType })).min(1).max(10) }),
  response: draft,
});
export const applicationKycDocuments = step('application.kycDocuments', 'PATCH', '/kyc-documents', {
  surfaces,
  body: z.object({ documents: z.array(z.object({ id: uuid.optional(), doc_type: docType, kyc_individual_id: uuid })).min(1).max(20) }),
  response: draft,
});
const pageUpload = { contentTypes: APPLICATION_PAGE_CONTENT_TYPES, maxBytes: APPLICATION_PAGE_MAX_BYTES };
export const applicationKybPageUpload = step('application.kybDocuments.uploadPage', 'POST', '/kyb-documents/:document_id/pages', {
  surfaces, params: z.object({ document_id: uuid }), body: uploadBodySchema, upload: pageUpload, response: draft,
});
export const applicationKycPageUpload = step('application.kycDocuments.uploadPage', 'POST', '/kyc-documents/:document_id/pages', {
  surfaces, params: z.object({ document_id: uuid }), body: uploadBodySchema, upload: pageUpload, response: draft,
});
const pageParams = z.object({ document_id: uuid, page: z.coerce.number().int().min(1).max(MAX_PAGES_PER_DOCUMENT) });
export const applicationKybPageDelete = step('application.kybDocuments.deletePage', 'DELETE', '/kyb-documents/:document_id/:page', {
  surfaces, params: pageParams, response: draft,
});
export const applicationKycPageDelete = step('application.kycDocuments.deletePage', 'DELETE', '/kyc-documents/:document_id/:page', {
  surfaces, params: pageParams, response: draft,
});

export const applicationInviteApplicant = step('application.inviteApplicant', 'POST', '/invite-applicant', {
  surfaces,
  body: z.object({ email: z.email().max(320), kyc_individual_uuid: uuid.optional() }),
  response: draft,
});
export const applicationInviteDelete = step('application.invite.delete', 'DELETE', '/invite/:invite_id', {
  surfaces, params: z.object({ invite_id: uuid }), response: draft,
});
export const applicationSurvey = step('application.survey', 'POST', '/post-submit-survey', {
  surfaces,
  body: z.object({ heard_from: z.string().trim().min(1).max(100), rating: z.number().int().min(1).max(5), comment: z.string().max(1000).optional() }),
  response: z.null(),
});
export const applicationDocumentRequests = step('application.documentRequests.list', 'GET', '/document-requests', {
  surfaces, response: z.object({ requests: z.array(documentRequestSchema) }),
});
export const applicationSubmit = step('application.submit', 'PATCH', '/submit', {
  surfaces,
  body: z.object({}),
  response: z.object({ status: financingApplicationSchema.shape.status, decision: financingApplicationSchema.shape.decision, business_id: uuid.nullable() }),
});
