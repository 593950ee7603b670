import type { Transaction, TransactionState } from '../../schema/entities/transaction.ts';
import { currencyExponent } from '../../schema/money.ts';
import { WeightedPicker } from './prng.ts';
import type { Rng } from './prng.ts';
import { CURRENCY_BY_REGION, MERCHANTS, USD_TO } from './merchants.ts';
import type { MerchantRegion, MerchantSpec } from './merchants.ts';
import {
  CAPITALIZATION_THRESHOLD_USD,
  LOCATIONS,
  MEMO_CITIES,
  MEMO_CLIENTS,
  SPEND_CATEGORIES,
  SPEND_CATEGORY_KEYS,
} from './reference-data.ts';
import type { Region, SpendCategoryKey } from './reference-data.ts';
import { CARD_KINDS, PERSONA_SPEND } from './roster.ts';
import type { IssuedCard } from './people.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** The business grows: the last month sees about (1 + GROWTH) times the first month's spend. */
const GROWTH = 1.5;
const DECLINE_RATE = 0.01;
const REVERSAL_RATE = 0.002;

/** Coding facts the transaction phase needs, resolved to ids by the reference phase. */
export interface CodingIds {
  glIdByCode: ReadonlyMap<string, string>;
  departmentIdByName: ReadonlyMap<string, string>;
  locationIdByName: ReadonlyMap<string, string>;
  tracking: {
    projectId: string;
    projectOptionIds: readonly string[];
    costCenterId: string;
    costCenterOptionIdByDepartment: ReadonlyMap<string, string>;
    regionId: string;
    regionOptionIdByLocation: ReadonlyMap<string, string>;
  };
}

export interface TransactionContext {
  businessId: string;
  now: number;
  start: number;
  cards: readonly IssuedCard[];
  coding: CodingIds;
  nextSeq: () => number;
}

/** Per card, the pre-built pickers the hot loop draws from. */
interface CardPlan {
  issued: IssuedCard;
  categories: WeightedPicker<SpendCategoryKey>;
  region: Region;
  utcOffset: number;
  departmentId: string | null;
  locationId: string | null;
  costCenterOptionId: string | undefined;
  regionOptionId: string | undefined;
  tagsProjects: boolean;
  /** Seats per per-seat merchant on this card, drawn on first use so the bill stays steady. */
  seats: Map<string, number>;
}

function planCards(ctx: TransactionContext): WeightedPicker<CardPlan> {
  const plans = ctx.cards.map((issued): CardPlan => {
    const { entry } = issued.holder;
    const weights = issued.kind === 'everyday' ? PERSONA_SPEND[entry.persona] : CARD_KINDS[issued.kind].spend;
    const keys = SPEND_CATEGORY_KEYS.filter((k) => (weights[k] ?? 0) > 0);
    const office = LOCATIONS.find((l) => l.name === entry.location) ?? LOCATIONS[0];
    return {
      issued,
      categories: new WeightedPicker(keys, keys.map((k) => weights[k] ?? 0)),
      region: office.region,
      utcOffset: office.utcOffset,
      departmentId: issued.holder.user.department_id,
      locationId: issued.holder.user.location_id,
      costCenterOptionId: ctx.coding.tracking.costCenterOptionIdByDepartment.get(entry.department),
      regionOptionId: ctx.coding.tracking.regionOptionIdByLocation.get(entry.location),
      tagsProjects: ['engineering', 'product', 'marketing'].includes(entry.persona),
      seats: new Map(),
    };
  });
  return new WeightedPicker(plans, plans.map((p) => p.issued.holder.entry.spend * p.issued.share));
}

type MerchantPickers = Record<SpendCategoryKey, Partial<Record<MerchantRegion, WeightedPicker<MerchantSpec>>>>;

function merchantPickers(): MerchantPickers {
  const pickers = {} as MerchantPickers;
  for (const key of SPEND_CATEGORY_KEYS) {
    const byRegion: Partial<Record<MerchantRegion, WeightedPicker<MerchantSpec>>> = {};
    for (const [region, list] of Object.entries(MERCHANTS[key]) as [MerchantRegion, readonly MerchantSpec[]][]) {
      if (list.length > 0) byRegion[region] = new WeightedPicker(list, list.map((m) => m.weight));
    }
    pickers[key] = byRegion;
  }
  return pickers;
}

const TRAVEL: ReadonlySet<SpendCategoryKey> = new Set(['airfare', 'lodging', 'ground', 'meals', 'fuel']);

