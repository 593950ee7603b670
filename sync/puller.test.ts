import { describe, expect, it } from 'vitest';
import { flush, jsonResponse, type ScriptStep } from './testing.ts';
import type { BackfillCursor } from '../schema/sync-feed.ts';
import { page, setup, walkPage } from './puller-test-kit.ts';
import { MIN_BATCH } from './puller.ts';

describe('puller.pull', () => {
  it('pulls batches from the checkpoint, writes each with its checkpoint, reports progress', async () => {
    const t = setup([
      jsonResponse(200, page(0, 3, { has_more: true, total: 7, high_water: 7 })),
      jsonResponse(200, page(3, 3, { has_more: true })),
      jsonResponse(200, page(6, 1)),
    ]);
    expect(await t.puller.pull()).toEqual({ ok: true, checkpoint: 7 });
    // A server without the backfill walk answers its first page with the forward feed from 0.
    expect(t.queries()).toEqual(['?backfill=true&limit=1000', '?after=3&limit=2000', '?after=6&limit=2000']);
    expect(t.store.applied).toEqual([
      { count: 3, seq: 3, epoch: 'e1', mirrored: false, first: { loaded: 3, total: 7 } },
      { count: 3, seq: 6, epoch: 'e1', mirrored: false, first: { loaded: 6, total: 7 } },
      { count: 1, seq: 7, epoch: 'e1', mirrored: true },
    ]);
    expect(t.store.count('transactions')).toBe(7);
    expect(t.events).toEqual([
      { type: 'pull_started', initial: true },
      { type: 'progress', loaded: 0, total: 7 },
      { type: 'progress', loaded: 3, total: 7 },
      { type: 'progress', loaded: 6, total: 7 },
      { type: 'progress', loaded: 7, total: 7 },
      { type: 'pull_succeeded', checkpoint: 7 },
    ]);
    expect(t.puller.checkpoint()).toBe(7);
  });

  it('asks for the next page while the current one is being written', async () => {
    const t = setup([
      jsonResponse(200, page(0, 2, { has_more: true, total: 4 })),
      jsonResponse(200, page(2, 2)),
    ]);
    const original = t.store.applyChanges.bind(t.store);
    const requestsSeenAtWrite: number[] = [];
    t.store.applyChanges = async (changes, cp) => {
      await flush();
      requestsSeenAtWrite.push(t.queries().length);
      return original(changes, cp);
    };
    expect(await t.puller.pull()).toEqual({ ok: true, checkpoint: 4 });
    // The first write already saw the second request go out; nothing is fetched after the last page.
    expect(requestsSeenAtWrite).toEqual([2, 2]);
    expect(t.store.count('transactions')).toBe(4);
  });

  it('tells the share as soon as the first page answers and as each batch is stored, not when the next page arrives (issue 25)', async () => {
    let answer!: (r: Response) => void;
    const slow: ScriptStep = () => new Promise<Response>((resolve) => void (answer = resolve));
    const t = setup([jsonResponse(200, page(0, 3, { has_more: true, total: 7, high_water: 7 })), slow]);
    const pulled = t.puller.pull();
    await flush();
    // The second page has not answered: the first batch is stored and its share already told.
    expect(t.store.count('transactions')).toBe(3);
    expect(t.events).toEqual([
      { type: 'pull_started', initial: true },
      { type: 'progress', loaded: 0, total: 7 },
      { type: 'progress', loaded: 3, total: 7 },
    ]);
    answer(new Response(JSON.stringify(page(3, 4)), { status: 200, headers: { 'Content-Type': 'application/json' } }));
    expect(await pulled).toEqual({ ok: true, checkpoint: 7 });
    expect(t.events.slice(3)).toEqual([{ type: 'progress', loaded: 7, total: 7 }, { type: 'pull_succeeded', checkpoint: 7 }]);
  });

  it('asks for at least 1,000 rows per batch and continues from the stored checkpoint without progress', async () => {
    const t = setup([jsonResponse(200, page(0, 1)), jsonResponse(200, page(1, 1))], 10);
    await t.puller.pull();
    await t.puller.pull();
    expect(t.queries()).toEqual(['?backfill=true&limit=1000', '?after=1&limit=1000']);
    expect(t.events.filter((e) => e.type === 'pull_started')).toEqual([
      { type: 'pull_started', initial: true }, { type: 'pull_started', initial: false },
    ]);
  });

  it('resets the mirror and pulls from 0 when the visibility epoch changes', async () => {
    const t = setup([
      jsonResponse(200, page(0, 2, { total: 2 })),
      jsonResponse(200, page(2, 1, { visibility_epoch: 'e2' })),
      jsonResponse(200, page(0, 1, { visibility_epoch: 'e2', total: 1 })),
    ]);
    await t.puller.pull();
    expect(await t.puller.pull()).toEqual({ ok: true, checkpoint: 1 });
    expect(t.store.resets()).toBe(1);
    expect(t.queries()).toEqual(['?backfill=true&limit=1000', '?after=2&limit=2000', '?backfill=true&limit=1000']);
    expect(t.store.count('transactions')).toBe(1);
    expect(await t.store.getCheckpoint()).toEqual({ seq: 1, epoch: 'e2', mirrored: true });
  });

  it('stops on a refused batch, keeping what it applied (paged calls do not retry a 4xx)', async () => {
    const t = setup([
      jsonResponse(200, page(0, 2, { has_more: true, total: 4 })),
      jsonResponse(422, { error_v2: { message: 'bad', error_code: 'REQUEST_7001' } }),
    ]);
    expect(await t.puller.pull()).toMatchObject({ ok: false, failure: { kind: 'http', status: 422 } });
    expect(await t.store.getCheckpoint()).toEqual({ seq: 2, epoch: 'e1', mirrored: false, first: { loaded: 2, total: 4 } });
    expect(t.events.at(-1)).toMatchObject({ type: 'pull_failed' });
  });

  it('resumes an interrupted first mirror as a first mirror, counting on from the stored progress', async () => {
    const t = setup([
      jsonResponse(200, page(0, 2, { has_more: true, total: 4 })),
      jsonResponse(422, { error_v2: { message: 'bad', error_code: 'REQUEST_7001' } }),
    ]);
    expect(await t.puller.pull()).toMatchObject({ ok: false });
    // A reload: a new puller over the same store; the feed sends no total after 0.
    const again = setup([jsonResponse(200, page(2, 2))], undefined, t.store);
    expect(await again.puller.pull()).toEqual({ ok: true, checkpoint: 4 });
    expect(again.events).toEqual([
      { type: 'pull_started', initial: true },
      { type: 'progress', loaded: 2, total: 4 },
      { type: 'progress', loaded: 4, total: 4 },
      { type: 'pull_succeeded', checkpoint: 4 },
    ]);
    expect(await t.store.getCheckpoint()).toEqual({ seq: 4, epoch: 'e1', mirrored: true });
  });

  it('refuses a feed that says has_more without advancing (no endless loop)', async () => {
    const t = setup([jsonResponse(200, { ...page(0, 0), has_more: true })]);
    expect(await t.puller.pull()).toMatchObject({ ok: false, failure: { kind: 'bad_response' } });
  });

  it('shares one run between concurrent callers and loops once more for them', async () => {
    const t = setup([jsonResponse(200, page(0, 1)), jsonResponse(200, page(1, 1))]);
    const [a, b] = await Promise.all([t.puller.pull(), t.puller.pull()]);
    expect(a).toEqual(b);
    expect(t.queries()).toEqual(['?backfill=true&limit=1000', '?after=1&limit=2000']);
  });
});

