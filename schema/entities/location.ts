import { z } from 'zod';
import { mirroredFields, uuid } from './common.ts';

export const locationSchema = z.object({ id: uuid, name: z.string().min(1), ...mirroredFields });
export type Location = z.infer<typeof locationSchema>;
