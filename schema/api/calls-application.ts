/**
 * Issue 31, §7 "Application and onboarding": the financing application's calls (surface
 * FINANCING_APPLICATION, scope `email-otp`, §6) and the Businesses calls it owns (BUSINESS).
 * Contract: docs/design/issue-31-surfaces.md §2.4 and §5. The calls are declared in
 * calls-application-steps.ts (and calls-application-business.ts).
 */
import {
  applicationAccountsDelete, applicationBankAccounts, applicationBusinessDetails, applicationCheckbox, applicationCompany,
  applicationDocumentRequests, applicationFinancialDetails, applicationGet, applicationInviteApplicant, applicationInviteDelete,
  applicationKybDocuments, applicationKybPageDelete, applicationKybPageUpload, applicationKycDocuments, applicationKycIndividual,
  applicationKycPageDelete, applicationKycPageUpload, applicationLeadership, applicationOwnerships, applicationOwnershipsDelete,
  applicationPatch, applicationProducts, applicationStart, applicationSubmit, applicationSurvey, applicationVerify,
} from './calls-application-steps.ts';
import { businessAddressPut, businessIssuingOnboardingPut, businessKybKycPut } from './calls-application-business.ts';

/** The served calls of this file (a call enters with its handler, server/routes/application.ts). */
export const APPLICATION_CALLS = [
  applicationStart, applicationVerify, applicationGet, applicationPatch, applicationBusinessDetails, applicationFinancialDetails,
  applicationCompany, applicationLeadership, applicationOwnerships, applicationOwnershipsDelete, applicationKycIndividual,
  applicationCheckbox, applicationProducts, applicationBankAccounts, applicationAccountsDelete, applicationKybDocuments,
  applicationKycDocuments, applicationKybPageUpload, applicationKycPageUpload, applicationKybPageDelete, applicationKycPageDelete,
  applicationInviteApplicant, applicationInviteDelete, applicationSurvey, applicationDocumentRequests, applicationSubmit,
  businessAddressPut, businessKybKycPut, businessIssuingOnboardingPut,
] as const;
