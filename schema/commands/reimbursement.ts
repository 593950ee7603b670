import { z } from 'zod';
import { produce } from 'immer';
import { defineCommand, type BlankContext, type CommandCheckContext } from './define-command.ts';
import { serverIdsOf } from './receipt.ts';
import { asTombstone, cancelsOpenReview, createWithId, rowCommand } from './row-commands.ts';
import {
  cancelReimbursement, cancelReimbursementPayment, createMileage, deleteReimbursement, createOutOfPocket, createPerDiem, mileageBodySchema,
  outOfPocketBodySchema, patchReimbursement, payAchBodySchema, payReimbursement, perDiemBodySchema,
  reimbursementPatchSchema, resubmitReimbursement, saveDraft, submitReimbursement, type ReimbursementPatch,
  draftBodySchema, type DraftBody,
} from '../api/calls-reimbursements.ts';
import type { Reimbursement, ReimbursementType } from '../entities/reimbursement.ts';
import { businessRatesSchema } from '../entities/reimbursement-rate.ts';
import {
  checkMileage, checkNotFuture, checkOutOfPocket, checkPerDiem, mileageAmount, NO_RATES, perDiemAmount, perDiemRateFor,
  type BusinessRates, type FieldErrors,
} from '../reimbursement-rules.ts';

/**
 * Reimbursement commands. Each `apply` is pure and is what the server runs with authority
 * (server/domain/reimbursements.ts) after checking the input with `claimErrors`; the worker runs
 * the same `apply` optimistically. Mileage and per-diem amounts are always derived from their
 * fields and the business's rates here, never taken from the client.
 *
 * Rates: the mileage, per-diem and edit commands carry an optional `rates` (the business's
 * rate table as the client mirrored it, `businessRatesSchema`) that only their `apply` reads;
 * `request` leaves it out of the call, and the server runs the same `apply` with its own table
 * in `rates`. An entry queued without it (older clients) applies at the default rates.
 *
 * The moment of a write is the row's `updated_at`, stamped by the caller before `apply` (so
 * `submitted_at` is pure): the server stamps its clock, the worker its own.
 */

/** Fields only one claim type has; the rest (memo, GL account, department) every type has. */
export const TYPE_FIELDS = {
  OUT_OF_POCKET: ['merchant', 'amount', 'currency', 'transaction_date'],
  MILEAGE: ['distance_miles', 'start_location', 'end_location', 'trip_date'],
  PER_DIEM: ['location', 'start_date', 'end_date'],
} as const satisfies Record<ReimbursementType, readonly (keyof ReimbursementPatch)[]>;
const COMMON_FIELDS = ['memo', 'gl_account_id', 'department_id', 'receipt_ids'] as const;
/** Mileage is paid in US dollars (the IRS rate or the business's USD override). */
export const COMPUTED_CLAIM_CURRENCY = 'USD';
/** What a command carries for its optimistic apply: never sent (see `withoutRates`). */
const ratesArg = { rates: businessRatesSchema.optional() };
/** The call's body or patch: the args without the client's rates. */
function withoutRates<T extends { rates?: unknown }>(a: T): Omit<T, 'rates'> {
  const { rates, ...rest } = a;
  void rates;
  return rest;
}

/** Keys of `patch` that the claim's type does not have (each refused with its own message). */
export function foreignFields(type: ReimbursementType, patch: ReimbursementPatch): FieldErrors {
  const allowed = new Set<string>([...COMMON_FIELDS, ...TYPE_FIELDS[type]]);
  const errors: FieldErrors = {};
  for (const key of Object.keys(patch)) {
    if (!allowed.has(key)) errors[key] = `${key} cannot be set on a reimbursement of type ${type}`;
  }
  return errors;
}

/**
 * The row with `patch` applied, and the derived fields (amount, currency, claim date) recomputed
 * at the business's `rates`: mileage at its override for the trip year (else the IRS rate), per
 * diem at its location's daily rate and currency (else 68 USD).
 */
