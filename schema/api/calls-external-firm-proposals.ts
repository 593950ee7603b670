import { z } from 'zod';
import { advisorRightsSchema, firmClientSchema } from '../entities/external-firm.ts';
import { firmAuthorizationSchema } from '../entities/firm-authorization.ts';
import { firmProposalSchema, proposalStatusSchema } from '../entities/firm-proposal.ts';
import { clientProposalRowSchema, CSV_MAX_ROWS } from '../firm-proposals.ts';
import { pageQuerySchema, paginatedSchema } from '../paging.ts';
import { defineCall } from './define-call.ts';

/**
 * Issue 31: proposals between firms and client businesses, both sides, and the clients a firm works
 * for. Contract: docs/design/issue-31-surfaces.md §2.4 and §3 "The firm user in a client".
 */
const auth = { scopes: ['default'] } as const;
const CONSOLE = ['ADVISOR_CONSOLE'] as const;
const proposalParams = z.object({ proposal_id: z.uuid() });
const proposalBase = '/v1/auth/external-firm/proposals';
const businessBase = '/v1/auth/businesses/external-firm-proposals';
const tokenResponse = z.object({ id_token: z.string(), mfa_required: z.boolean() });

export const proposalsCreate = defineCall({
  id: 'firm.proposals.create', method: 'POST', path: proposalBase, auth, surfaces: CONSOLE,
  body: clientProposalRowSchema.extend({ firm_user_ids: z.array(z.uuid()).max(50), client_key: z.string().max(100).optional() }),
  response: firmProposalSchema,
});
export const proposalsCsvParse = defineCall({
  id: 'firm.proposals.csvParse', method: 'POST', path: `${proposalBase}/csv-parse`, auth, surfaces: CONSOLE, readOnly: true,
  body: z.object({ csv: z.string().max(200_000) }),
  response: z.object({
    rows: z.array(z.object({ line: z.number().int(), body: clientProposalRowSchema.optional(), errors: z.record(z.string(), z.string()).optional() })).max(CSV_MAX_ROWS + 1),
  }),
});
export const proposalsValidate = defineCall({
  id: 'firm.proposals.validate', method: 'PUT', path: `${proposalBase}/:proposal_id/validate`, auth, surfaces: CONSOLE,
  params: proposalParams, response: firmProposalSchema,
});
export const proposalsRevoke = defineCall({
  id: 'firm.proposals.revoke', method: 'PUT', path: `${proposalBase}/:proposal_id/revoke`, auth, surfaces: CONSOLE,
  params: proposalParams, response: firmProposalSchema,
});
const bulkItem = z.union([
  z.object({ id: z.string(), ok: z.literal(true), row: firmProposalSchema }),
  z.object({ id: z.string(), ok: z.literal(false), error_v2: z.object({ error_code: z.string(), message: z.string() }).loose() }),
]);
export const proposalsBulk = defineCall({
  id: 'firm.proposals.bulk', method: 'PUT', path: `${proposalBase}/bulk`, auth, surfaces: CONSOLE,
  body: z.object({ action: z.enum(['validate', 'revoke']), ids: z.array(z.uuid()).min(1).max(50) }),
  response: z.object({ results: z.array(bulkItem) }),
});
export const proposalsList = defineCall({
  id: 'firm.proposals.list', method: 'GET', path: proposalBase, auth, surfaces: CONSOLE,
  query: z.object({ status: proposalStatusSchema.optional() }), response: z.object({ data: z.array(firmProposalSchema) }),
});
export const businessProposalsAccept = defineCall({
  id: 'firm.businessProposals.accept', method: 'PUT', path: '/v1/auth/external-firm/business-proposals/:proposal_id/accept', auth, surfaces: CONSOLE,
  params: proposalParams, response: firmProposalSchema,
});

// The client business's side (BUSINESS surface, admins).
export const clientProposalsList = defineCall({
  id: 'businesses.firmProposals.list', method: 'GET', path: businessBase, auth, response: z.object({ data: z.array(firmProposalSchema) }),
});
export const clientProposalsAccept = defineCall({
  id: 'businesses.firmProposals.accept', method: 'PUT', path: `${businessBase}/:proposal_id/accept`, auth,
  params: proposalParams, body: z.object({ rights: advisorRightsSchema.optional() }), response: firmProposalSchema,
});
export const clientProposalsReject = defineCall({
  id: 'businesses.firmProposals.reject', method: 'PUT', path: `${businessBase}/:proposal_id/reject`, auth,
  params: proposalParams, response: firmProposalSchema,
});
export const clientProposalsCreate = defineCall({
  id: 'businesses.firmProposals.create', method: 'POST', path: businessBase, auth,
  body: z.object({ firm_admin_email: z.email().max(320), rights: advisorRightsSchema }), response: firmProposalSchema,
});
export const clientFirmsList = defineCall({
  id: 'businesses.firms.list', method: 'GET', path: '/v1/auth/businesses/external-firms', auth,
  response: z.object({ data: z.array(firmAuthorizationSchema) }),
});
export const clientFirmsEnd = defineCall({
  id: 'businesses.firms.end', method: 'DELETE', path: '/v1/auth/businesses/external-firms/:authorization_id', auth,
  params: z.object({ authorization_id: z.uuid() }), response: firmAuthorizationSchema,
});

// The clients a firm works for.
export const clientsList = defineCall({
  id: 'firm.clients.list', method: 'GET', path: '/v1/auth/external-firm/clients', auth, surfaces: CONSOLE, retry: 'paged',
  query: pageQuerySchema.pick({ page_size: true, start: true }), response: paginatedSchema(firmClientSchema),
});
export const clientsOpen = defineCall({
  id: 'firm.clients.open', method: 'POST', path: '/v1/auth/external-firm/clients/:business_id/open', auth, surfaces: CONSOLE,
  params: z.object({ business_id: z.uuid() }), response: tokenResponse,
});
const authorizationParams = z.object({ authorization_id: z.uuid() });
export const authorizationsDelete = defineCall({
  id: 'firm.authorizations.delete', method: 'DELETE', path: '/v1/auth/external-firm/authorizations/:authorization_id', auth, surfaces: CONSOLE,
  params: authorizationParams, response: firmClientSchema.pick({ business_id: true, authorization_id: true }),
});
export const assignmentsDelete = defineCall({
  id: 'firm.assignments.delete', method: 'DELETE', path: '/v1/auth/external-firm/authorizations/:authorization_id/users/:firm_user_id',
  auth, surfaces: CONSOLE, params: authorizationParams.extend({ firm_user_id: z.uuid() }),
  response: firmClientSchema.pick({ business_id: true, authorization_id: true, assigned_firm_user_ids: true }),
});

export const FIRM_PROPOSAL_CALLS = [
  proposalsCreate, proposalsCsvParse, proposalsValidate, proposalsRevoke, proposalsBulk, proposalsList, businessProposalsAccept,
  clientProposalsList, clientProposalsAccept, clientProposalsReject, clientProposalsCreate, clientFirmsList, clientFirmsEnd,
] as const;
export const FIRM_CLIENT_CALLS = [clientsList, clientsOpen, authorizationsDelete, assignmentsDelete] as const;
