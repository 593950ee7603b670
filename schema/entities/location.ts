import { z } from 'zod';
import { mirroredFields, uuid } from './common.ts';
import { defineEntity } from './define-entity.ts';

export const locationSchema = z.object({ id: uuid, name: z.string().min(1), ...mirroredFields });
export type Location = z.infer<typeof locationSchema>;

export const locationEntity = defineEntity({
  name: 'locations',
  schema: locationSchema,
  idField: 'id',
  mirror: { kind: 'ref', indexes: [] },
  visibility: 'business',
  searchText: ['name'],
});