/** Where the merchant sits: home region mostly, trips abroad now and then, global SaaS anywhere. */
export function merchantRegion(rng: Rng, category: SpendCategoryKey, home: Region): MerchantRegion {
  const lists = MERCHANTS[category];
  if (TRAVEL.has(category)) {
    if (home === 'UK' && rng.chance(0.18)) return 'EU';
    if (home === 'US' && rng.chance(0.03)) return rng.chance(0.5) ? 'UK' : 'EU';
  }
  const local = lists[home] ? home : home === 'UK' || home === 'EU' ? null : 'US';
  if (lists.GLOBAL && (local === null || !lists[local] || rng.chance(0.5))) return 'GLOBAL';
  return local && lists[local] ? local : 'US';
}

/**
 * Per-seat SaaS bills the same seat count every month, growing with the company's headcount
 * (`progress`: 0 at the start of the history, 1 now); others follow the category's curve.
 */
function drawAmountMajor(
  rng: Rng,
  plan: CardPlan,
  category: SpendCategoryKey,
  merchant: MerchantSpec,
  currency: 'USD' | 'GBP' | 'EUR',
  progress: number,
): number {
  if (merchant.seat !== undefined) {
    let seats = plan.seats.get(merchant.name);
    if (seats === undefined) {
      seats = rng.int(4, 45);
      plan.seats.set(merchant.name, seats);
    }
    return merchant.seat * Math.max(1, Math.round(seats * (0.5 + 0.5 * progress)));
  }
  if (merchant.prices && rng.chance(0.75)) return rng.pick(merchant.prices);
  const spec = SPEND_CATEGORIES[category];
  const fx = USD_TO[currency];
  const value = rng.logNormal(spec.median * fx, spec.sigma);
  return Math.min(spec.max * fx, Math.max(spec.min * fx, value));
}

/** Inverse CDF of the density ∝ 1 + GROWTH·x on [0, 1): later days are busier. */
function growthPosition(u: number): number {
  return (-1 + Math.sqrt(1 + 2 * GROWTH * u * (1 + GROWTH / 2))) / GROWTH;
}

/** When the charge happens: in-person spend in local business hours and rarely at weekends. */
function drawTime(rng: Rng, ctx: TransactionContext, inPerson: boolean, utcOffset: number): number {
  let day = Math.floor((ctx.start + growthPosition(rng.next()) * (ctx.now - ctx.start)) / DAY) * DAY;
  let hourUtc: number;
  if (inPerson) {
    const weekday = (Math.floor(day / DAY) + 4) % 7; // 1970-01-01 was a Thursday
    if ((weekday === 0 || weekday === 6) && rng.chance(0.8)) day -= (weekday === 6 ? 1 : 2) * DAY;
    const localHour = Math.min(22.5, Math.max(6.5, 13 + 3 * rng.normal()));
    hourUtc = localHour - utcOffset;
  } else {
    hourUtc = rng.next() * 24;
  }
  const t = Math.floor(day + hourUtc * HOUR + rng.next() * 60_000);
  if (t < ctx.start) return ctx.start + Math.floor(rng.next() * DAY);
  if (t >= ctx.now) return ctx.now - 1 - Math.floor(rng.next() * 6 * HOUR);
  return t;
}

function drawState(rng: Rng, ageMs: number): TransactionState {
  if (rng.chance(DECLINE_RATE)) return 'DECLINED';
  if (rng.chance(REVERSAL_RATE)) return 'REVERSED';
  const pendingOdds = ageMs < DAY ? 0.9 : ageMs < 3 * DAY ? 0.6 : ageMs < 6 * DAY ? 0.15 : 0;
  return rng.chance(pendingOdds) ? 'PENDING' : 'CLEARED';
}

/** The bookkeeper is months ahead on old spend and behind on recent spend. */
function uncodedOdds(ageMs: number): number {
  if (ageMs < 30 * DAY) return 0.85;
  if (ageMs < 75 * DAY) return 0.5;
  return 0.27;
}

function glCodeFor(category: SpendCategoryKey, amountUsd: number): string {
  if (category === 'equipment' && amountUsd >= CAPITALIZATION_THRESHOLD_USD) return '1500';
  if (category === 'software' && amountUsd >= 3000) return '1400'; // annual prepaid plans
  return SPEND_CATEGORIES[category].glCode;
}

