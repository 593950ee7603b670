import { z } from 'zod';
import { changeSeq } from './entities/common.ts';
import { SYNC_BATCH_DEFAULT, SYNC_BATCH_MAX } from './constants.ts';
import { MIRRORED_COLLECTIONS, type MirroredCollection } from './collections.ts';

/** Re-exported: the feed's collection names are the registry's (schema/collections.ts). */
export { MIRRORED_COLLECTIONS, type MirroredCollection };

export const mirroredCollectionSchema = z.enum(MIRRORED_COLLECTIONS);

export const changesQuerySchema = z.object({
  after: z.coerce.number().int().nonnegative().default(0),
  limit: z.coerce.number().int().min(1).max(SYNC_BATCH_MAX).default(SYNC_BATCH_DEFAULT),
});

/**
 * One page of the feed. `changes` are in seq order; `checkpoint` is the seq to ask after next;
 * `has_more` says to keep pulling; `total` is how many visible rows are newer than `after`
 * (for the first-mirror progress bar; only sent when after=0).
 * Rows are sent as plain objects and validated per collection by the client.
 */
export const changeSchema = z.object({
  collection: mirroredCollectionSchema,
  seq: changeSeq,
  id: z.string(),
  deleted: z.boolean(),
  doc: z.record(z.string(), z.unknown()).nullable(),
});
export type Change = z.infer<typeof changeSchema>;

export const changesResponseSchema = z.object({
  changes: z.array(changeSchema),
  checkpoint: changeSeq,
  has_more: z.boolean(),
  high_water: changeSeq,
  total: z.number().int().nonnegative().optional(),
  /** Bumped when what the caller may see changes (role, team): the client must resync from 0. */
  visibility_epoch: z.string(),
});
export type ChangesResponse = z.infer<typeof changesResponseSchema>;

/** SSE event on /v1/auth/sync/stream: `event: seq`, data is this JSON. */
export const streamEventSchema = z.object({ seq: changeSeq });
