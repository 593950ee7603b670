import {
  cancelSubscription, getMaintenance, listSubscriptions, startSubscription,
  type BillingProduct, type CancelSubscriptionBody,
} from '../../schema/api/calls-platform.ts';
import { bindDomain, offlineFailure, onlineDomain, via, type OnlineApi, type OnlinePort } from '../online.ts';

/** Refused before any request: decided on the server, nothing mirrored or queued. */
export const PLATFORM_OFFLINE = offlineFailure('You’re offline. Billing needs a connection: nothing was sent.');

/** Issue 32 (schema/api/calls-platform.ts): billing subscriptions and the maintenance window. Direct calls, online only. */
export const PLATFORM_DOMAIN = onlineDomain(PLATFORM_OFFLINE, {
  /** Every product with the business's state of it (admins). */
  billingSubscriptions: via(listSubscriptions, () => ({}), (d) => ({ items: d.items })),
  /** Starts a product, or resumes one that is canceling (BILLING_7002 when active). */
  startSubscription: via(startSubscription, (product: BillingProduct) => ({ params: { product } }), (s) => ({ subscription: s })),
  /** Cancels at the end of the paid period (BILLING_7001 when not active). */
  cancelSubscription: via(cancelSubscription, (product: BillingProduct, body: CancelSubscriptionBody) => ({ params: { product }, body }), (s) => ({ subscription: s })),
  /** The instance's maintenance window (public). */
  maintenance: via(getMaintenance, () => ({}), (m) => ({ maintenance: m })),
});

export type PlatformApi = OnlineApi<typeof PLATFORM_DOMAIN>;

export const platformWorkerHandlers = (port: OnlinePort): PlatformApi => bindDomain(port, PLATFORM_DOMAIN);
