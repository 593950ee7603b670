import { z } from 'zod';
import { mirroredFields, uuid } from './common.ts';
import { defineEntity } from './define-entity.ts';

export const departmentSchema = z.object({ id: uuid, name: z.string().min(1), ...mirroredFields });
export type Department = z.infer<typeof departmentSchema>;

export const departmentEntity = defineEntity({
  name: 'departments',
  schema: departmentSchema,
  idField: 'id',
  mirror: { kind: 'ref', indexes: [] },
  visibility: 'business',
  searchText: ['name'],
});
