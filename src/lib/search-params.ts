import type { z } from 'zod';

/**
 * A list page's URL state, each parameter on its own: a bad value drops that parameter, not the
 * whole state. Numbers and booleans the router already parsed are read back as the strings the
 * schemas expect; empty values, empty lists and a parameter equal to its default (`defaults`:
 * the tab or sort a bare URL means) are left out, so the URL stays the shortest that says it.
 */
export function parseEachParam<S extends z.ZodObject>(
  schema: S, raw: Record<string, unknown>, defaults: Partial<Record<keyof z.infer<S> & string, unknown>> = {},
): z.infer<S> {
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(schema.shape as Record<string, z.ZodType>)) {
    const value = raw[key];
    if (value === undefined || value === null || value === '') continue;
    const parsed = field.safeParse(typeof value === 'number' || typeof value === 'boolean' ? String(value) : value);
    if (!parsed.success || parsed.data === undefined || parsed.data === '') continue;
    if (Array.isArray(parsed.data) && parsed.data.length === 0) continue;
    if (key in defaults && (defaults as Record<string, unknown>)[key] === parsed.data) continue;
    out[key] = parsed.data;
  }
  return out as z.infer<S>;
}
