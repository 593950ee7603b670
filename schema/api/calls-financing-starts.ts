import { z } from 'zod';
import { APPLICATION_STATUSES } from '../application-rules.ts';
import { isoDateTime, uuid } from '../entities/common.ts';
import { defineCall } from './define-call.ts';

/**
 * Issue 31, §7 "External firm (advisor)": "PUT financing applications for vendor, firm and client"
 * and "withdrawal of a client financing application". A firm admin starts an application for a
 * client (the client's applicant finishes it with a mailed code, `application.start`/`verify`); a
 * vendor network admin starts one for its own company, prefilled from the portal profile.
 * The `id` of a PUT is the client's: the same id again answers the same application (idempotent).
 */
const auth = { scopes: ['default'] } as const;
const base = '/v1/auth/external-firm/financing-applications';

/** A financing application as its firm sees it: never the answers, only who, what and where it stands. */
export const firmClientApplicationSchema = z.object({
  id: uuid,
  /** The §3 label: the business name, else "New application (date)". */
  label: z.string(),
  client_name: z.string(),
  applicant_email: z.string(),
  status: z.enum(APPLICATION_STATUSES),
  /** The business it became (APPROVED only). */
  business_id: uuid.nullable(),
  created_at: isoDateTime,
  submitted_at: isoDateTime.nullable(),
});
export type FirmClientApplication = z.infer<typeof firmClientApplicationSchema>;

export const firmApplicationsList = defineCall({
  id: 'firm.applications.list', method: 'GET', path: base, auth, surfaces: ['ADVISOR_CONSOLE'],
  response: z.object({ data: z.array(firmClientApplicationSchema) }),
});
/** A firm admin starts an application for a client: the applicant is mailed a link to `/application/start`. */
export const firmApplicationsPut = defineCall({
  id: 'firm.applications.put', method: 'PUT', path: base, auth, surfaces: ['ADVISOR_CONSOLE'],
  body: z.object({
    id: uuid,
    client_name: z.string().trim().min(1).max(200),
    applicant_email: z.email().max(320),
    applicant_first_name: z.string().trim().min(1).max(100),
    applicant_last_name: z.string().trim().min(1).max(100),
  }),
  response: firmClientApplicationSchema,
});
/** Only before a decision (APPLICATION_7001 once submitted); the applicant's draft ends WITHDRAWN. */
export const firmApplicationsWithdraw = defineCall({
  id: 'firm.applications.withdraw', method: 'DELETE', path: `${base}/:financing_application_id`, auth, surfaces: ['ADVISOR_CONSOLE'],
  params: z.object({ financing_application_id: z.uuid() }),
  response: firmClientApplicationSchema,
});

/**
 * The vendor's own company applies: an application whose applicant is the portal user, prefilled
 * from the profile (legal name, address, EIN when the TIN is one, the ACH account). The portal then
 * switches scope to it (`identity.scopes.switch`). The same `id` again answers the same application.
 */
export const vendorNetworkApplicationsPut = defineCall({
  id: 'vendorNetwork.applications.put', method: 'PUT', path: '/v1/auth/vendor-network/financing-application', auth,
  surfaces: ['VENDOR_PORTAL'],
  body: z.object({ id: uuid }),
  response: z.object({ financing_application_id: uuid, status: z.enum(APPLICATION_STATUSES), prefilled: z.array(z.string()) }),
});

/** Served (server/routes/financing-starts.ts); calls.ts spreads them into CATALOGUE. */
export const FINANCING_START_CALLS = [firmApplicationsList, firmApplicationsPut, firmApplicationsWithdraw, vendorNetworkApplicationsPut] as const;
