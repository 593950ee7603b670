import { z } from 'zod';
import { parseEachParam } from '../../lib/search-params.ts';

/**
 * The vendors route's URL state, flat strings (§5): the text search, the status filter (active
 * is the default and never written) and the vendor open in the detail drawer.
 */
export const STATUS_FILTERS = [
  { key: 'active', label: 'Active' },
  { key: 'archived', label: 'Archived' },
  { key: 'all', label: 'All vendors' },
] as const;
export type StatusFilter = (typeof STATUS_FILTERS)[number]['key'];

export const vendorsSearchSchema = z.object({
  q: z.string().max(200).optional(),
  status: z.enum(['archived', 'all']).optional(),
  open: z.uuid().optional(),
});
export type VendorsSearch = z.infer<typeof vendorsSearchSchema>;


/** Each parameter on its own (lib/search-params.ts). */
export const parseVendorsSearch = (raw: Record<string, unknown>): VendorsSearch => parseEachParam(vendorsSearchSchema, raw);
