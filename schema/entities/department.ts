import { z } from 'zod';
import { mirroredFields, uuid } from './common.ts';
import { defineEntity } from './define-entity.ts';
import { MIRRORED_COLUMNS, type ColumnMap } from './columns.ts';

export const departmentSchema = z.object({
  id: uuid,
  name: z.string().min(1),
  /** Its owners (users of the business; issue 14). Rows mirrored before owners were sent read as none. */
  owner_ids: z.array(uuid).default([]),
  ...mirroredFields,
});
export type Department = z.infer<typeof departmentSchema>;

/** Table `departments`. */
const departmentColumns: ColumnMap<Department> = {
  id: { type: 'uuid', indexed: true },
  name: { type: 'text' },
  owner_ids: { type: 'uuid[]' },
  ...MIRRORED_COLUMNS,
};

export const departmentEntity = defineEntity({
  name: 'departments',
  schema: departmentSchema,
  idField: 'id',
  mirror: { kind: 'ref', indexes: [] },
  visibility: 'business',
  searchText: ['name'],
  columns: departmentColumns,
});
