import { z } from 'zod';
import { mirroredFields, uuid } from './common.ts';
import { defineEntity } from './define-entity.ts';
import { MIRRORED_COLUMNS, type ColumnMap } from './columns.ts';

export const trackingOptionSchema = z.object({ id: uuid, name: z.string().min(1) });
export type TrackingOption = z.infer<typeof trackingOptionSchema>;

/** A tracking category mirrors with its options inline: they are few and always read together. */
export const trackingCategorySchema = z.object({
  id: uuid,
  name: z.string().min(1),
  options: z.array(trackingOptionSchema),
  ...mirroredFields,
});
export type TrackingCategory = z.infer<typeof trackingCategorySchema>;

/** Table `tracking_categories` (options as stored, a jsonb list). */
const trackingCategoryColumns: ColumnMap<TrackingCategory> = {
  id: { type: 'uuid', indexed: true },
  name: { type: 'text' },
  options: { type: 'jsonb' },
  ...MIRRORED_COLUMNS,
};

export const trackingCategoryEntity = defineEntity({
  name: 'tracking_categories',
  schema: trackingCategorySchema,
  idField: 'id',
  mirror: { kind: 'ref', indexes: [] },
  visibility: 'business',
  // Option names are searched too: they travel inside `options`.
  searchText: ['name', 'options'],
  columns: trackingCategoryColumns,
});
