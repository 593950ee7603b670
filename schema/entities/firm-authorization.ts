import { z } from 'zod';
import { isoDateTime, uuid } from './common.ts';
import { advisorRightSchema } from './external-firm.ts';

/**
 * A firm's authorization in a client business as the client's admins see it (Settings → Accounting
 * firms): the firm, its rights and the firm users working in the business (issue 31).
 */
export const firmAuthorizationSchema = z.object({
  id: uuid,
  firm_id: uuid,
  firm_name: z.string(),
  business_id: uuid,
  rights: z.array(advisorRightSchema),
  status: z.enum(['ACTIVE', 'ENDED']),
  ended_by: z.enum(['CLIENT', 'FIRM']).nullable(),
  users: z.array(z.object({ firm_user_id: uuid, first_name: z.string(), last_name: z.string(), email: z.string() })),
  created_at: isoDateTime,
  ended_at: isoDateTime.nullable(),
});
export type FirmAuthorization = z.infer<typeof firmAuthorizationSchema>;