function applyClaimFields(row: Reimbursement, patch: ReimbursementPatch, rates?: BusinessRates): Reimbursement {
  // An entry queued without the rates (an older client) that touches none of the amount's fields
  // keeps the amount shown; the server recomputes it either way.
  const recompute = rates !== undefined || TYPE_FIELDS[row.type].some((k) => patch[k] !== undefined);
  const table = rates ?? NO_RATES;
  return produce(row, (d) => {
    if (patch.memo !== undefined) d.memo = patch.memo === '' ? null : patch.memo;
    if (patch.gl_account_id !== undefined) d.gl_account_id = patch.gl_account_id;
    if (patch.department_id !== undefined) d.department_id = patch.department_id;
    if (patch.receipt_ids !== undefined) d.receipt_ids = [...new Set(patch.receipt_ids)];
    switch (d.type) {
      case 'OUT_OF_POCKET':
        if (patch.merchant !== undefined) d.merchant = patch.merchant === '' ? null : patch.merchant;
        if (patch.amount !== undefined) d.amount = patch.amount;
        if (patch.currency !== undefined) d.currency = patch.currency;
        if (patch.transaction_date !== undefined) d.transaction_date = patch.transaction_date;
        break;
      case 'MILEAGE': {
        if (patch.distance_miles !== undefined) d.distance_miles = patch.distance_miles;
        if (patch.start_location !== undefined) d.start_location = patch.start_location;
        if (patch.end_location !== undefined) d.end_location = patch.end_location;
        if (patch.trip_date !== undefined) d.trip_date = patch.trip_date;
        if (!recompute) break;
        d.currency = COMPUTED_CLAIM_CURRENCY;
        if (d.trip_date) d.transaction_date = d.trip_date;
        const computed = d.distance_miles !== null && d.trip_date ? mileageAmount(d.distance_miles, d.trip_date, table) : null;
        if (computed && 'amount' in computed) d.amount = computed.amount;
        break;
      }
      case 'PER_DIEM': {
        if (patch.location !== undefined) d.location = patch.location;
        if (patch.start_date !== undefined) d.start_date = patch.start_date;
        if (patch.end_date !== undefined) d.end_date = patch.end_date;
        if (!recompute) break;
        const rate = perDiemRateFor(d.location, table);
        d.currency = rate.currency;
        if (d.start_date) d.transaction_date = d.start_date;
        const computed = d.start_date && d.end_date ? perDiemAmount(d.start_date, d.end_date, rate) : null;
        if (computed && 'amount' in computed) d.amount = computed.amount;
        break;
      }
    }
  });
}

/** What is wrong with a claim's fields (after a patch is merged), by field; empty when none. */
export function claimErrors(row: Reimbursement, now: Date, rates: BusinessRates = NO_RATES): FieldErrors {
  switch (row.type) {
    case 'OUT_OF_POCKET':
      return checkOutOfPocket(row, now);
    case 'MILEAGE': {
      const errors = checkMileage(row.distance_miles ?? 0, row.trip_date ?? '', rates);
      const future = checkNotFuture('trip_date', row.trip_date ?? '', now);
      return future && !errors.trip_date ? { ...errors, trip_date: future } : errors;
    }
    case 'PER_DIEM':
      return checkPerDiem(row.start_date ?? '', row.end_date ?? '');
  }
}

/** Submission: SUBMITTED at the write's moment; a previous rejection reason is cleared. */
function applySubmit(row: Reimbursement): Reimbursement {
  return produce(row, (d) => {
    d.status = 'SUBMITTED';
    d.submitted_at = d.updated_at;
    d.rejection_reason = null;
  });
}

/** Review and payment moves: the status, and the rejection reason only a rejection sets. */
export function applyStatus(row: Reimbursement, status: 'APPROVED' | 'PAID' | 'CANCELED'): Reimbursement {
  return produce(row, (d) => {
    d.status = status;
  });
}
export function applyRejection(row: Reimbursement, reason: string): Reimbursement {
  return produce(row, (d) => {
    d.status = 'REJECTED';
    d.rejection_reason = reason;
  });
}

/** A new claim: its fields, then submitted at once unless `submit` is false. */
function applyCreate(row: Reimbursement, body: ReimbursementPatch & { submit: boolean }, rates: BusinessRates | undefined): Reimbursement {
  const { submit, ...fields } = body;
  const filled = applyClaimFields({ ...row, status: 'DRAFT', submitted_at: null }, fields, rates);
  return submit ? applySubmit(filled) : filled;
}

/**
 * A claim before its create's `apply`: what a create starts from (the worker shows a claim
 * created offline from it at once). Its owner is the actor; the write's moment is `at`.
 */
function newClaim(type: ReimbursementType, { id, actor, at }: BlankContext): Reimbursement {
  return {
    id, user_id: actor.user_id, business_id: actor.business_id, type, status: 'DRAFT', merchant: null, amount: 1,
    currency: COMPUTED_CLAIM_CURRENCY, transaction_date: at.slice(0, 10), memo: null, gl_account_id: null, department_id: null,
    distance_miles: null, start_location: null, end_location: null, trip_date: null, location: null, start_date: null,
    end_date: null, rejection_reason: null, receipt_ids: [], submitted_at: null, created_at: at, accounting_synced_at: null,
    change_seq: 0, updated_at: at, deleted: false,
  };
}

