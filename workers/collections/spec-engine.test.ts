import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineEntity } from '../../schema/entities/define-entity.ts';
import { queryTerms } from '../../schema/transaction-query.ts';
import { QueryEngine } from '../query-engine.ts';
import { ReferenceCache } from '../reference-cache.ts';
import { matchesText } from '../search-index.ts';
import { makeUser, seededRandom, testUuid } from '../test-fixtures.ts';
import { refersTo, specEngine, specText } from './spec-engine.ts';

/**
 * A made-up queried collection, declared the way schema/entities declares real ones: the engine,
 * the filter, the sorts and the text must work from its definition alone.
 */
const tripSchema = z.object({ id: z.uuid(), traveller_id: z.uuid(), destination: z.string(), nights: z.number().int(), tags: z.array(z.string()) });
type Trip = z.infer<typeof tripSchema>;
const TRIP_SORTS = ['nights_desc', 'destination_asc'] as const;
type TripSort = (typeof TRIP_SORTS)[number];
const tripFilterSchema = z.object({ q: z.string().optional(), min_nights: z.number().int().optional(), traveller_ids: z.array(z.uuid()).optional() });
type TripFilter = z.infer<typeof tripFilterSchema>;

const byId = (a: Trip, b: Trip) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
const tripEntity = defineEntity({
  name: 'trips',
  schema: tripSchema,
  idField: 'id',
  mirror: { kind: 'own', indexes: [] },
  visibility: 'owner',
  searchText: ['destination', 'tags'],
  columns: {
    id: { type: 'uuid' }, traveller_id: { type: 'uuid' }, destination: { type: 'text' }, nights: { type: 'int' }, tags: { type: 'text[]' },
  },
  query: {
    filter: tripFilterSchema,
    sorts: TRIP_SORTS,
    matches: (t: Trip, f: TripFilter) =>
      (f.min_nights === undefined || t.nights >= f.min_nights) && (!f.traveller_ids?.length || f.traveller_ids.includes(t.traveller_id)),
    compare: (sort: TripSort) =>
      sort === 'nights_desc'
        ? (a: Trip, b: Trip) => b.nights - a.nights || byId(a, b)
        : (a: Trip, b: Trip) => a.destination.localeCompare(b.destination) || byId(a, b),
    referencedIds: (t: Trip) => [t.traveller_id],
  },
});

const DESTINATIONS = ['Lisbon', 'Oslo', 'Kyoto', 'Quito', 'Nairobi', 'Lima'];
function trips(n: number, seed: number): Trip[] {
  const rand = seededRandom(seed);
  return Array.from({ length: n }, (_, i) =>
    tripSchema.parse({
      id: testUuid(8, i + 1),
      traveller_id: testUuid(2, 1 + Math.floor(rand() * 3)),
      destination: DESTINATIONS[Math.floor(rand() * DESTINATIONS.length)],
      nights: Math.floor(rand() * 14),
      tags: rand() < 0.5 ? ['conference'] : ['offsite', 'team'],
    }),
  );
}

function setup() {
  const refs = new ReferenceCache();
  refs.apply('users', [makeUser(1, 'Ada', 'Lovelace'), makeUser(2, 'Grace', 'Hopper'), makeUser(3, 'Alan', 'Turing')], []);
  const textOf = specText(tripEntity.searchText, tripEntity.query.referencedIds, refs);
  const engine = new QueryEngine(specEngine(tripEntity.query, textOf));
  return { refs, textOf, engine };
}

/** The obvious implementation, straight from the definition. */
function reference(rows: Trip[], textOf: (t: Trip) => string, filter: TripFilter, sort: TripSort): string[] {
  const terms = queryTerms(filter.q);
  return rows
    .filter((t) => tripEntity.query.matches(t, filter) && (terms.length === 0 || matchesText(textOf(t), terms)))
    .sort(tripEntity.query.compare(sort))
    .map((t) => t.id);
}

const FILTERS: [string, TripFilter][] = [
  ['no filter', {}],
  ['min nights', { min_nights: 7 }],
  ['traveller', { traveller_ids: [testUuid(2, 2)] }],
  ['own text', { q: 'kyo' }],
  ['text in a list field', { q: 'offsite' }],
  ['text of a referenced row', { q: 'hopper' }],
  ['text and filter', { q: 'lisbon ada', min_nights: 3 }],
];

describe('QueryEngine over a made-up entity, from its definition alone', () => {
  const rows = trips(400, 4);
  const { engine, textOf } = setup();
  engine.upsertMany(rows.slice(0, 150));
  engine.upsertMany(rows.slice(150));
  engine.indexSome(200);

  for (const [name, filter] of FILTERS) {
    for (const sort of TRIP_SORTS) {
      it(`${name} / ${sort}`, () => {
        const page = engine.query({ filter, sort, offset: 0, limit: 1e6 });
        expect(page.rows.map((r) => r.id)).toEqual(reference(rows, textOf, filter, sort));
      });
    }
  }

  it('gives matching ids in the first sort', () => {
    expect(engine.matchingIds({ min_nights: 10 })).toEqual(reference(rows, textOf, { min_nights: 10 }, 'nights_desc'));
  });
});

describe('QueryEngine over a made-up entity, updated', () => {
  it('re-places updated rows, drops removed ones, and re-indexes rows whose referenced name changed', () => {
    const { engine, refs, textOf } = setup();
    const rows = trips(200, 9);
    engine.upsertMany(rows);
    for (const sort of TRIP_SORTS) engine.query({ filter: {}, sort, offset: 0, limit: 1 });
    const longest = { ...rows[5]!, nights: 99, destination: 'Aachen' };
    engine.upsertMany([longest]);
    engine.removeMany([rows[6]!.id]);
    const live = rows.filter((r) => r.id !== rows[6]!.id).map((r) => (r.id === longest.id ? longest : r));
    for (const sort of TRIP_SORTS) {
      expect(engine.query({ filter: {}, sort, offset: 0, limit: 1e6 }).rows.map((r) => r.id)).toEqual(reference(live, textOf, {}, sort));
    }
    expect(engine.query({ filter: {}, sort: 'nights_desc', offset: 0, limit: 1 }).rows[0]?.id).toBe(longest.id);

    const changed = new Set(refs.apply('users', [makeUser(2, 'Grace', 'Brewster')], []));
    expect(changed).toEqual(new Set([testUuid(2, 2)]));
    const renamed = engine.reindexWhere(refersTo(tripEntity.query.referencedIds, changed));
    expect(renamed).toBe(live.filter((t) => t.traveller_id === testUuid(2, 2)).length);
    expect(engine.query({ filter: { q: 'brewster' }, sort: 'nights_desc', offset: 0, limit: 1e6 }).total).toBe(renamed);
    expect(engine.query({ filter: { q: 'hopper' }, sort: 'nights_desc', offset: 0, limit: 1e6 }).total).toBe(0);
  });
});
