import type { Department } from '../../schema/entities/department.ts';
import type { GlAccount } from '../../schema/entities/gl-account.ts';
import type { Location } from '../../schema/entities/location.ts';
import type { TrackingCategory } from '../../schema/entities/tracking-category.ts';
import { Rng } from './prng.ts';
import { fitLimits } from './cards.ts';
import { buildPeople } from './people.ts';
import {
  COST_CENTER_BY_DEPARTMENT,
  DEPARTMENTS,
  GL_ACCOUNTS,
  LOCATIONS,
  TRACKING_CATEGORIES,
} from './reference-data.ts';
import { buildTransactions } from './transactions.ts';
import type { CodingIds } from './transactions.ts';
import {
  DEFAULT_BUSINESS_NAME,
  DEFAULT_EMAIL_DOMAIN,
  DEFAULT_SEED,
  HISTORY_MONTHS,
} from './types.ts';
import type { DemoData, GenerateDemoOptions } from './types.ts';

export * from './types.ts';

/** The first instant of the seed's history: `now` minus HISTORY_MONTHS calendar months (UTC). */
export function historyStart(now: Date): Date {
  const start = new Date(now.getTime());
  start.setUTCMonth(start.getUTCMonth() - HISTORY_MONTHS);
  return start;
}

interface ReferenceRows {
  departments: Department[];
  locations: Location[];
  glAccounts: GlAccount[];
  trackingCategories: TrackingCategory[];
  coding: CodingIds;
}

function byName<T extends { id: string; name: string }>(rows: readonly T[]): Map<string, string> {
  return new Map(rows.map((r) => [r.name, r.id]));
}

function buildReference(rng: Rng, businessId: string, createdAt: string, nextSeq: () => number): ReferenceRows {
  const mirrored = () => ({ business_id: businessId, change_seq: nextSeq(), updated_at: createdAt, deleted: false });
  const departments = DEPARTMENTS.map((name) => ({ id: rng.uuid(), name, owner_ids: [], ...mirrored() }));
  const locations = LOCATIONS.map(({ name }) => ({ id: rng.uuid(), name, owner_ids: [], ...mirrored() }));
  const glAccounts = GL_ACCOUNTS.map((gl) => ({ id: rng.uuid(), ...gl, ...mirrored() }));
  const trackingCategories = TRACKING_CATEGORIES.map((tc) => ({
    id: rng.uuid(),
    name: tc.name,
    options: tc.options.map((name) => ({ id: rng.uuid(), name })),
    ...mirrored(),
  }));

  const category = (name: string) => {
    const found = trackingCategories.find((tc) => tc.name === name);
    if (!found) throw new Error(`reference data lacks tracking category ${name}`);
    return { id: found.id, options: byName(found.options) };
  };
  const project = category('Project');
  const costCenter = category('Cost center');
  const region = category('Region');
  const pickOption = (options: Map<string, string>, name: string) => {
    const id = options.get(name);
    if (!id) throw new Error(`reference data lacks tracking option ${name}`);
    return id;
  };

  return {
    departments,
    locations,
    glAccounts,
    trackingCategories,
    coding: {
      glIdByCode: new Map(glAccounts.map((gl) => [gl.code, gl.id])),
      departmentIdByName: byName(departments),
      locationIdByName: byName(locations),
      tracking: {
        projectId: project.id,
        projectOptionIds: [...project.options.values()],
        costCenterId: costCenter.id,
        costCenterOptionIdByDepartment: new Map(
          DEPARTMENTS.map((d) => [d, pickOption(costCenter.options, COST_CENTER_BY_DEPARTMENT[d])]),
        ),
        regionId: region.id,
        regionOptionIdByLocation: new Map(LOCATIONS.map((l) => [l.name, pickOption(region.options, l.trackingRegion)])),
      },
    },
  };
}

/**
 * The demo business as plain rows, a pure function of its options: the same options give
 * byte-identical output. Each phase draws from its own PRNG stream, so the people and reference
 * ids stay the same whatever the number of transactions.
 */
export function generateDemo(opts: GenerateDemoOptions): DemoData {
  if (!Number.isInteger(opts.transactions) || opts.transactions < 0) {
    throw new RangeError('transactions must be a non-negative integer');
  }
  const nowMs = opts.now.getTime();
  if (!Number.isFinite(nowMs)) throw new RangeError('now must be a valid date');
  const seed = opts.seed ?? DEFAULT_SEED;
  const businessName = opts.businessName ?? DEFAULT_BUSINESS_NAME;
  const emailDomain = (opts.emailDomain ?? DEFAULT_EMAIL_DOMAIN).toLowerCase();
  // Folding the tenant into every stream lets two demo businesses share one database without
  // their ids colliding, while each stays deterministic.
  const stream = (phase: string) => new Rng(seed, `${businessName}\u0000${emailDomain}\u0000${phase}`);
  const start = historyStart(opts.now).getTime();
  // The business signed up a month before its first card transaction.
  const createdAt = new Date(start - 30 * 24 * 3_600_000).toISOString();

  let seq = 0;
  const nextSeq = () => ++seq;
  const businessId = stream('business').uuid();
  const reference = buildReference(stream('reference'), businessId, createdAt, nextSeq);
  const lookup = (map: ReadonlyMap<string, string>, name: string) => {
    const id = map.get(name);
    if (!id) throw new Error(`reference data lacks ${name}`);
    return id;
  };
  const people = buildPeople(stream('people'), {
    businessId,
    emailDomain,
    createdAt,
    departmentId: (name) => lookup(reference.coding.departmentIdByName, name),
    locationId: (name) => lookup(reference.coding.locationIdByName, name),
    nextSeq,
  });
  const transactions = buildTransactions(
    stream('transactions'),
    { businessId, now: nowMs, start, cards: people.cards, coding: reference.coding, nextSeq },
    opts.transactions,
  );
  // Limits fit the generated history: most cards have room left this interval.
  fitLimits(people.cards.map((c) => c.card), transactions, opts.now);

  return {
    business: {
      id: businessId,
      name: businessName,
      currency: 'USD',
      status: 'ACTIVE',
      created_at: createdAt,
    },
    departments: reference.departments,
    locations: reference.locations,
    glAccounts: reference.glAccounts,
    trackingCategories: reference.trackingCategories,
    identities: people.identities,
    users: people.users,
    // The retired card first: its successor's replaces_id points at it.
    cards: [...people.idleCards, ...people.cards.map((c) => c.card)],
    transactions,
    accounts: people.accounts,
    maxChangeSeq: seq,
  };
}
