import { z } from 'zod';
import { mirroredFields, uuid } from './common.ts';

export const departmentSchema = z.object({ id: uuid, name: z.string().min(1), ...mirroredFields });
export type Department = z.infer<typeof departmentSchema>;
