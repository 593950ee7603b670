import { z } from 'zod';
import { roleSchema } from '../../../schema/roles.ts';

/** The people list's URL state, flat strings (§5): search, status and role filters, the open person. */
export const teamSearchSchema = z.object({
  q: z.string().max(200).optional(),
  status: z.enum(['ACTIVE', 'INVITED', 'INVITE_EXPIRED', 'SUSPENDED']).optional(),
  role: z.union([roleSchema, z.literal('MANAGER')]).optional(),
  open: z.uuid().optional(),
});
export type TeamSearch = z.infer<typeof teamSearchSchema>;

const SHAPE = teamSearchSchema.shape as Record<string, z.ZodType>;

/** Each parameter on its own: a bad value drops that parameter, not the whole URL state. */
export function parseTeamSearch(raw: Record<string, unknown>): TeamSearch {
  const out: Record<string, unknown> = {};
  for (const [key, schema] of Object.entries(SHAPE)) {
    const value = raw[key];
    if (value === undefined || value === null || value === '') continue;
    const parsed = schema.safeParse(typeof value === 'number' || typeof value === 'boolean' ? String(value) : value);
    if (!parsed.success || parsed.data === undefined || parsed.data === '') continue;
    out[key] = parsed.data;
  }
  return out as TeamSearch;
}
