/**
 * Synthetic but realistic transactions for bench/engine-scale.ts, drawn from the demo seed's own
 * tables (merchants per spend category with their weights, the roster's first and last names,
 * departments, offices, the GL chart, the spend categories' memos), deterministic from a seed.
 * Rows are made a page at a time and handed out as fresh JSON (every string its own allocation,
 * as rows read from IndexedDB are), so the engine's heap is measured as the worker's would be.
 */
import type { Transaction } from '../schema/entities/transaction.ts';
import { MERCHANTS } from '../server/seed/merchants.ts';
import { DEPARTMENTS, GL_ACCOUNTS, LOCATIONS, MEMO_CITIES, MEMO_CLIENTS, SPEND_CATEGORIES, SPEND_CATEGORY_KEYS } from '../server/seed/reference-data.ts';
import { FIRST_NAMES, LAST_NAMES } from '../server/seed/roster.ts';
import { ReferenceCache } from '../workers/reference-cache.ts';
import { BUSINESS_ID as BUSINESS, seededRandom as xorshift, testUuid as uuid } from '../workers/testing/seeded.ts';

export interface Person { id: string; first: string; last: string }
export interface BenchWorld {
  people: Person[];
  merchants: { name: string; weight: number; category: string }[];
  gls: { id: string; code: string; name: string }[];
  departments: { id: string; name: string }[];
  locations: { id: string; name: string }[];
  memos: string[];
  refs: ReferenceCache;
}

/** The business: `people` cardholders (names from the roster's lists), the seed's chart and merchants. */
export function benchWorld(peopleCount: number): BenchWorld {
  const people = Array.from({ length: peopleCount }, (_, i) => ({
    id: uuid(2, i + 1),
    first: FIRST_NAMES[i % FIRST_NAMES.length]!,
    last: LAST_NAMES[Math.floor(i / FIRST_NAMES.length + i) % LAST_NAMES.length]!,
  }));
  const merchants = SPEND_CATEGORY_KEYS.flatMap((category) =>
    Object.values(MERCHANTS[category]).flatMap((list) => (list ?? []).map((m) => ({ name: m.name, weight: m.weight, category }))));
  const gls = GL_ACCOUNTS.map((g, i) => ({ id: uuid(5, i + 1), code: g.code, name: g.name }));
  const departments = DEPARTMENTS.map((name, i) => ({ id: uuid(3, i + 1), name }));
  const locations = LOCATIONS.map((l, i) => ({ id: uuid(4, i + 1), name: l.name }));
  // The seed's memo templates, with each of its cities and clients.
  const memos = [...new Set(SPEND_CATEGORY_KEYS.flatMap((k) => SPEND_CATEGORIES[k].memos).flatMap((t) =>
    MEMO_CITIES.map((city, i) => t.replace('{city}', city).replace('{client}', MEMO_CLIENTS[i % MEMO_CLIENTS.length]!))))];
  const refs = new ReferenceCache();
  const row = (o: object) => ({ business_id: BUSINESS, change_seq: 1, updated_at: '2026-01-01T00:00:00.000Z', deleted: false, ...o });
  refs.apply('users', people.map((p) => row({ id: p.id, first_name: p.first, last_name: p.last })) as never, []);
  refs.apply('gl_accounts', gls.map((g) => row(g)) as never, []);
  refs.apply('departments', departments.map((d) => row(d)) as never, []);
  refs.apply('locations', locations.map((l) => row(l)) as never, []);
  return { people, merchants, gls, departments, locations, memos, refs };
}

function weighted<T extends { weight: number }>(items: readonly T[], rand: () => number): () => T {
  const cumulative: number[] = [];
  let sum = 0;
  for (const item of items) cumulative.push((sum += item.weight));
  return () => {
    const x = rand() * sum;
    let lo = 0;
    let hi = cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid]! > x) hi = mid;
      else lo = mid + 1;
    }
    return items[lo]!;
  };
}

/** Transactions `from` .. `from + n - 1` of the world, over 3 years, as fresh JSON. */
export function rowPage(world: BenchWorld, from: number, n: number, seed = 1): Transaction[] {
  const rand = xorshift(seed * 1_000_003 + from);
  const merchant = weighted(world.merchants, rand);
  const pick = <T>(items: readonly T[]) => items[Math.floor(rand() * items.length)]!;
  const start = Date.parse('2023-12-01T00:00:00.000Z');
  const span = 3 * 365 * 86_400_000;
  const out: Transaction[] = [];
  for (let i = from; i < from + n; i++) {
    const m = merchant();
    const person = world.people[Math.floor(Math.pow(rand(), 1.6) * world.people.length)]!;
    const coded = rand() < 0.7;
    out.push({
      id: uuid(1, i + 1), business_id: BUSINESS, change_seq: i + 1, updated_at: '2026-11-01T00:00:00.000Z',
      card_id: uuid(7, 1 + (world.people.indexOf(person) * 2 + (rand() < 0.2 ? 1 : 0))), user_id: person.id,
      merchant_name: m.name, merchant_category: m.category, amount: Math.round(Math.exp(rand() * 9) * 100) * (rand() < 0.02 ? -1 : 1),
      currency: rand() < 0.85 ? 'USD' : rand() < 0.5 ? 'GBP' : 'EUR',
      occurred_at: new Date(start + Math.floor(rand() * span / 1000) * 1000).toISOString(),
      state: rand() < 0.9 ? 'CLEARED' : rand() < 0.8 ? 'PENDING' : 'DECLINED',
      memo: rand() < 0.25 ? pick(world.memos) : null,
      gl_account_id: coded ? pick(world.gls).id : null,
      department_id: rand() < 0.9 ? pick(world.departments).id : null,
      location_id: rand() < 0.8 ? pick(world.locations).id : null,
      tracking: {}, receipt_ids: rand() < 0.6 ? [uuid(9, i + 1)] : [],
      attendee_split: null, accounting_synced_at: null, merchant_country: null, fraud_status: null, fraud_reasons: [],
      dispute_id: null, coding_suggestion_dismissed_at: null,
    } as unknown as Transaction);
  }
  return JSON.parse(JSON.stringify(out)) as Transaction[];
}

const words = (s: string) => s.toLowerCase().split(/[^\p{L}\p{N}&']+/u).filter((w) => w.length >= 3);

/** 200 queries in bench/queries.ts's mix: merchants, partial words, people, GL, memo words, places. */
export function benchQueries(world: BenchWorld): string[] {
  const take = <T>(items: readonly T[], n: number): T[] => Array.from({ length: n }, (_, i) => items[Math.floor((i * items.length) / n) % items.length]!);
  const byWeight = [...world.merchants].sort((a, b) => b.weight - a.weight).map((m) => m.name);
  const partial = [...new Set(byWeight.flatMap((name, i) => words(name).filter((w) => w.length >= 5).map((w) => w.slice(0, 3 + (i % 3)))))];
  const people = world.people.flatMap((p) => [`${p.first} ${p.last}`, p.last, p.first]);
  const gl = world.gls.flatMap((g) => [g.name, g.code]);
  const memoWords = [...new Set(world.memos.flatMap(words))];
  const places = [...world.departments, ...world.locations].map((p) => p.name);
  return [
    ...take([...new Set(byWeight)], 45), ...take(partial, 40), ...take(people, 40), ...take(gl, 30), ...take(memoWords, 30), ...take(places, 15),
  ];
}
