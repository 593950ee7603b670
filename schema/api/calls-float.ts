import { z } from 'zod';
import { callGroup } from './call-group.ts';
import { moneyValueSchema } from '../money.ts';

/**
 * Issue 30, §7 "Float" (flex): financing a bill. After onboarding the business has a flex line
 * (a credit limit); an approved, unpaid bill within the line's available amount gets an offer
 * (terms of 30, 60 or 90 days, each with its fee and installment schedule); accepting pays the
 * vendor from the flex line at once (a ledger entry FLEX_DRAW) and schedules the installments,
 * which the installment job collects from the primary OPERATING account on their due dates
 * (FLEX_INSTALLMENT entries), each exactly once; a failed one (not enough funds) can be retried.
 * §6: admins, or AP clerks when the business allows it (`ap_clerks_can_flex`; FLEX_7001 otherwise);
 * reading the financing details: admin or AP clerk (§6 "view financing details").
 */
const scopes = { scopes: ['default'] } as const;

export const FLEX_TERMS_DAYS = [30, 60, 90] as const;
export const flexTermDaysSchema = z.union([z.literal(30), z.literal(60), z.literal(90)]);

export const flexSettingsSchema = z.object({
  status: z.enum(['NOT_ONBOARDED', 'ACTIVE']),
  limit: moneyValueSchema,
  used: moneyValueSchema,
  available: moneyValueSchema,
  ap_clerks_can_flex: z.boolean(),
  onboarded_at: z.iso.datetime({ offset: true }).nullable(),
});
const installmentPlanSchema = z.object({ due_date: z.iso.date(), amount: moneyValueSchema });
export const flexOfferSchema = z.object({
  id: z.uuid(),
  bill_id: z.uuid(),
  amount: moneyValueSchema,
  terms: z.array(z.object({ term_days: flexTermDaysSchema, fee: moneyValueSchema, installments: z.array(installmentPlanSchema).min(1) })),
  expires_at: z.iso.datetime({ offset: true }),
  status: z.enum(['OPEN', 'ACCEPTED', 'EXPIRED']),
});
export const flexInstallmentSchema = z.object({
  id: z.uuid(),
  due_date: z.iso.date(),
  amount: moneyValueSchema,
  status: z.enum(['SCHEDULED', 'PAID', 'FAILED']),
  paid_at: z.iso.datetime({ offset: true }).nullable(),
  failure_reason: z.string().nullable(),
  attempts: z.number().int().nonnegative(),
});
export const flexRecordSchema = z.object({
  id: z.uuid(),
  bill_id: z.uuid(),
  offer_id: z.uuid(),
  amount: moneyValueSchema,
  fee: moneyValueSchema,
  term_days: flexTermDaysSchema,
  status: z.enum(['ACTIVE', 'REPAID']),
  installments: z.array(flexInstallmentSchema),
  accepted_by: z.uuid(),
  created_at: z.iso.datetime({ offset: true }),
});
export type FlexRecord = z.infer<typeof flexRecordSchema>;

const group = callGroup('/v1/auth/float', scopes);

export const onboardFlex = group('float.onboard', 'POST', '/onboard', {
  body: z.object({ accept_terms: z.literal(true), ap_clerks_can_flex: z.boolean().optional() }),
  response: flexSettingsSchema,
});
export const getFlexSettings = group('float.settings.get', 'GET', '/settings', { response: flexSettingsSchema });
export const updateFlexSettings = group('float.settings.update', 'PATCH', '/settings', {
  body: z.object({ ap_clerks_can_flex: z.boolean() }), response: flexSettingsSchema,
});
/** An offer for one bill (a new one each time; the previous open one expires). FLEX_7005 before onboarding, FLEX_7002 for an ineligible bill. */
export const createFlexOffer = group('float.offer.create', 'POST', '/offer', {
  body: z.object({ bill_id: z.uuid() }), response: flexOfferSchema,
});
/** Accepts one term: the vendor is paid from the flex line now, the bill PAID; FLEX_7003 when expired or used. */
export const acceptFlexOffer = group('float.offer.accept', 'POST', '/offer/:offer_id/accept', {
  params: z.object({ offer_id: z.uuid() }), body: z.object({ term_days: flexTermDaysSchema }), response: flexRecordSchema,
});
export const listFlexRecords = group('float.records.list', 'GET', '/records', {
  query: z.object({ bill_id: z.uuid().optional() }),
  response: z.object({ data: z.array(flexRecordSchema) }),
});
/** Collects a FAILED installment now, exactly once; PAID → 409 FLEX_7004. */
export const retryInstallmentPayment = group('float.installments.retry', 'POST', '/retry-installment-payment/:flex_installment_payment_uuid', {
  params: z.object({ flex_installment_payment_uuid: z.uuid() }), response: flexInstallmentSchema,
});

export const FLOAT_CALLS = [
  onboardFlex, getFlexSettings, updateFlexSettings, createFlexOffer, acceptFlexOffer, listFlexRecords, retryInstallmentPayment,
] as const;
