import { describe, expect, it } from 'vitest';
import {
  applyCardPatch, applyRequestStatus, cardActivate, cardBulkLock, cardFavorite, cardIssue, cardLock, cardReissue, cardRequestCancel,
  cardRequestCreate, cardRequestPhysical, cardSetPrimary, cardSuspend, cardTerminate, cardUnfavorite, cardUnlock, cardUnsuspend, cardUpdate,
  newCard,
} from './card.ts';
import { approvalApprove, approvalReject } from './approval.ts';
import { MAX_BULK_LOCK } from '../api/calls-cards.ts';
import { approvalSchema } from '../entities/approval.ts';
import { cardSchema, type Card } from '../entities/card.ts';
import { cardRequestSchema, type CardRequest } from '../entities/card-request.ts';
import type { MirrorReader } from './define-command.ts';

const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const AT = '2026-03-02T10:00:00.000Z';
const CTX = { id: id(50), actor: { user_id: id(3), business_id: id(9) }, at: AT };

const card: Card = cardSchema.parse({
  id: id(1), user_id: id(3), display_name: 'Travel', last_four: '4242', is_physical: false, status: 'ACTIVE',
  limit: { amount: 100_000, currency: 'USD', interval: 'MONTHLY', per_transaction: null }, allowed_categories: ['Airlines'],
  department_id: id(20), expires: '2029-03', created_at: '2026-03-01T10:00:00.000Z', business_id: id(9), change_seq: 4, updated_at: AT, deleted: false,
});

const request: CardRequest = cardRequestSchema.parse({
  id: id(30), user_id: id(3), is_physical: false, amount: 200_000, currency: 'USD', interval: 'MONTHLY', reason: 'Client travel',
  status: 'PENDING', card_id: null, rejection_reason: null, decided_by: null, decided_at: null, created_at: '2026-03-01T10:00:00.000Z',
  business_id: id(9), change_seq: 2, updated_at: AT, deleted: false,
});

describe('card status commands', () => {
  it.each([
    [cardLock, 'ACTIVE', 'LOCKED', 'lock'],
    [cardUnlock, 'LOCKED', 'ACTIVE', 'unlock'],
    [cardSuspend, 'ACTIVE', 'SUSPENDED', 'suspend'],
    [cardUnsuspend, 'SUSPENDED', 'ACTIVE', null],
    [cardTerminate, 'LOCKED', 'TERMINATED', 'terminate'],
  ] as const)('%#: %s → %s, by the card’s id', (def, from, to, action) => {
    const row = { ...card, status: from };
    const next = def.apply(row, { card_id: card.id });
    expect(next).toEqual({ ...row, status: to });
    expect(row.status).toBe(from);
    expect(def.entityIds({ card_id: card.id })).toEqual([card.id]);
    expect(def.request({ card_id: card.id })).toEqual({ params: { card_uuid: card.id } });
    if (action) expect(def.call.path).toBe(`/v1/auth/cards/:card_uuid/${action}`);
  });

  it('lifts a suspension through the rules endpoint', () => {
    expect([cardUnsuspend.call.method, cardUnsuspend.call.path]).toEqual(['DELETE', '/v1/auth/rules/suspend-card/:card_uuid']);
  });

  it('activates with the last four sent, and refuses anything but four digits', () => {
    const shipped = { ...card, status: 'SHIPPED' as const };
    expect(cardActivate.apply(shipped, { card_id: card.id, last_four: '4242' }).status).toBe('ACTIVE');
    expect(cardActivate.request({ card_id: card.id, last_four: '4242' })).toEqual({ params: { card_uuid: card.id }, body: { last_four: '4242' } });
    expect(cardActivate.args.safeParse({ card_id: card.id, last_four: '424' }).success).toBe(false);
  });

  it('reissue terminates the card and names its successor', () => {
    const next = cardReissue.apply(card, { card_id: card.id, successor_id: id(2) });
    expect(next).toMatchObject({ status: 'TERMINATED', replaced_by_id: id(2) });
    expect(cardReissue.request({ card_id: card.id, successor_id: id(2) })).toEqual({ params: { card_uuid: card.id }, body: { successor_id: id(2) } });
  });
});

describe('card.update', () => {
  it('changes only the keys present', () => {
    const next = applyCardPatch(card, { display_name: 'Software' });
    expect(next).toEqual({ ...card, display_name: 'Software' });
  });

  it('replaces the limit and categories (deduplicated) and clears a department', () => {
    const limit = { amount: 5_000, currency: 'EUR', interval: 'WEEKLY', per_transaction: 1_000 } as const;
    const next = cardUpdate.apply(card, { card_id: card.id, patch: { limit, allowed_categories: ['Taxi', 'Taxi', 'Rail'], department_id: null } });
    expect(next).toMatchObject({ limit, allowed_categories: ['Taxi', 'Rail'], department_id: null, location_id: null, display_name: 'Travel' });
    expect(card.limit.amount).toBe(100_000);
  });

  it('refuses a per-purchase cap above the limit and a negative or fractional amount', () => {
    const parse = (limit: object) => cardUpdate.args.safeParse({ card_id: card.id, patch: { limit } }).success;
    expect(parse({ amount: 5_000, currency: 'USD', interval: 'DAILY', per_transaction: 5_000 })).toBe(true);
    expect(parse({ amount: 5_000, currency: 'USD', interval: 'DAILY', per_transaction: 5_001 })).toBe(false);
    expect(parse({ amount: -1, currency: 'USD', interval: 'DAILY' })).toBe(false);
    expect(parse({ amount: 10.5, currency: 'USD', interval: 'DAILY' })).toBe(false);
  });
});

