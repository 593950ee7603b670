import { z } from 'zod';

/** Every mirrored row carries the per-business change sequence it was last written at. */
export const uuid = z.uuid();
export const isoDateTime = z.iso.datetime({ offset: true });
export const changeSeq = z.number().int().nonnegative();

export const mirroredFields = {
  business_id: uuid,
  change_seq: changeSeq,
  updated_at: isoDateTime,
  /** Tombstone: a deleted row stays in the feed with deleted=true so mirrors drop it. */
  deleted: z.boolean().default(false),
};