/**
 * Creates carry the client's id (required here, optional in the call): a create that reached the
 * server but whose answer was lost is answered with the stored row when sent again.
 */
const stripId = <T extends { id: string; submit: boolean; rates?: unknown }>(a: T) => {
  const { id, submit, rates, ...fields } = a;
  void id;
  void rates;
  return { ...fields, submit };
};

/**
 * A claim's receipts may have been captured offline: the command names their client ids, waits
 * for their uploads (`after`) and is sent with the server's ids (`resolve`); the optimistic row
 * holds the client ids until the server's row replaces it.
 */
const receiptsAfter = (ids: readonly string[] | undefined): string[] => [...(ids ?? [])];
const withServerReceipts = <T extends { receipt_ids?: string[] | undefined }>(body: T, serverId: (id: string) => string | undefined): T =>
  body.receipt_ids ? { ...body, receipt_ids: serverIdsOf(body.receipt_ids, serverId) } : body;

/** What the three creates share: the client's id, the receipts they wait for, the stored claim as the answer. */
const claimCreate = {
  collection: 'reimbursements',
  entityIds: (a: { id: string }) => [a.id],
  after: (a: { receipt_ids?: string[] | undefined }) => receiptsAfter(a.receipt_ids),
  resolve: withServerReceipts,
  confirm: 'row',
} as const;

/** Mileage and per diem: amounts computed at the business's rates, which the command carries and never sends. */
const ratedClaimCreate = (type: 'MILEAGE' | 'PER_DIEM') => ({
  ...claimCreate,
  request: <A extends { rates?: unknown }>(a: A) => ({ body: withoutRates(a) }),
  apply: (row: Reimbursement, a: ReimbursementPatch & { id: string; submit: boolean; rates?: BusinessRates | undefined }) =>
    applyCreate(row, stripId(a), a.rates),
  blank: (_a: unknown, ctx: BlankContext) => newClaim(type, ctx),
});

export const reimbursementCreate = defineCommand({
  name: 'reimbursement.create', ...claimCreate, ...createWithId(outOfPocketBodySchema), call: createOutOfPocket,
  apply: (row, a) => applyCreate(row, stripId(a), undefined),
  blank: (_a, ctx) => newClaim('OUT_OF_POCKET', ctx),
});

export const reimbursementCreateMileage = defineCommand({
  name: 'reimbursement.createMileage', call: createMileage, ...ratedClaimCreate('MILEAGE'),
  args: mileageBodySchema.extend({ id: z.uuid(), ...ratesArg }),
});

export const reimbursementCreatePerDiem = defineCommand({
  name: 'reimbursement.createPerDiem', call: createPerDiem, ...ratedClaimCreate('PER_DIEM'),
  args: perDiemBodySchema.extend({ id: z.uuid(), ...ratesArg }),
});

/**
 * Issue 12: a sync commit exports a claim's coding and amount (GL account, department, amount,
 * currency, claim date, merchant; for mileage and per diem the fields the amount and the date
 * are derived from), so a patch touching any of them is refused on a synced claim until it is
 * marked not synced (ACCOUNTING_7301). The memo and the receipts stay editable: notes and
 * evidence, not what the books hold (the status's own rules still apply to them). Status moves
 * (submit, review, pay, cancel a payment, cancel) are not edits and stay allowed. Worker
 * (`reimbursement.update`'s check) and server (PATCH, bulk update, draft save) share the rule.
 */
const SYNC_FREE_CLAIM_FIELDS: readonly (keyof ReimbursementPatch)[] = ['memo', 'receipt_ids'];

/** The refusal (ACCOUNTING_7301's words, with the export's day) when `patch` would change a synced claim; null otherwise. */
export function syncedClaimRefusal(syncedAt: string | null | undefined, patch: ReimbursementPatch): string | null {
  if (!syncedAt) return null;
  const locked = (Object.keys(patch) as (keyof ReimbursementPatch)[])
    .some((k) => patch[k] !== undefined && !SYNC_FREE_CLAIM_FIELDS.includes(k));
  if (!locked) return null;
  return `This reimbursement was exported to your accounting system on ${syncedAt.slice(0, 10)}. ` +
    'Mark it as not synced to change its amount, date or coding.';
}

/** The worker's side: refused before queueing when the mirror's row shows the mark (a mirror that cannot read rows passes). */
const claimPatchNotSynced = (id: string, patch: ReimbursementPatch, mirror: CommandCheckContext) => {
  const at = mirror.get?.(id)?.accounting_synced_at;
  return syncedClaimRefusal(typeof at === 'string' ? at : null, patch) ? ('ACCOUNTING_7301' as const) : null;
};

