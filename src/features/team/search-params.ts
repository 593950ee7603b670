import { z } from 'zod';
import { roleSchema } from '../../../schema/roles.ts';
import { parseEachParam } from '../../lib/search-params.ts';

/** The people list's URL state, flat strings (§5): search, status and role filters, the open person. */
export const teamSearchSchema = z.object({
  q: z.string().max(200).optional(),
  status: z.enum(['ACTIVE', 'INVITED', 'INVITE_EXPIRED', 'SUSPENDED']).optional(),
  role: z.union([roleSchema, z.literal('MANAGER')]).optional(),
  open: z.uuid().optional(),
});
export type TeamSearch = z.infer<typeof teamSearchSchema>;


/** Each parameter on its own (lib/search-params.ts). */
export const parseTeamSearch = (raw: Record<string, unknown>): TeamSearch => parseEachParam(teamSearchSchema, raw);