describe('card.issue', () => {
  it('starts a REQUESTED blank without number or expiry, for the named cardholder in the actor’s business', () => {
    const args = cardIssue.args.parse({ id: id(5), user_id: id(7), display_name: 'Ads', limit: { amount: 1_000, currency: 'USD', interval: 'DAILY' } });
    const blank = cardIssue.blank!(args, CTX);
    expect(cardSchema.parse(blank)).toEqual(blank);
    expect(blank).toMatchObject({
      id: id(5), user_id: id(7), business_id: id(9), status: 'REQUESTED', last_four: null, expires: null, is_physical: false,
      is_primary: false, limit: { amount: 1_000, currency: 'USD', interval: 'DAILY', per_transaction: null }, created_at: AT, change_seq: 0,
    });
    expect(cardIssue.apply(blank, args)).toBe(blank);
    expect(cardIssue.request(args)).toEqual({ body: args });
    expect(cardIssue.args.safeParse({ ...args, id: undefined }).success).toBe(false);
  });

  it('copies the categories without repeats', () => {
    const blank = newCard({ ...cardIssue.args.parse({ id: id(5), user_id: id(7), display_name: 'Ads', limit: { amount: 1, currency: 'USD', interval: 'DAILY' } }), allowed_categories: ['A', 'A'] }, CTX);
    expect(blank.allowed_categories).toEqual(['A']);
  });
});

describe('card.bulkLock', () => {
  const ids = (n: number) => Array.from({ length: n }, (_, i) => id(1000 + i));
  const parts = (cards: string[], lock: boolean) => cardBulkLock.split!.parts(cardBulkLock.split!.input.parse({ card_ids: cards, lock }));

  it('splits a selection into calls of at most 1,000 distinct cards', () => {
    const p = parts([...ids(2500), id(1000)], true);
    expect(p.map((x) => [x.def.name, (x.args as { card_ids: string[] }).card_ids.length])).toEqual([
      ['card.bulkLock', MAX_BULK_LOCK], ['card.bulkLock', MAX_BULK_LOCK], ['card.bulkLock', 500],
    ]);
  });

  it('sends a lone remainder as a single lock or unlock', () => {
    expect(parts(ids(1001), true).map((x) => x.def.name)).toEqual(['card.bulkLock', 'card.lock']);
    expect(parts(ids(1), false)).toEqual([{ def: cardUnlock, args: { card_id: id(1000) } }]);
  });

  it('locks or unlocks each card and sends card_uuids', () => {
    expect(cardBulkLock.apply(card, { card_ids: [card.id], lock: true }).status).toBe('LOCKED');
    expect(cardBulkLock.apply({ ...card, status: 'LOCKED' }, { card_ids: [card.id], lock: false }).status).toBe('ACTIVE');
    expect(cardBulkLock.request({ card_ids: [id(1), id(2)], lock: true })).toEqual({ body: { card_uuids: [id(1), id(2)], lock: true } });
    // Only the move the action allows is shown: a suspended card stays suspended (the server refuses the call).
    expect(cardBulkLock.apply({ ...card, status: 'SUSPENDED' }, { card_ids: [card.id], lock: false }).status).toBe('SUSPENDED');
    expect(cardLock.apply({ ...card, status: 'TERMINATED' }, { card_id: card.id }).status).toBe('TERMINATED');
    expect(cardBulkLock.args.safeParse({ card_ids: ids(MAX_BULK_LOCK + 1), lock: true }).success).toBe(false);
  });
});

describe('primary and favourite cards', () => {
  it('setPrimary makes the chosen card primary and the previous one not; only the chosen id is sent', () => {
    const args = cardSetPrimary.args.parse({ card_id: id(2), previous_ids: [id(1), id(2)] });
    expect(cardSetPrimary.entityIds(args)).toEqual([id(2), id(1)]);
    expect(cardSetPrimary.apply({ ...card, is_primary: true }, args).is_primary).toBe(false);
    expect(cardSetPrimary.apply({ ...card, id: id(2) }, args).is_primary).toBe(true);
    expect(cardSetPrimary.request(args)).toEqual({ body: { card_id: id(2) } });
  });

  it('favorite and unfavorite star and unstar every named card', () => {
    expect(cardFavorite.apply(card, { card_ids: [card.id] }).is_favorite).toBe(true);
    expect(cardUnfavorite.apply({ ...card, is_favorite: true }, { card_ids: [card.id] }).is_favorite).toBe(false);
    expect(cardFavorite.entityIds({ card_ids: [id(1), id(2)] })).toEqual([id(1), id(2)]);
    expect(cardUnfavorite.request({ card_ids: [id(1)] })).toEqual({ body: { card_ids: [id(1)] } });
  });
});

