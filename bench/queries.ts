/**
 * The benchmark's 200 search queries, built deterministically from the seeded database so that
 * every query means something: whole merchant names, partial words (what a user types before
 * finishing), cardholder names, GL account names and codes, memo words, departments and
 * locations. Same seed → same list, so runs compare.
 */
import type { Db } from '../server/db/db.ts';

export const QUERY_COUNT = 200;

/** How many queries each kind contributes (sums to QUERY_COUNT). */
const MIX = {
  merchant: 45,
  partial: 40,
  user: 40,
  gl: 30,
  memo: 30,
  place: 15,
} as const;

const words = (s: string) => s.toLowerCase().split(/[^\p{L}\p{N}&']+/u).filter((w) => w.length >= 3);

/** Takes n items spread evenly over `items` (so a long list is sampled, not truncated). */
export function spread<T>(items: readonly T[], n: number): T[] {
  if (items.length <= n) return [...items];
  const out: T[] = [];
  for (let i = 0; i < n; i++) out.push(items[Math.floor((i * items.length) / n)] as T);
  return out;
}

/** Prefixes of 3–5 characters of the words of `names`, deduplicated, in a stable order. */
export function partialWords(names: readonly string[]): string[] {
  const seen = new Set<string>();
  names.forEach((name, i) => {
    for (const w of words(name)) {
      if (w.length < 5) continue;
      seen.add(w.slice(0, 3 + (i % 3)));
    }
  });
  return [...seen];
}

/** Cycles `items` until n are taken (small seeds have fewer distinct names than the mix asks). */
function fill(items: readonly string[], n: number): string[] {
  if (items.length === 0) return [];
  const base = spread(items, n);
  const out = [...base];
  for (let i = 0; out.length < n; i++) out.push(items[i % items.length] as string);
  return out;
}

export async function buildQueries(db: Db, businessId: string): Promise<string[]> {
  const col = async (sql: string): Promise<string[]> =>
    (await db.query<{ v: string }>(sql, [businessId])).map((r) => r.v).filter(Boolean);
  const merchants = await col(
    `SELECT merchant_name AS v FROM transactions WHERE business_id = $1 AND NOT deleted
     GROUP BY merchant_name ORDER BY count(*) DESC, merchant_name`,
  );
  const users = await col(
    `SELECT v FROM (
       SELECT first_name || ' ' || last_name AS v, 0 AS k, id FROM spend_users WHERE business_id = $1
       UNION ALL SELECT last_name, 1, id FROM spend_users WHERE business_id = $1
       UNION ALL SELECT first_name, 2, id FROM spend_users WHERE business_id = $1) u
     ORDER BY id, k`,
  );
  const gl = await col(
    `SELECT v FROM (SELECT name AS v, code FROM gl_accounts WHERE business_id = $1
       UNION ALL SELECT code, code FROM gl_accounts WHERE business_id = $1) g ORDER BY code, v`,
  );
  const memos = await col(
    `SELECT memo AS v FROM transactions WHERE business_id = $1 AND memo IS NOT NULL AND NOT deleted
     GROUP BY memo ORDER BY count(*) DESC, memo LIMIT 500`,
  );
  const places = await col(
    `SELECT name AS v FROM departments WHERE business_id = $1
     UNION ALL SELECT name FROM locations WHERE business_id = $1 ORDER BY 1`,
  );
  const memoWords = [...new Set(memos.flatMap(words))];
  const queries = [
    ...fill(merchants, MIX.merchant),
    ...fill(partialWords(merchants), MIX.partial),
    ...fill(users, MIX.user),
    ...fill(gl, MIX.gl),
    ...fill(memoWords.length ? memoWords : merchants.flatMap(words), MIX.memo),
    ...fill(places, MIX.place),
  ];
  if (queries.length !== QUERY_COUNT) {
    throw new Error(`expected ${QUERY_COUNT} queries, built ${queries.length} (is the database seeded?)`);
  }
  return queries;
}

/** How many claim queries `buildReimbursementQueries` builds (merchants, partial words, memo words). */
export const REIMBURSEMENT_QUERY_COUNT = 60;

/**
 * Queries over the claims' searchable text (merchant and memo: schema/entities/reimbursement.ts
 * `searchText`): whole merchant names, 3–5-letter prefixes of their words, memo words. Same seed
 * → same list. Fewer when the seed has no claims with those fields.
 */
export async function buildReimbursementQueries(db: Db, businessId: string): Promise<string[]> {
  const col = async (sql: string): Promise<string[]> =>
    (await db.query<{ v: string }>(sql, [businessId])).map((r) => r.v).filter(Boolean);
  const merchants = await col(
    `SELECT merchant AS v FROM reimbursements WHERE business_id = $1 AND merchant IS NOT NULL AND NOT deleted
     GROUP BY merchant ORDER BY count(*) DESC, merchant`,
  );
  const memos = await col(
    `SELECT memo AS v FROM reimbursements WHERE business_id = $1 AND memo IS NOT NULL AND NOT deleted
     GROUP BY memo ORDER BY count(*) DESC, memo LIMIT 500`,
  );
  const third = REIMBURSEMENT_QUERY_COUNT / 3;
  return [...fill(merchants, third), ...fill(partialWords(merchants), third), ...fill([...new Set(memos.flatMap(words))], third)];
}