function memoFor(rng: Rng, category: SpendCategoryKey, t: number, refund: boolean): string {
  if (refund) return rng.pick(['Refund for cancelled booking', 'Returned item', 'Duplicate charge refunded', 'Credit from merchant']);
  const quarter = String(Math.floor(new Date(t).getUTCMonth() / 3) + 1);
  return rng
    .pick(SPEND_CATEGORIES[category].memos)
    .replace('{city}', rng.pick(MEMO_CITIES))
    .replace('{client}', rng.pick(MEMO_CLIENTS))
    .replace('{quarter}', quarter);
}

function tagTracking(rng: Rng, plan: CardPlan, ids: CodingIds['tracking']): Record<string, string> {
  const tracking: Record<string, string> = {};
  if (plan.regionOptionId && rng.chance(0.85)) tracking[ids.regionId] = plan.regionOptionId;
  if (plan.costCenterOptionId && rng.chance(0.75)) tracking[ids.costCenterId] = plan.costCenterOptionId;
  if (plan.tagsProjects && rng.chance(0.35)) tracking[ids.projectId] = rng.pick(ids.projectOptionIds);
  return tracking;
}

/** N transactions over [start, now), in time order, change_seq ascending with time. */
export function buildTransactions(rng: Rng, ctx: TransactionContext, count: number): Transaction[] {
  const plans = planCards(ctx);
  const merchants = merchantPickers();
  const rows: Transaction[] = new Array(count);
  const times = new Float64Array(count);

  for (let i = 0; i < count; i++) {
    const plan = plans.pick(rng);
    const category = plan.categories.pick(rng);
    const spec = SPEND_CATEGORIES[category];
    const region = merchantRegion(rng, category, plan.region);
    const merchant = (merchants[category][region] as WeightedPicker<MerchantSpec>).pick(rng);
    const currency = CURRENCY_BY_REGION[region];
    const t = drawTime(rng, ctx, spec.inPerson, region === 'GLOBAL' ? 0 : plan.utcOffset);
    const major = drawAmountMajor(rng, plan, category, merchant, currency, (t - ctx.start) / (ctx.now - ctx.start));
    const age = ctx.now - t;
    const refund = rng.chance(spec.refundRate);
    const state = refund ? (age < 3 * DAY ? 'PENDING' : 'CLEARED') : drawState(rng, age);
    const coded = state !== 'DECLINED' && state !== 'REVERSED' && !rng.chance(uncodedOdds(age));
    const minor = Math.max(1, Math.round(major * 10 ** currencyExponent(currency)));
    const memo = rng.chance(refund ? 0.6 : coded ? 0.1 : 0.03) ? memoFor(rng, category, t, refund) : null;
    times[i] = t;
    // Built whole, with the time-order fields filled in later: one object shape, no copies
    // (spreading 100k drafts into new objects took longer than generating them).
    rows[i] = {
      id: rng.uuid(),
      card_id: plan.issued.card.id,
      user_id: plan.issued.holder.user.id,
      merchant_name: merchant.name,
      merchant_category: spec.merchantCategory,
      amount: refund ? -minor : minor,
      currency,
      occurred_at: '',
      state,
      memo,
      gl_account_id: coded ? (ctx.coding.glIdByCode.get(glCodeFor(category, major / USD_TO[currency])) ?? null) : null,
      department_id: coded ? plan.departmentId : null,
      location_id: coded ? plan.locationId : null,
      tracking: coded ? tagTracking(rng, plan, ctx.coding.tracking) : {},
      receipt_ids: [],
      business_id: ctx.businessId,
      change_seq: 0,
      updated_at: '',
      deleted: false,
    };
  }
  return inTimeOrder(rows, times, ctx);
}

/** Orders rows by time (ties by generation order, so the result is deterministic) and stamps them. */
function inTimeOrder(rows: readonly Transaction[], times: Float64Array, ctx: TransactionContext): Transaction[] {
  const order = Array.from({ length: rows.length }, (_, i) => i);
  order.sort((a, b) => (times[a] as number) - (times[b] as number) || a - b);
  return order.map((i) => {
    const t = times[i] as number;
    const row = rows[i] as Transaction;
    // A cleared charge was last touched when it settled, a day or so after the swipe.
    const settled = row.state === 'PENDING' ? t : Math.min(t + DAY + (i % 7) * HOUR, ctx.now - 1);
    row.occurred_at = new Date(t).toISOString();
    row.updated_at = new Date(Math.max(t, settled)).toISOString();
    row.change_seq = ctx.nextSeq();
    return row;
  });
}
