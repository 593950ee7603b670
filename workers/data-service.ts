import { approvalPolicyHandlers } from './handlers/approval-policies.ts';
import type { DataApi } from './api.ts';
import { accountingHandlers } from './handlers/accounting.ts';
import { billExtraHandlers } from './handlers/bill-extras.ts';
import { billHandlers } from './handlers/bills.ts';
import { billCardMatchHandlers } from './handlers/bill-card-match.ts';
import { commandHandlers } from './handlers/commands.ts';
import { identityHandlers } from './handlers/identity.ts';
import { queryHandlers } from './handlers/queries.ts';
import { reportHandlers } from './handlers/reports.ts';
import { exportHandlers } from './handlers/exports.ts';
import { receiptHandlers } from './handlers/receipts.ts';
import { afterPasswordSignIn, sessionHandlers } from './handlers/session.ts';
import { ssoHandlers } from './handlers/sso.ts';
import { statusHandlers, syncClock } from './handlers/status.ts';
import { vendorHandlers } from './handlers/vendors.ts';
import { teamHandlers } from './handlers/team.ts';
import { supportAccessHandlers } from './handlers/support-access.ts';
import { hrisWorkerHandlers } from './handlers/hris.ts';
import { switchingWorkerHandlers } from './handlers/switching.ts';
import { sftpUploadWorkerHandlers } from './handlers/sftp-uploads.ts';
import { businessSettingsWorkerHandlers } from './handlers/business-settings.ts';
import { jobWorkerHandlers } from './handlers/jobs.ts';
import { savedViewWorkerHandlers } from './handlers/saved-views.ts';
import { exportSettingsWorkerHandlers } from './handlers/export-settings.ts';
import { chatWorkerHandlers } from './handlers/chat.ts';
import { platformWorkerHandlers } from './handlers/platform.ts';
import { apiClientWorkerHandlers } from './handlers/api-clients.ts';
import { developerAppWorkerHandlers } from './handlers/developer-apps.ts';
import { scimIntegrationWorkerHandlers } from './handlers/scim.ts';
import { profileWorkerHandlers } from './handlers/profile.ts';
import { orgHandlers } from './handlers/org.ts';
import { travelHandlers } from './handlers/travel.ts';
import { procurementHandlers } from './handlers/procurement.ts';
import { workflowHandlers } from './handlers/workflows.ts';
import { commentHandlers } from './handlers/comments.ts';
import { policyHandlers } from './handlers/policy-handlers.ts';
import { notificationSettingsHandlers } from './handlers/notifications.ts';
import { treasuryHandlers } from './handlers/treasury.ts';
import { advisorConsoleHandlers } from './handlers/advisor-console.ts';
import { bankingHandlers } from './handlers/banking.ts';
import { applicationHandlers } from './handlers/application.ts';
import { vendorPortalHandlers } from './handlers/vendor-portal.ts';
import { WorkerContext, type DataServiceDeps } from './worker-context.ts';

export type { DataServiceDeps };

/** DataApi plus the test and shutdown hook that closes the mirror and stops syncing. */
export type DataService = DataApi & { dispose(): Promise<void> };

/**
 * DataApi, the worker's side of the Comlink boundary, joined from one handler object per
 * domain (handlers/): session, identity, queries, commands, status. They share one
 * WorkerContext (stored session, HTTP client, status hub, mirror host). The worker is the only
 * place that talks to the server: sign-in and identity through the sync HTTP client, everything
 * else through the sync engine, which runs only in the leader tab (Web Locks).
 */
export function createDataService(deps: DataServiceDeps): DataService {
  const ctx = new WorkerContext(deps);
  // The surfaces' sign-ins finish as a password sign-in does (handed in: their files are api.ts's types).
  const finishSignIn = (token: string, mfaRequired: boolean, email: string | null) => afterPasswordSignIn(ctx, token, mfaRequired, undefined, email);
  // One clock of the last sync: Settings' offline data and the banking list's offline answer.
  const clock = syncClock(ctx);
  const api: DataApi = {
    ...sessionHandlers(ctx),
    ...identityHandlers(ctx),
    ...queryHandlers(ctx),
    ...reportHandlers(ctx),
    ...exportHandlers(ctx),
    ...commandHandlers(ctx),
    ...statusHandlers(ctx, clock),
    ...receiptHandlers(ctx),
    ...vendorHandlers(ctx),
    ...billHandlers(ctx),
    ...billExtraHandlers(ctx),
    ...billCardMatchHandlers(ctx),
    ...accountingHandlers(ctx),
    ...teamHandlers(ctx),
    ...orgHandlers(ctx),
    ...ssoHandlers(ctx),
    ...supportAccessHandlers(ctx),
    ...approvalPolicyHandlers(ctx),
    ...travelHandlers(ctx),
    ...procurementHandlers(ctx),
    ...workflowHandlers(ctx),
    ...policyHandlers(ctx),
    ...commentHandlers(ctx),
    ...notificationSettingsHandlers(ctx),
    ...treasuryHandlers(ctx),
    ...bankingHandlers(ctx, clock),
    ...advisorConsoleHandlers(ctx, finishSignIn),
    ...applicationHandlers(ctx, finishSignIn),
    ...vendorPortalHandlers(ctx, finishSignIn),
    ...hrisWorkerHandlers(ctx),
    ...switchingWorkerHandlers(ctx),
    ...sftpUploadWorkerHandlers(ctx),
    ...businessSettingsWorkerHandlers(ctx),
    ...jobWorkerHandlers(ctx),
    ...savedViewWorkerHandlers(ctx),
    ...exportSettingsWorkerHandlers(ctx),
    ...chatWorkerHandlers(ctx),
    ...platformWorkerHandlers(ctx),
    ...apiClientWorkerHandlers(ctx),
    ...developerAppWorkerHandlers(ctx),
    ...scimIntegrationWorkerHandlers(ctx),
    ...profileWorkerHandlers(ctx),
  };
  return { ...api, dispose: () => ctx.host.close(false) };
}
