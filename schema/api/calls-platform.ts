/**
 * Issue 32: the OpenAPI document, billing subscriptions, the maintenance switch. Calls are
 * declared here (defineCall) and listed in PLATFORM_CALLS; the catalogue (calls.ts) includes them.
 */
import { z } from 'zod';
import { callGroup } from './call-group.ts';
import { defineCall } from './define-call.ts';

const isoDate = z.iso.datetime({ offset: true });

/**
 * The OpenAPI 3.1 document of this catalogue (schema/openapi/). Public calls live under
 * /v1/public; the server also answers it at `/v1/openapi.json` (routes/platform.ts).
 */
export const openApiDocument = defineCall({
  id: 'platform.openapi',
  method: 'GET',
  path: '/v1/public/openapi.json',
  auth: 'public',
  response: z.looseObject({
    openapi: z.literal('3.1.0'),
    info: z.looseObject({ title: z.string(), version: z.string() }),
    paths: z.record(z.string(), z.unknown()),
  }),
});

/**
 * The instance's maintenance window (INFRA_7001): while `active`, every write under /v1/auth
 * answers 503 with Retry-After; reads and sign-in keep working. Public, so the app can show a
 * banner before anyone signs in.
 */
export const maintenanceStateSchema = z.object({
  active: z.boolean(),
  until: isoDate.nullable(),
  message: z.string().nullable(),
});
export type MaintenanceState = z.infer<typeof maintenanceStateSchema>;

export const getMaintenance = defineCall({
  id: 'platform.maintenance.get',
  method: 'GET',
  path: '/v1/public/maintenance',
  auth: 'public',
  response: maintenanceStateSchema,
});

/**
 * Ledgerline's own products a business subscribes to: one plan above the free one, and add-ons.
 * Flat monthly prices per business in USD minor units, billed at the start of each monthly period.
 */
export const BILLING_PRODUCTS = ['PLUS', 'TRAVEL', 'PROCUREMENT', 'BILL_PAY_PLUS'] as const;
export const billingProductSchema = z.enum(BILLING_PRODUCTS);
export type BillingProduct = z.infer<typeof billingProductSchema>;

export const BILLING_CATALOGUE: Readonly<Record<BillingProduct, { kind: 'PLAN' | 'ADD_ON'; name: string; description: string; monthly_price: number }>> = {
  PLUS: { kind: 'PLAN', name: 'Ledgerline Plus', description: 'Advanced approval chains, custom roles, multi-entity and priority support.', monthly_price: 49_900 },
  TRAVEL: { kind: 'ADD_ON', name: 'Travel', description: 'Flight and hotel booking with travel policy and rewards.', monthly_price: 9_900 },
  PROCUREMENT: { kind: 'ADD_ON', name: 'Procurement', description: 'Spend requests, purchase orders and three-way matching.', monthly_price: 29_900 },
  BILL_PAY_PLUS: { kind: 'ADD_ON', name: 'Bill Pay Plus', description: 'Same-day ACH, international wires and vendor payment approvals.', monthly_price: 14_900 },
};

/** ACTIVE renews every month; CANCELING was canceled and ends at `current_period_end`. */
export const billingSubscriptionSchema = z.object({
  product: billingProductSchema,
  kind: z.enum(['PLAN', 'ADD_ON']),
  name: z.string(),
  description: z.string(),
  /** Per month, USD minor units. */
  monthly_price: z.object({ amount: z.number().int(), currency: z.literal('USD') }),
  status: z.enum(['INACTIVE', 'ACTIVE', 'CANCELING']),
  started_at: isoDate.nullable(),
  current_period_start: isoDate.nullable(),
  /** The next charge when ACTIVE; the end of service when CANCELING. */
  current_period_end: isoDate.nullable(),
  cancel_reason: z.string().nullable(),
});
export type BillingSubscription = z.infer<typeof billingSubscriptionSchema>;

export const billingSubscriptionsSchema = z.object({ items: z.array(billingSubscriptionSchema) });
export type BillingSubscriptions = z.infer<typeof billingSubscriptionsSchema>;

export const CANCEL_REASONS = ['TOO_EXPENSIVE', 'NOT_USING', 'MISSING_FEATURES', 'SWITCHING', 'OTHER'] as const;
export const cancelSubscriptionBodySchema = z.object({
  reason: z.enum(CANCEL_REASONS),
  feedback: z.string().trim().max(2000).optional(),
});
export type CancelSubscriptionBody = z.infer<typeof cancelSubscriptionBodySchema>;

const billing = callGroup('/v1/auth/billing', { scopes: ['default'] });
const productParams = z.object({ product: billingProductSchema });

/** Every product with the business's state of it (admins only). */
export const listSubscriptions = billing('billing.subscriptions.list', 'GET', '/subscriptions', {
  response: billingSubscriptionsSchema,
});

/**
 * Starts a product (its first month is billed now) or resumes one CANCELING before its period
 * ends (nothing billed again). BILLING_7002 when it is already ACTIVE.
 */
export const startSubscription = billing('billing.subscriptions.start', 'PUT', '/subscription/:product', {
  params: productParams,
  response: billingSubscriptionSchema,
});

/** Cancels at the end of the period already paid. BILLING_7001 when the product is not ACTIVE. */
export const cancelSubscription = billing('billing.subscriptions.cancel', 'DELETE', '/subscription/:product', {
  params: productParams,
  body: cancelSubscriptionBodySchema,
  response: billingSubscriptionSchema,
});

/** An E.164 number: `+`, a country code and the subscriber number, 8 to 15 digits in all. */
export const e164Schema = z.string().trim().regex(/^\+[1-9]\d{7,14}$/, 'phone_number must be a valid E.164 number, e.g. +14155550123');

export const phoneNumberStateSchema = z.object({
  /** The number on the person's profile (set here once confirmed, or by set-phone-number). */
  phone_number: z.string().nullable(),
  /** The profile's number was confirmed by a code sent to it. */
  confirmed: z.boolean(),
  confirmed_at: isoDate.nullable(),
  /** A number waiting for its code, and until when the code works. */
  pending: z.object({ phone_number: z.string(), expires_at: isoDate }).nullable(),
});
export type PhoneNumberState = z.infer<typeof phoneNumberStateSchema>;

const phone = callGroup('/v1/auth/users/current', { scopes: ['default'] });

export const getPhoneNumber = phone('users.phoneNumber.get', 'GET', '/phone-number', {
  response: phoneNumberStateSchema,
});

/**
 * Texts a 6-digit code to a new number (§6: phone set takes the `sensitive` scope). 6019 when the
 * number is outside the supported regions, 6020 when it replied STOP, 429 past the limit.
 */
export const sendPhoneCode = phone('users.phoneNumber.sendCode', 'POST', '/phone-number/send-code', {
  auth: { scopes: ['sensitive'] },
  body: z.object({ phone_number: e164Schema }),
  response: phoneNumberStateSchema,
});

/** Confirms the texted code: the number becomes the profile's, confirmed. PROFILE_7016 expired, PROFILE_7017 wrong. */
export const confirmPhoneNumber = phone('users.phoneNumber.confirm', 'POST', '/confirm-phone-number', {
  auth: { scopes: ['sensitive'] },
  body: z.object({ code: z.string().regex(/^\d{6}$/, 'code must be the 6 digits we texted you') }),
  response: phoneNumberStateSchema,
});

export const PLATFORM_CALLS = [
  openApiDocument, getMaintenance, listSubscriptions, startSubscription, cancelSubscription,
  getPhoneNumber, sendPhoneCode, confirmPhoneNumber,
] as const;
