import { z } from 'zod';
import { defineCall } from './define-call.ts';
import { reimbursementRateSchema } from '../entities/reimbursement-rate.ts';
import { knownCurrencySchema } from '../money.ts';
import { pageQuerySchema, paginatedSchema } from '../paging.ts';

/**
 * A business's reimbursement rates (issue 9 §3; §7 names no rates endpoint, so they sit with the
 * business's other settings under /businesses): per-diem locations with their daily rate, and
 * mileage overrides of the IRS rate per trip year. Every member reads them (mirrored as reference
 * data, and this list); only admins change them (`admin.` ids). A change applies to claims
 * created or edited afterwards; a claim keeps the amount it was computed at until it is edited.
 */
const scopes = { scopes: ['default'] } as const;

/** Ceilings that catch a typo (a rate in cents typed as dollars ×100), not policy. */
const MAX_PER_DIEM_DAILY_RATE = 10_000_000;
export const MAX_MILEAGE_RATE_MILLS = 10_000;
const name = z.string().trim().min(1).max(200);
const year = z.number().int().min(2000).max(2100);

const perDiemRateBodySchema = z.object({
  kind: z.literal('PER_DIEM'),
  name,
  /** Minor units of `currency` per full day. */
  rate: z.number().int().positive().max(MAX_PER_DIEM_DAILY_RATE),
  currency: knownCurrencySchema,
});
const mileageRateBodySchema = z.object({
  kind: z.literal('MILEAGE'),
  year,
  /** Mills (tenths of a cent) per mile: 725 = 72.5 ¢. */
  rate: z.number().int().positive().max(MAX_MILEAGE_RATE_MILLS),
  /** Mileage is paid in US dollars. */
  currency: z.literal('USD').optional(),
});
const rateCreateBodySchema = z.discriminatedUnion('kind', [perDiemRateBodySchema, mileageRateBodySchema]);
export type RateCreateBody = z.infer<typeof rateCreateBodySchema>;

/** An edit: the keys present change; a field of the other kind is refused (422). The kind never changes. */
const ratePatchBodySchema = z.object({
  name: name.optional(),
  year: year.optional(),
  rate: z.number().int().positive().max(MAX_PER_DIEM_DAILY_RATE).optional(),
  currency: knownCurrencySchema.optional(),
});
export type RatePatchBody = z.infer<typeof ratePatchBodySchema>;

const BASE = '/v1/auth/businesses/reimbursement-rates';
const rateParams = z.object({ rate_uuid: z.uuid() });

export const listReimbursementRates = defineCall({
  id: 'reimbursementRates.list',
  method: 'GET',
  path: BASE,
  auth: scopes,
  retry: 'paged',
  query: pageQuerySchema,
  response: paginatedSchema(reimbursementRateSchema),
});

export const createReimbursementRate = defineCall({
  id: 'admin.reimbursementRates.create',
  method: 'POST',
  path: BASE,
  auth: scopes,
  body: rateCreateBodySchema,
  response: reimbursementRateSchema,
});

/** What the calls on one rate share: the scopes, the `:rate_uuid` param, the rate answered. */
const onRate = { auth: scopes, params: rateParams, response: reimbursementRateSchema };

export const updateReimbursementRate = defineCall({
  id: 'admin.reimbursementRates.update', method: 'PATCH', path: `${BASE}/:rate_uuid`, ...onRate, body: ratePatchBodySchema,
});

/** A tombstone (mirrors drop it); claims made at its rate keep their amounts. */
export const deleteReimbursementRate = defineCall({
  id: 'admin.reimbursementRates.delete', method: 'DELETE', path: `${BASE}/:rate_uuid`, ...onRate,
});

export const REIMBURSEMENT_RATE_CALLS = [
  listReimbursementRates, createReimbursementRate, updateReimbursementRate, deleteReimbursementRate,
] as const;
