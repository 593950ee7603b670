/** Issue 31: the handlers of schema/api/calls-vendor-network.ts (docs/design/issue-31-surfaces.md). */
import type { DomainHandlers } from '../http/handler.ts';
import { vendorNetworkPayerHandlers } from './vendor-network-payer.ts';
import { vendorNetworkPortalHandlers } from './vendor-network-portal.ts';

export const vendorNetworkHandlers = { ...vendorNetworkPayerHandlers, ...vendorNetworkPortalHandlers } satisfies DomainHandlers;
