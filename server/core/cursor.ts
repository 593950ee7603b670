import { z } from 'zod';
import { validationError } from './errors.ts';

/**
 * Opaque page cursors (§7 `page.next` → `start`): base64url JSON of the sort they belong to and
 * the sort-key values of the last row. Clients treat them as strings; we treat them as untrusted
 * input and validate them like any other field.
 */
const cursorSchema = z.object({ s: z.string(), v: z.array(z.union([z.string(), z.number()])).max(8) });
export type Cursor = z.infer<typeof cursorSchema>;

export function encodeCursor(sort: string, values: (string | number)[]): string {
  return Buffer.from(JSON.stringify({ s: sort, v: values }), 'utf8').toString('base64url');
}

/** The sort-key values, or a 422 on `field` when the cursor is not one of ours for this sort. */
export function decodeCursor(start: string, sort: string, shape: z.ZodType, field = 'start'): unknown[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(start, 'base64url').toString('utf8'));
  } catch {
    throw invalid(field);
  }
  const cursor = cursorSchema.safeParse(parsed);
  if (!cursor.success || cursor.data.s !== sort) throw invalid(field);
  const values = shape.safeParse(cursor.data.v);
  if (!values.success) throw invalid(field);
  return values.data as unknown[];
}

const invalid = (field: string) => validationError({ [field]: `${field} must be a valid cursor` });
