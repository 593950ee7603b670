import { z } from 'zod';
import { parseEachParam } from '../../lib/search-params.ts';

/** /policies' URL state (§5 flat strings): the tab, and the compliance table's grouping and range. */
export const policiesSearchSchema = z.object({
  tab: z.enum(['policies', 'compliance']).optional(),
  group: z.enum(['person', 'department']).optional(),
  from: z.iso.date().optional(),
  to: z.iso.date().optional(),
});
export type PoliciesSearch = z.infer<typeof policiesSearchSchema>;
export const parsePoliciesSearch = (raw: Record<string, unknown>): PoliciesSearch =>
  parseEachParam(policiesSearchSchema, raw, { tab: 'policies', group: 'person' });
