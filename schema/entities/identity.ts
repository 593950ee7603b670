import { z } from 'zod';
import { uuid } from './common.ts';
import { spendUserSchema } from './spend-user.ts';

/** OFAC screening statuses; the three named in §4 flag the identity for sanctions. */
const ofacStatusSchema = z.enum([
  'PASSED',
  'PENDING',
  'MANUAL_REVIEW',
  'MANUAL_REVIEW_IN_PROGRESS',
  'FAILED_MANUAL_CHECK',
]);
export type OfacStatus = z.infer<typeof ofacStatusSchema>;

export const identitySchema = z.object({
  id: uuid,
  email: z.email(),
  spend_users: z.array(spendUserSchema),
  external_firm_user: z.object({ id: uuid, external_firm_id: uuid }).nullable(),
  external_firm_applicant: z.object({ id: uuid }).nullable(),
  financing_application_users: z.array(
    z.object({
      financing_application_id: uuid,
      business_name: z.string().nullable(),
      created_at: z.iso.datetime({ offset: true }).nullable(),
    }),
  ),
  identity_ofac_status: ofacStatusSchema.nullable(),
});
export type Identity = z.infer<typeof identitySchema>;