describe('puller.pull: the first mirror walks newest first (issue 8)', () => {
  // A walk's first page asks for the floor (MIN_BATCH, issue 33: the list waits for it), the rest for the batch.
  const walkQuery = (c: BackfillCursor | null, limit = 2000) =>
    c ? `?backfill=true&limit=${limit}&top=${c.top}&stage=${c.stage}&before=${c.before}` : `?backfill=true&limit=${Math.min(limit, MIN_BATCH)}`;

  it('walks down from the top, storing the cursor with every batch, then pulls forward from the top; mirrored only then', async () => {
    const t = setup([
      jsonResponse(200, walkPage(6, [6, 5], { has_more: true, total: 5 })),
      jsonResponse(200, walkPage(6, [4, 2], { has_more: true })),
      jsonResponse(200, walkPage(6, [1])),
      // Written during the walk: t2 updated (seq 7), t5 deleted (seq 8).
      jsonResponse(200, { ...page(6, 0), changes: [
        { collection: 'transactions', seq: 7, id: 't2', deleted: false, doc: { id: 't2', memo: 'new' } },
        { collection: 'transactions', seq: 8, id: 't5', deleted: true, doc: null },
      ], checkpoint: 8, high_water: 8 }),
    ]);
    expect(await t.puller.pull()).toEqual({ ok: true, checkpoint: 8 });
    expect(t.queries()).toEqual([
      walkQuery(null),
      walkQuery({ top: 6, stage: 'queried', before: 5 }),
      walkQuery({ top: 6, stage: 'queried', before: 2 }),
      '?after=6&limit=2000',
    ]);
    expect(t.store.applied).toEqual([
      { count: 2, seq: 0, epoch: 'e1', mirrored: false, first: { loaded: 2, total: 5 }, backfill: { top: 6, stage: 'queried', before: 5 } },
      { count: 2, seq: 0, epoch: 'e1', mirrored: false, first: { loaded: 4, total: 5 }, backfill: { top: 6, stage: 'queried', before: 2 } },
      { count: 1, seq: 6, epoch: 'e1', mirrored: false, first: { loaded: 5, total: 5 } },
      { count: 2, seq: 8, epoch: 'e1', mirrored: true },
    ]);
    expect([...t.store.rows.get('transactions')!.keys()].sort()).toEqual(['t1', 't2', 't4', 't6']);
    expect(t.store.rows.get('transactions')!.get('t2')).toEqual({ id: 't2', memo: 'new' });
    expect(t.events).toEqual([
      { type: 'pull_started', initial: true },
      { type: 'progress', loaded: 0, total: 5 },
      { type: 'progress', loaded: 2, total: 5 },
      { type: 'progress', loaded: 4, total: 5 },
      { type: 'progress', loaded: 5, total: 5 },
      { type: 'progress', loaded: 7, total: 7 },
      { type: 'pull_succeeded', checkpoint: 8 },
    ]);
    // Mirrored: the next pull is a forward one, not a first mirror.
    const next = setup([jsonResponse(200, page(8, 0))], undefined, t.store);
    await next.puller.pull();
    expect(next.queries()).toEqual(['?after=8&limit=2000']);
    expect(next.events[0]).toEqual({ type: 'pull_started', initial: false });
  });

  it('resumes the walk from its stored cursor after a reload mid-walk, counting on, never restarting it', async () => {
    const t = setup([
      jsonResponse(200, walkPage(9, [9, 8, 7], { has_more: true, total: 6 })),
      jsonResponse(503, {}), jsonResponse(503, {}), jsonResponse(503, {}), jsonResponse(503, {}), jsonResponse(503, {}), jsonResponse(503, {}),
    ]);
    const failed = t.puller.pull();
    for (const ms of [300, 600, 1200, 2400, 4800]) await t.clock.advance(ms);
    expect(await failed).toMatchObject({ ok: false });
    expect(await t.store.getCheckpoint()).toEqual({
      seq: 0, epoch: 'e1', mirrored: false, first: { loaded: 3, total: 6 }, backfill: { top: 9, stage: 'queried', before: 7 },
    });
    // A reload: a new puller over the same store.
    const again = setup([jsonResponse(200, walkPage(9, [3, 2, 1])), jsonResponse(200, page(9, 0))], undefined, t.store);
    expect(await again.puller.pull()).toEqual({ ok: true, checkpoint: 9 });
    expect(again.queries()).toEqual([walkQuery({ top: 9, stage: 'queried', before: 7 }), '?after=9&limit=2000']);
    expect(again.events).toEqual([
      { type: 'pull_started', initial: true },
      { type: 'progress', loaded: 3, total: 6 },
      { type: 'progress', loaded: 6, total: 6 },
      { type: 'progress', loaded: 6, total: 6 },
      { type: 'pull_succeeded', checkpoint: 9 },
    ]);
    expect(t.store.count('transactions')).toBe(6);
    expect(t.store.resets()).toBe(0);
    expect(await t.store.getCheckpoint()).toEqual({ seq: 9, epoch: 'e1', mirrored: true });
  });

  it('restarts the walk from the top when the visibility epoch changes mid-walk', async () => {
    const t = setup([
      jsonResponse(200, walkPage(5, [5, 4], { has_more: true, total: 4 })),
      jsonResponse(200, walkPage(5, [3], { has_more: true, visibility_epoch: 'e2' })),
      jsonResponse(200, walkPage(6, [6, 2], { visibility_epoch: 'e2', total: 2 })),
      jsonResponse(200, page(6, 0, { visibility_epoch: 'e2' })),
    ]);
    expect(await t.puller.pull()).toEqual({ ok: true, checkpoint: 6 });
    expect(t.store.resets()).toBe(1);
    expect(t.queries()).toEqual([walkQuery(null), walkQuery({ top: 5, stage: 'queried', before: 4 }), walkQuery(null), '?after=6&limit=2000']);
    expect([...t.store.rows.get('transactions')!.keys()].sort()).toEqual(['t2', 't6']);
    expect(t.events.filter((e) => e.type === 'pull_started')).toEqual([
      { type: 'pull_started', initial: true }, { type: 'pull_started', initial: true },
    ]);
    expect(t.events.filter((e) => e.type === 'progress').at(-1)).toEqual({ type: 'progress', loaded: 2, total: 2 });
    expect(await t.store.getCheckpoint()).toEqual({ seq: 6, epoch: 'e2', mirrored: true });
  });

  it('goes from the reference stage to the queried one with the cursor the server gives', async () => {
    const t = setup([
      jsonResponse(200, walkPage(4, [4, 1], { stage: 'reference', has_more: true, total: 3 })),
      jsonResponse(200, walkPage(4, [3])),
      jsonResponse(200, page(4, 0)),
    ]);
    expect(await t.puller.pull()).toEqual({ ok: true, checkpoint: 4 });
    expect(t.queries()[1]).toBe(walkQuery({ top: 4, stage: 'reference', before: 1 }));
  });

  it('refuses a walk page that says has_more without moving its cursor down (no endless loop)', async () => {
    const t = setup([
      jsonResponse(200, walkPage(5, [5], { has_more: true, total: 3 })),
      jsonResponse(200, walkPage(5, [5], { has_more: true })),
    ]);
    expect(await t.puller.pull()).toMatchObject({ ok: false, failure: { kind: 'bad_response' } });
    const empty = setup([jsonResponse(200, walkPage(5, [], { has_more: true, total: 3 }))]);
    expect(await empty.puller.pull()).toMatchObject({ ok: false, failure: { kind: 'bad_response' } });
  });

  it('an empty business: the walk ends at once and the forward pull from 0 completes the mirror', async () => {
    const t = setup([jsonResponse(200, walkPage(0, [], { total: 0 })), jsonResponse(200, page(0, 0, { total: 0 }))]);
    expect(await t.puller.pull()).toEqual({ ok: true, checkpoint: 0 });
    expect(t.queries()).toEqual([walkQuery(null), '?after=0&limit=2000']);
    expect(await t.store.getCheckpoint()).toEqual({ seq: 0, epoch: 'e1', mirrored: true });
  });
});
