import { z } from 'zod';
import { mirroredFields, uuid } from './common.ts';
import { defineReference } from './define-entity.ts';

const trackingOptionSchema = z.object({ id: uuid, name: z.string().min(1) });
export type TrackingOption = z.infer<typeof trackingOptionSchema>;

/** A tracking category mirrors with its options inline: they are few and always read together. */
export const trackingCategorySchema = z.object({
  id: uuid,
  name: z.string().min(1),
  options: z.array(trackingOptionSchema),
  ...mirroredFields,
});
export type TrackingCategory = z.infer<typeof trackingCategorySchema>;

/**
 * Table `tracking_categories` (options as stored, a jsonb list). Option names are searched too:
 * they travel inside `options`.
 */
export const trackingCategoryEntity = defineReference({
  name: 'tracking_categories', schema: trackingCategorySchema, visibility: 'business', searchText: ['name', 'options'],
});
