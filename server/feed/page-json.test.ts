import { describe, expect, it } from 'vitest';
import type { ActingUser } from '../core/actor.ts';
import type { FeedPage, FeedPageQuery, SeqListener } from '../core/deps.ts';
import { testDatabases } from '../test-db.ts';
import { useTestApp } from '../test-app.ts';
import { makeBusiness, request, signIn, type FixtureRole } from '../test-fixtures.ts';
import { readChanges, readChangesJson } from './changes.ts';
import { FeedPageCache } from './page-cache.ts';
import { SYNC_BATCH_DEFAULT } from '../../schema/constants.ts';

/** Issue 13: the feed's answer is PostgreSQL's doc text spliced in, and the walk's next page is prepared. */

describe.each(await testDatabases())('feed pages as JSON text on %s', (kind) => {
  const t = useTestApp(kind);

  const actingUser = async (id: string): Promise<ActingUser> => {
    const [user] = await t.db.query<ActingUser>(
      'SELECT id::text, business_id::text, role, is_manager, user_permissions, manager_id::text FROM spend_users WHERE id = $1',
      [id],
    );
    return user!;
  };

  it.each<FixtureRole>(['admin', 'manager', 'employee'])('parses to the value readChanges gives, page by page, backfill and forward (%s)', async (role) => {
    const f = await makeBusiness(t.db, { transactions: 25 });
    const user = await actingUser(f.users[role]);
    // A tombstone, so the forward feed carries a null doc.
    const token = await signIn(t.app, f.email('admin'));
    expect((await request(t.app, 'DELETE', `/v1/auth/businesses/departments/${f.departments[0]}`, { token })).status).toBe(200);
    let pages = 0;
    for (const start of [{ after: 0, limit: 6, backfill: true }, { after: 0, limit: 6 }] satisfies FeedPageQuery[]) {
      for (let q: FeedPageQuery | null = start; q; pages++) {
        const json = await readChangesJson(t.db, user, q);
        const objects = await readChanges(t.db, user, q);
        expect(JSON.parse(json.text)).toEqual(objects);
        // Same keys in the same order as the object answer's JSON.stringify.
        expect(JSON.stringify(JSON.parse(json.text))).toBe(JSON.stringify(objects));
        q = json.next;
        if (objects.has_more) expect(q).not.toBeNull();
        else expect(q).toBeNull();
      }
    }
    expect(pages).toBeGreaterThan(4);
  });

  it('prepares the page after a walk\'s first page at the default batch (the puller asks the first at its floor), later ones at their own limit', async () => {
    const f = await makeBusiness(t.db, { transactions: 25 });
    const user = await actingUser(f.users.admin);
    const first = await readChangesJson(t.db, user, { after: 0, limit: 6, backfill: true });
    expect(first.next).toMatchObject({ backfill: true, limit: SYNC_BATCH_DEFAULT });
    const second = await readChangesJson(t.db, user, { ...first.next!, limit: 6 });
    expect(second.next).toMatchObject({ backfill: true, limit: 6 });
  });
});

describe('FeedPageCache', () => {
  const page = (q: FeedPageQuery, last = 3): FeedPage => ({ text: `page ${q.after}`, next: q.after < last ? { after: q.after + 1, limit: q.limit } : null });
  const setup = () => {
    const listeners = new Set<SeqListener>();
    const announcements = {
      subscribe: async (_b: string, l: SeqListener) => {
        listeners.add(l);
        return () => listeners.delete(l);
      },
      close: async () => {},
    };
    const computed: string[] = [];
    const compute = async (q: FeedPageQuery) => {
      computed.push(`${q.after}`);
      return page(q);
    };
    return { cache: new FeedPageCache(announcements, 30_000), listeners, computed, compute };
  };
  const alice = { business_id: 'b1', id: 'alice' };
  const bob = { business_id: 'b1', id: 'bob' };
  const settle = () => new Promise((r) => setTimeout(r, 0));

  it('prepares the next page after each answer that has more, and answers the request for it from there', async () => {
    const { cache, computed, compute, listeners } = setup();
    expect(await cache.read(alice, { after: 0, limit: 5 }, compute)).toBe('page 0');
    await settle();
    expect(computed).toEqual(['0', '1']);
    expect(await cache.read(alice, { after: 1, limit: 5 }, compute)).toBe('page 1');
    expect(await cache.read(alice, { after: 2, limit: 5 }, compute)).toBe('page 2');
    expect(await cache.read(alice, { after: 3, limit: 5 }, compute)).toBe('page 3');
    await settle();
    await settle();
    // Every page read once; nothing prepared after the last, and nothing left watched.
    expect(computed).toEqual(['0', '1', '2', '3']);
    expect(listeners.size).toBe(0);
  });

  it('keeps a page for its own user and query only, and drops it when the business announces a change', async () => {
    const { cache, computed, compute, listeners } = setup();
    await cache.read(alice, { after: 0, limit: 5 }, compute);
    await settle();
    // Another user, or another query of the same user, is computed as without a cache.
    expect(await cache.read(bob, { after: 1, limit: 5 }, compute)).toBe('page 1');
    expect(await cache.read(alice, { after: 1, limit: 9 }, compute)).toBe('page 1');
    await settle();
    expect([...computed].sort()).toEqual(['0', '1', '1', '1', '2', '2']);
    for (const l of [...listeners]) l.onSeq(99);
    await settle();
    expect(listeners.size).toBe(0);
    await cache.read(alice, { after: 2, limit: 9 }, compute);
    expect(computed.slice(6)).toEqual(['2']);
    cache.close();
  });
});