/** What the commands that take one claim by its id share. */
const onClaim = rowCommand('reimbursements', 'reimbursement_id', 'reimbursement_uuid').shared;

export const reimbursementUpdate = defineCommand({
  name: 'reimbursement.update', ...onClaim,
  args: onClaim.args.extend({ patch: reimbursementPatchSchema, ...ratesArg }),
  after: (a) => receiptsAfter(a.patch.receipt_ids),
  resolve: (a, serverId) => ({ ...a, patch: withServerReceipts(a.patch, serverId) }),
  call: patchReimbursement,
  request: (a) => ({ ...onClaim.request(a), body: a.patch }),
  apply: (row, a) => applyClaimFields(row, a.patch, a.rates),
  check: (a, mirror) => claimPatchNotSynced(a.reimbursement_id, a.patch, mirror),
  edits: { row: (a) => a.reimbursement_id, patch: (a) => a.patch, withPatch: (a, patch) => ({ ...a, patch: patch as typeof a.patch }) },
  confirm: 'row',
});

export const reimbursementSubmit = defineCommand({
  name: 'reimbursement.submit', ...onClaim, call: submitReimbursement,
  apply: (row) => applySubmit(row),
  confirm: 'row',
});

/** REJECTED → SUBMITTED (the server refuses any other status, naming it). */
export const reimbursementResubmit = defineCommand({
  name: 'reimbursement.resubmit', ...onClaim, call: resubmitReimbursement,
  apply: (row) => applySubmit(row),
  confirm: 'row',
});

export const reimbursementCancel = defineCommand({
  name: 'reimbursement.cancel', ...onClaim, call: cancelReimbursement,
  apply: (row) => applyStatus(row, 'CANCELED'),
  // The server cancels the claim's open review with it (the feed brings that row).
  also: cancelsOpenReview((a: { reimbursement_id: string }) => a.reimbursement_id),
  confirm: 'row',
});

/**
 * A payment, queued by the UI only after the admin confirmed it. The outbox's Idempotency-Key
 * and the server's ledger constraint make a resend harmless (never a second payment).
 */
export const reimbursementPay = defineCommand({
  name: 'reimbursement.pay', ...onClaim, call: payReimbursement,
  args: onClaim.args.extend(payAchBodySchema.shape),
  request: (a) => ({ ...onClaim.request(a), body: { method: a.method } }),
  apply: (row) => applyStatus(row, 'PAID'),
  confirm: 'row',
});

export const reimbursementCancelPayment = defineCommand({
  name: 'reimbursement.cancelPayment', ...onClaim, call: cancelReimbursementPayment,
  apply: (row) => applyStatus(row, 'APPROVED'),
  confirm: 'row',
});

/** A PUT draft as a patch: every field of its type, nullable ones left out cleared. */
export function draftPatch(body: DraftBody): ReimbursementPatch {
  const { type, ...fields } = body;
  const cleared = { memo: null, gl_account_id: null, department_id: null };
  return type === 'OUT_OF_POCKET' ? { ...cleared, merchant: null, ...fields } : { ...cleared, ...fields };
}

/** §7 PUT draft save: the whole draft, created under the client's id or replaced; stays a DRAFT. */
export const reimbursementSaveDraft = defineCommand({
  name: 'reimbursement.saveDraft', ...onClaim,
  args: onClaim.args.extend({ draft: draftBodySchema, ...ratesArg }),
  after: (a) => receiptsAfter(a.draft.receipt_ids),
  resolve: (a, serverId) => ({ ...a, draft: withServerReceipts(a.draft, serverId) }),
  call: saveDraft,
  request: (a) => ({ ...onClaim.request(a), body: a.draft }),
  apply: (row, a) => applyClaimFields({ ...row, type: a.draft.type, status: 'DRAFT', submitted_at: null }, draftPatch(a.draft), a.rates),
  // Creates the draft when the id is new.
  blank: (a, ctx) => newClaim(a.draft.type, ctx),
  confirm: 'row',
});

/**
 * Deleting a draft (DRAFT only: `checkDeletable`; the server refuses any other status, naming it).
 * The server writes a tombstone with a new seq, so the answer is confirmed by change seq and the
 * feed drops the row from every mirror; optimistically the row is a tombstone at once.
 */
export const reimbursementDelete = defineCommand({
  name: 'reimbursement.delete', ...onClaim, call: deleteReimbursement,
  apply: asTombstone,
  confirm: 'change_seq',
});
