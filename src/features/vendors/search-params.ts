import { z } from 'zod';

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

const SHAPE = vendorsSearchSchema.shape as Record<string, z.ZodType>;

/** Each parameter on its own: a bad value drops that parameter, not the whole URL state. */
export function parseVendorsSearch(raw: Record<string, unknown>): VendorsSearch {
  const out: Record<string, unknown> = {};
  for (const [key, schema] of Object.entries(SHAPE)) {
    const value = raw[key];
    if (value === undefined || value === null || value === '') continue;
    const parsed = schema.safeParse(typeof value === 'number' || typeof value === 'boolean' ? String(value) : value);
    if (!parsed.success || parsed.data === undefined || parsed.data === '') continue;
    out[key] = parsed.data;
  }
  return out as VendorsSearch;
}
