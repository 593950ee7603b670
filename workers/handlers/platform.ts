import {
  cancelSubscription, confirmPhoneNumber, getMaintenance, getPhoneNumber, listSubscriptions, sendPhoneCode, startSubscription,
  type BillingProduct, type CancelSubscriptionBody,
} from '../../schema/api/calls-platform.ts';
import { bindDomain, offlineFailure, onlineDomain, via, type OnlineApi, type OnlinePort } from '../online.ts';

/** Refused before any request: decided on the server, nothing mirrored or queued. */
export const PLATFORM_OFFLINE = offlineFailure('You’re offline. Billing needs a connection: nothing was sent.');

/** Issue 32 (schema/api/calls-platform.ts): billing subscriptions, the maintenance window, phone confirmation. Direct calls, online only. */
export const PLATFORM_DOMAIN = onlineDomain(PLATFORM_OFFLINE, {
  /** Every product with the business's state of it (admins). */
  billingSubscriptions: via(listSubscriptions, () => ({}), (d) => ({ items: d.items })),
  /** Starts a product, or resumes one that is canceling (BILLING_7002 when active). */
  startSubscription: via(startSubscription, (product: BillingProduct) => ({ params: { product } }), (s) => ({ subscription: s })),
  /** Cancels at the end of the paid period (BILLING_7001 when not active). */
  cancelSubscription: via(cancelSubscription, (product: BillingProduct, body: CancelSubscriptionBody) => ({ params: { product }, body }), (s) => ({ subscription: s })),
  /** The instance's maintenance window (public). */
  maintenance: via(getMaintenance, () => ({}), (m) => ({ maintenance: m })),
  /** The person's phone number: the profile's, whether it is confirmed, and a number waiting for its code. */
  phoneNumber: via(getPhoneNumber, () => ({}), (phone) => ({ phone })),
  /** Texts a code to a new number (sensitive: may ask for a step-up; 6019 out of region, 6020 unsubscribed). */
  sendPhoneCode: via(sendPhoneCode, (phone_number: string) => ({ body: { phone_number } }), (phone) => ({ phone })),
  /** Confirms the texted code: the number becomes the profile's (PROFILE_7016 expired, PROFILE_7017 wrong). */
  confirmPhoneNumber: via(confirmPhoneNumber, (code: string) => ({ body: { code } }), (phone) => ({ phone })),
});

export type PlatformApi = OnlineApi<typeof PLATFORM_DOMAIN>;

export const platformWorkerHandlers = (port: OnlinePort): PlatformApi => bindDomain(port, PLATFORM_DOMAIN);
