import type { Card } from '../../schema/entities/card.ts';
import { demoCard, idleCards } from './cards.ts';
import type { Rng } from './prng.ts';
import { CARD_KINDS, FIRST_NAMES, LAST_NAMES, PRIMARY_CARD_NAME, ROSTER } from './roster.ts';
import type { CardKind, RosterEntry } from './roster.ts';
import type { DemoAccount, DemoIdentity, DemoUser } from './types.ts';

/** Everything the people phase needs from the reference phase. */
export interface PeopleContext {
  businessId: string;
  emailDomain: string;
  createdAt: string;
  departmentId: (name: RosterEntry['department']) => string;
  locationId: (name: RosterEntry['location']) => string;
  nextSeq: () => number;
}

export interface Cardholder {
  entry: RosterEntry;
  user: DemoUser;
}

/** A card with what the transaction phase needs to spend on it. */
export interface IssuedCard {
  card: Card;
  holder: Cardholder;
  kind: CardKind;
  /** Share of the holder's spend that lands on this card. */
  share: number;
}

export interface People {
  identities: DemoIdentity[];
  users: DemoUser[];
  cardholders: Cardholder[];
  cards: IssuedCard[];
  /** Cards with no spend: a terminated one (replaced by a live card) and one shipped, not activated. */
  idleCards: Card[];
  accounts: DemoAccount[];
}

/** Lower-case ASCII for email local parts: "Martínez" → "martinez", "O'Brien" → "obrien". */
function emailPart(name: string): string {
  return name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z]/g, '');
}

function assignEmails(names: readonly { first: string; last: string }[], domain: string): string[] {
  const taken = new Set<string>();
  return ROSTER.map((entry, i) => {
    const name = names[i] as { first: string; last: string };
    const base = entry.demoEmail ?? `${emailPart(name.first)}.${emailPart(name.last)}`;
    let local = base;
    for (let n = 2; taken.has(local); n++) local = `${base}${n}`;
    taken.add(local);
    return `${local}@${domain}`;
  });
}

export function buildPeople(rng: Rng, ctx: PeopleContext): People {
  const firsts = rng.shuffle(FIRST_NAMES);
  const lasts = rng.shuffle(LAST_NAMES);
  const names = ROSTER.map((_, i) => ({ first: firsts[i % firsts.length] as string, last: lasts[i % lasts.length] as string }));
  const emails = assignEmails(names, ctx.emailDomain);
  const ids = new Map(ROSTER.map((entry) => [entry.key, rng.uuid()]));
  const managers = new Set(ROSTER.flatMap((entry) => (entry.manager ? [entry.manager] : [])));

  const identities: DemoIdentity[] = [];
  const cardholders: Cardholder[] = ROSTER.map((entry, i) => {
    const identity: DemoIdentity = { id: rng.uuid(), email: emails[i] as string, created_at: ctx.createdAt };
    identities.push(identity);
    const name = names[i] as { first: string; last: string };
    const user: DemoUser = {
      id: ids.get(entry.key) as string,
      identity_id: identity.id,
      role: entry.role,
      business_id: ctx.businessId,
      external_firm: null,
      has_finished_onboarding: true,
      is_business_locked: false,
      is_manager: managers.has(entry.key),
      user_permissions: [...(entry.permissions ?? [])],
      payroll_currency: entry.location === 'London' ? 'GBP' : 'USD',
      has_accepted_cardholder_agreement: true,
      impersonator: null,
      // Relative to whoever is asking; the server computes it per request.
      acting_user_is_in_reporting_chain: false,
      first_name: name.first,
      last_name: name.last,
      external_firm_role: null,
      email: identity.email,
      manager_id: entry.manager ? (ids.get(entry.manager) ?? null) : null,
      department_id: ctx.departmentId(entry.department),
      location_id: ctx.locationId(entry.location),
      status: 'ACTIVE',
      change_seq: ctx.nextSeq(),
      updated_at: ctx.createdAt,
      deleted: false,
    };
    return { entry, user };
  });

  const cards = issueCards(rng, cardholders, ctx);
  return {
    identities,
    users: cardholders.map((c) => c.user),
    cardholders,
    cards: cards.issued,
    idleCards: cards.idle,
    accounts: demoAccounts(cardholders),
  };
}

function issueCards(rng: Rng, cardholders: readonly Cardholder[], ctx: PeopleContext): { issued: IssuedCard[]; idle: Card[] } {
  const usedLastFour = new Set<string>();
  const lastFour = () => {
    let candidate: string;
    do candidate = String(rng.int(0, 9999)).padStart(4, '0');
    while (usedLastFour.has(candidate));
    usedLastFour.add(candidate);
    return candidate;
  };
  const issued: IssuedCard[] = [];
  let purpose = 0;
  for (const holder of cardholders) {
    const extra = holder.entry.cards;
    if (extra === null) continue;
    const kinds: CardKind[] = ['everyday', ...extra];
    kinds.forEach((kind) => {
      // The everyday card is the plastic one; purpose cards live in wallets and SaaS billing pages.
      const card = demoCard({
        id: rng.uuid(),
        display_name: kind === 'everyday' ? PRIMARY_CARD_NAME[holder.entry.persona] : CARD_KINDS[kind].name,
        last_four: lastFour(),
        business_id: ctx.businessId,
        change_seq: ctx.nextSeq(),
        updated_at: ctx.createdAt,
      }, holder.user, kind, kind === 'everyday' ? 0 : purpose++);
      const share = kinds.length === 1 ? 1 : kind === 'everyday' ? 0.6 : 0.4 / (kinds.length - 1);
      issued.push({ card, holder, kind, share });
    });
  }
  // Drawn after every spending card, so the cards above keep their ids and numbers.
  const manager = cardholders.find((c) => c.entry.demoEmail === 'manager');
  const renewed = issued.find((c) => c.kind === 'everyday' && c.holder !== manager && !CARD_DEMO_ACCOUNTS.has(c.holder.entry.demoEmail ?? ''));
  const idle = manager && renewed ? idleCards(rng, renewed.card, manager.user, lastFour, ctx.nextSeq) : [];
  return { issued, idle };
}

/**
 * The demo accounts the card walkthroughs are written around: the renewed card goes to the first
 * everyday cardholder who is none of them. The AP clerk signs in since bill pay but still counts as
 * an ordinary cardholder here, so the seeded cards keep the holders, ids and numbers they had.
 */
const CARD_DEMO_ACCOUNTS: ReadonlySet<string> = new Set(['owner', 'admin', 'bookkeeper', 'manager', 'employee', 'auditor']);

/** The order the demo accounts are listed in (README, CLI, server banner). */
const DEMO_ORDER = ['owner', 'admin', 'bookkeeper', 'apclerk', 'manager', 'employee', 'auditor'];

function demoAccounts(cardholders: readonly Cardholder[]): DemoAccount[] {
  const rank = (c: Cardholder) => DEMO_ORDER.indexOf(c.entry.demoEmail ?? '');
  return cardholders
    .filter((c) => c.entry.demoEmail !== undefined)
    .sort((a, b) => rank(a) - rank(b))
    .map(({ user }) => ({
      email: user.email,
      role: user.role,
      is_manager: user.is_manager,
      user_id: user.id,
      name: `${user.first_name} ${user.last_name}`,
    }));
}
