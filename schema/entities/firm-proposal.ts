import { z } from 'zod';
import { isoDateTime, uuid } from './common.ts';
import { advisorRightSchema } from './external-firm.ts';

/** A firm's proposal to work for a client business, or a business's to a firm (issue 31, §4). */
export const PROPOSAL_STATUSES = ['DRAFT', 'PENDING', 'ACCEPTED', 'REJECTED', 'REVOKED'] as const;
export const proposalStatusSchema = z.enum(PROPOSAL_STATUSES);
export type ProposalStatus = z.infer<typeof proposalStatusSchema>;

export const firmProposalSchema = z.object({
  id: uuid,
  firm_id: uuid,
  firm_name: z.string(),
  direction: z.enum(['FIRM_TO_BUSINESS', 'BUSINESS_TO_FIRM']),
  client_email: z.string(),
  client_name: z.string(),
  business_id: uuid.nullable(),
  rights: z.array(advisorRightSchema),
  firm_user_ids: z.array(uuid),
  status: proposalStatusSchema,
  batch_id: uuid.nullable(),
  created_at: isoDateTime,
  decided_at: isoDateTime.nullable(),
});
export type FirmProposal = z.infer<typeof firmProposalSchema>;
