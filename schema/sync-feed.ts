import { z } from 'zod';
import { boolParam, changeSeq } from './entities/common.ts';
import { SYNC_BATCH_DEFAULT, SYNC_BATCH_MAX } from './constants.ts';
import { MIRRORED_COLLECTIONS, REFERENCE_COLLECTIONS, type MirroredCollection } from './collections.ts';

/** Re-exported: the feed's collection names are the registry's (schema/collections.ts). */
export { MIRRORED_COLLECTIONS, type MirroredCollection };

export const mirroredCollectionSchema = z.enum(MIRRORED_COLLECTIONS);

/**
 * The first mirror's backfill walk (issue 8: fill newest first). A fresh device asks
 * `backfill=true` and the server fixes the walk's top, its high water H0 then (every seq ≤ H0 is
 * committed, see server/db/change-seq.ts). The walk sends every visible live row with
 * change_seq ≤ top, in two stages: the reference collections first (the names a table shows),
 * then the queried ones, each newest (highest seq) first; no tombstones. Every next page asks
 * with the `backfill` cursor of the last answer (`top`, `stage`, `before`: seq < before within
 * that stage). When the walk is done the client pulls forward from `after=top`, which brings
 * every row written since the walk began (any write takes a seq > top), deletions included.
 */
export const BACKFILL_STAGES = ['reference', 'queried'] as const;
export type BackfillStage = (typeof BACKFILL_STAGES)[number];
const REFERENCE: ReadonlySet<MirroredCollection> = new Set(REFERENCE_COLLECTIONS);
/** The walk's stage of a collection (from the registry: reference data first). */
export const backfillStageOf = (c: MirroredCollection): BackfillStage => (REFERENCE.has(c) ? 'reference' : 'queried');

export const backfillCursorSchema = z.object({
  /** The walk's fixed top: the high water when it began; the forward pull continues after it. */
  top: changeSeq,
  stage: z.enum(BACKFILL_STAGES),
  /** Exclusive: the next page of `stage` has rows with change_seq < before. */
  before: changeSeq,
});
export type BackfillCursor = z.infer<typeof backfillCursorSchema>;

const CURSOR_FIELDS = ['top', 'stage', 'before'] as const;

export const changesQuerySchema = z
  .object({
    after: z.coerce.number().int().nonnegative().default(0),
    limit: z.coerce.number().int().min(1).max(SYNC_BATCH_MAX).default(SYNC_BATCH_DEFAULT),
    /** A backfill page (see BACKFILL_STAGES) instead of the forward feed. */
    backfill: boolParam.default(false),
    /** The backfill cursor (all three, or none on the walk's first page). */
    top: z.coerce.number().int().nonnegative().optional(),
    stage: z.enum(BACKFILL_STAGES).optional(),
    before: z.coerce.number().int().nonnegative().optional(),
  })
  .superRefine((q, ctx) => {
    const given = CURSOR_FIELDS.filter((f) => q[f] !== undefined);
    if (given.length > 0 && !q.backfill) {
      for (const f of given) ctx.addIssue({ code: 'custom', path: [f], message: `${f} is only allowed with backfill=true` });
    } else if (given.length > 0 && given.length < CURSOR_FIELDS.length) {
      for (const f of CURSOR_FIELDS.filter((f) => q[f] === undefined)) {
        ctx.addIssue({ code: 'custom', path: [f], message: `${f} is required with ${given.join(', ')}` });
      }
    }
    if (q.backfill && q.after !== 0) ctx.addIssue({ code: 'custom', path: ['after'], message: 'after must be 0 with backfill=true' });
  });
export type ChangesQuery = z.infer<typeof changesQuerySchema>;

/**
 * One page of the feed. `changes` are in seq order; `checkpoint` is the seq to ask after next;
 * `has_more` says to keep pulling; `total` is how many visible rows are newer than `after`
 * (for the first-mirror progress bar; only sent when after=0).
 * A backfill page: `changes` in the walk's order (stage, then seq descending), live rows only;
 * `backfill` is the cursor to ask with next; `has_more` says the walk goes on; `checkpoint` is
 * the walk's top (ask `after=checkpoint` once it is done); `total` (first page only) is how many
 * rows the whole walk sends.
 * Rows are sent as plain objects and validated per collection by the client.
 */
/**
 * A row's doc on the wire: only "a JSON object" here. Its shape is checked once, by the client's
 * store against the collection's entity schema; a zod record here copied every doc of a page
 * (≈ 20 ms a 2,000-row page in the worker) before the store checked and copied it again.
 */
const wireDoc = z.custom<Record<string, unknown>>((v) => typeof v === 'object' && v !== null && !Array.isArray(v), { message: 'doc must be an object' });

const changeSchema = z.object({
  collection: mirroredCollectionSchema,
  seq: changeSeq,
  id: z.string(),
  deleted: z.boolean(),
  doc: wireDoc.nullable(),
});
export type Change = z.infer<typeof changeSchema>;

export const changesResponseSchema = z.object({
  changes: z.array(changeSchema),
  checkpoint: changeSeq,
  has_more: z.boolean(),
  high_water: changeSeq,
  total: z.number().int().nonnegative().optional(),
  /** Backfill pages only: the cursor of the next page. */
  backfill: backfillCursorSchema.optional(),
  /** Bumped when what the caller may see changes (role, team): the client must resync from 0. */
  visibility_epoch: z.string(),
});
export type ChangesResponse = z.infer<typeof changesResponseSchema>;

/** SSE event on /v1/auth/sync/stream: `event: seq`, data is this JSON. */
export const streamEventSchema = z.object({ seq: changeSeq });
