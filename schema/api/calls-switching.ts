import { z } from 'zod';
import { defineCall, uploadBodySchema } from './define-call.ts';
import { cardSchema, limitAmountSchema, limitIntervalSchema } from '../entities/card.ts';
import { isoDateTime, uuid } from '../entities/common.ts';
import { knownCurrencySchema } from '../money.ts';
import { SWITCHING_CADENCES, SWITCHING_MAX_FILE_BYTES } from '../switching.ts';

/**
 * Switching (spec §7 Vendors `switching/vendors/{vendor}`, SWITCHING_7002; schema/switching.ts):
 * an owner or admin uploads the CSV statement of the card the business leaves; the vendors it
 * pays again and again are listed, each to move onto a virtual card of its own, or to remove.
 * Overlapping statements count a charge once. A file that cannot be read as a card statement is
 * 422 SWITCHING_7002 saying why; nothing of it is kept.
 */
const scopes = { scopes: ['default'] } as const;
const BASE = '/v1/auth/switching';
const isoDay = z.iso.date();

export const switchingVendorSchema = z.object({
  id: uuid,
  name: z.string(),
  currency: knownCurrencySchema,
  /** Charges seen across every statement uploaded (a charge in two overlapping files once). */
  charges: z.number().int().positive(),
  /** Distinct calendar months with a charge. */
  months: z.number().int().positive(),
  cadence: z.enum(SWITCHING_CADENCES),
  first_charged_on: isoDay,
  last_charged_on: isoDay,
  /** Minor units of `currency`. */
  last_amount: z.number().int().positive(),
  largest_amount: z.number().int().positive(),
  total: z.number().int().positive(),
  /** schema/switching.ts `suggestedLimit`. */
  suggested_limit: z.object({ amount: limitAmountSchema, interval: limitIntervalSchema }),
  /** The card it was moved to; null while it waits. */
  card: z.object({ id: uuid, display_name: z.string(), status: z.string(), last_four: z.string(), user_name: z.string() }).nullable(),
  switched_at: isoDateTime.nullable(),
});
export type SwitchingVendor = z.infer<typeof switchingVendorSchema>;

export const switchingImportSchema = z.object({
  id: uuid,
  file_name: z.string(),
  currency: knownCurrencySchema,
  /** Charges the file holds (payments, refunds and credits are not charges). */
  charges: z.number().int().nonnegative(),
  /** Of them, already known from an earlier statement. */
  duplicates: z.number().int().nonnegative(),
  /** Payments, refunds, credits: left out. */
  credits: z.number().int().nonnegative(),
  /** Rows neither read nor a charge (their count; `problems` names the first ones). */
  unreadable: z.number().int().nonnegative(),
  problems: z.array(z.object({ row: z.number().int().positive(), message: z.string() })),
  created_at: isoDateTime,
  created_by_name: z.string(),
});
export type SwitchingImport = z.infer<typeof switchingImportSchema>;

export const switchingOverviewSchema = z.object({
  /** Vendors to move and moved, largest total first; removed ones are gone. */
  data: z.array(switchingVendorSchema),
  /** The ten newest statements uploaded. */
  imports: z.array(switchingImportSchema),
});
export type SwitchingOverview = z.infer<typeof switchingOverviewSchema>;

export const listSwitchingVendors = defineCall({
  id: 'switching.vendors.list', method: 'GET', path: `${BASE}/vendors`, auth: scopes, response: switchingOverviewSchema,
});

/** A CSV card statement, read whole: 201 with what it found, or 422 SWITCHING_7002 and nothing kept. */
export const uploadSwitchingStatement = defineCall({
  id: 'switching.statements.create', method: 'POST', path: `${BASE}/statements`, auth: scopes,
  query: z.object({
    file_name: z.string().trim().min(1).max(200).optional(),
    /** The statement's currency (a card statement states amounts in one). */
    currency: knownCurrencySchema.default('USD'),
  }),
  body: uploadBodySchema,
  upload: { contentTypes: ['text/csv', 'application/csv', 'application/vnd.ms-excel'], maxBytes: SWITCHING_MAX_FILE_BYTES },
  response: z.object({ import: switchingImportSchema, overview: switchingOverviewSchema }),
});

const vendorParams = z.object({ vendor_id: uuid });

export const switchVendorCardBodySchema = z.object({
  /** The cardholder: who owns the vendor relationship. */
  user_id: uuid,
  /** Minor units in the vendor's currency, per `interval`; the suggestion unless changed. */
  limit: z.object({ amount: limitAmountSchema.positive(), interval: limitIntervalSchema }),
  display_name: z.string().trim().min(1).max(80).optional(),
});
export type SwitchVendorCardBody = z.infer<typeof switchVendorCardBodySchema>;

/**
 * Issues the vendor's virtual card (cards.issue's rules: §6 issuing, the holder a live person)
 * and links it. Exactly once: a vendor already moved answers its card with `created: false`.
 */
export const switchVendorToCard = defineCall({
  id: 'switching.vendors.card', method: 'POST', path: `${BASE}/vendors/:vendor_id/card`, auth: scopes,
  params: vendorParams, body: switchVendorCardBodySchema,
  response: z.object({ vendor: switchingVendorSchema, card: cardSchema, created: z.boolean() }),
});

/** Removes a vendor from the list (a later statement does not bring it back); a card it has stays. */
export const deleteSwitchingVendor = defineCall({
  id: 'switching.vendors.delete', method: 'DELETE', path: `${BASE}/vendors/:vendor_id`, auth: scopes,
  params: vendorParams, response: z.object({ deleted: z.literal(true) }),
});

export const SWITCHING_CALLS = [listSwitchingVendors, uploadSwitchingStatement, switchVendorToCard, deleteSwitchingVendor] as const;