describe('card requests', () => {
  it('create starts a PENDING request of the actor; request-physical is always physical', () => {
    const args = cardRequestCreate.args.parse({ id: id(31), amount: 5_000, currency: 'USD', interval: 'WEEKLY', reason: 'Conference' });
    const blank = cardRequestCreate.blank!(args, CTX);
    expect(cardRequestSchema.parse(blank)).toEqual(blank);
    expect(blank).toMatchObject({ id: id(31), user_id: id(3), business_id: id(9), is_physical: false, status: 'PENDING', card_id: null, created_at: AT });
    expect(cardRequestCreate.request(args)).toEqual({ body: args });
    const physical = cardRequestPhysical.args.parse({ id: id(32), amount: 5_000, currency: 'USD', interval: 'WEEKLY', reason: 'Field work' });
    expect(cardRequestPhysical.blank!(physical, CTX)).toMatchObject({ is_physical: true, status: 'PENDING' });
    expect(cardRequestCreate.args.safeParse({ ...args, amount: 0 }).success).toBe(false);
    expect(cardRequestCreate.args.safeParse({ ...args, reason: '   ' }).success).toBe(false);
  });

  it('cancel withdraws the request and its pending approval, read from the mirror', () => {
    expect(cardRequestCancel.apply(request, { request_id: request.id })).toMatchObject({ status: 'CANCELED', decided_at: null });
    expect(cardRequestCancel.request({ request_id: request.id })).toEqual({ params: { request_uuid: request.id } });
    const asked: unknown[] = [];
    const mirror: MirrorReader = {
      get: () => undefined,
      matching: (collection, filter) => (asked.push([collection, filter]), [id(40)]),
    };
    expect(cardRequestCancel.also!.approvals!.ids({ request_id: request.id }, mirror)).toEqual([id(40)]);
    expect(asked).toEqual([['approvals', { object_ids: [request.id], status: ['PENDING'] }]]);
    const approval = approvalSchema.parse({
      id: id(40), object_type: 'card_request', object_id: request.id, user_id: id(3), approver_id: null, status: 'PENDING', reason: null,
      decided_by: null, decided_at: null, created_at: AT, business_id: id(9), change_seq: 3, updated_at: AT, deleted: false,
    });
    expect(cardRequestCancel.also!.approvals!.apply(approval, { request_id: request.id }).status).toBe('CANCELED');
    expect(cardRequestCancel.also!.approvals!.apply({ ...approval, status: 'APPROVED' }, { request_id: request.id }).status).toBe('APPROVED');
  });

  it('a decision moves the request at the row’s updated_at; a rejection keeps its reason', () => {
    expect(applyRequestStatus(request, 'APPROVED')).toMatchObject({ status: 'APPROVED', decided_at: AT, rejection_reason: null });
    expect(applyRequestStatus(request, 'REJECTED', 'Use the team card')).toMatchObject({ status: 'REJECTED', decided_at: AT, rejection_reason: 'Use the team card' });
    expect(request.status).toBe('PENDING');
  });
});

describe('approval decisions on card requests', () => {
  const approval = (object_type: 'reimbursement' | 'card_request') => approvalSchema.parse({
    id: id(40), object_type, object_id: id(30), user_id: id(3), approver_id: null, status: 'PENDING', reason: null,
    decided_by: null, decided_at: null, created_at: AT, business_id: id(9), change_seq: 3, updated_at: AT, deleted: false,
  });
  const reader = (a: ReturnType<typeof approval>): MirrorReader => ({ get: () => a as never, matching: () => [] });

  it('reach the card request of a card_request approval, and never a claim', () => {
    const mirror = reader(approval('card_request'));
    expect(approvalApprove.also!.card_requests!.ids({ approval_id: id(40) }, mirror)).toEqual([id(30)]);
    expect(approvalApprove.also!.reimbursements!.ids({ approval_id: id(40) }, mirror)).toEqual([undefined]);
    expect(approvalReject.also!.card_requests!.ids({ approval_id: id(40), reason: 'No' }, mirror)).toEqual([id(30)]);
    expect(approvalApprove.also!.card_requests!.apply(request, { approval_id: id(40) }).status).toBe('APPROVED');
    expect(approvalReject.also!.card_requests!.apply(request, { approval_id: id(40), reason: 'No budget' })).toMatchObject({ status: 'REJECTED', rejection_reason: 'No budget' });
  });

  it('reach the claim of a reimbursement approval, and never a card request', () => {
    const mirror = reader(approval('reimbursement'));
    expect(approvalApprove.also!.card_requests!.ids({ approval_id: id(40) }, mirror)).toEqual([undefined]);
    expect(approvalApprove.also!.reimbursements!.ids({ approval_id: id(40) }, mirror)).toEqual([id(30)]);
  });
});
