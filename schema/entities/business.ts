import { z } from 'zod';
import { isoDateTime, uuid } from './common.ts';

export const businessSchema = z.object({
  id: uuid,
  name: z.string().min(1),
  currency: z.string().length(3),
  status: z.enum(['ACTIVE', 'INACTIVE', 'LOCKED']),
  created_at: isoDateTime,
});
export type Business = z.infer<typeof businessSchema>;
