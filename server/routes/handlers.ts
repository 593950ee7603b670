import type { HandlerMap } from '../http/handler.ts';
import { accountingHandlers } from './accounting.ts';
import { merchantRestrictionHandlers } from './merchant-restrictions.ts';
import { adminUserHandlers } from './admin-users.ts';
import { adminHandlers } from './admin.ts';
import { orgHandlers } from './org.ts';
import { approvalHandlers } from './approvals.ts';
import { approvalPolicyHandlers } from './approval-policies.ts';
import { copilotHandlers } from './copilot.ts';
import { commentHandlers } from './comments.ts';
import { authHandlers } from './auth.ts';
import { billBulkHandlers } from './bill-bulk.ts';
import { billTemplateHandlers, recurringBillHandlers, vendorCreditHandlers } from './bill-extras.ts';
import { billHandlers } from './bills.ts';
import { provisionalBillHandlers } from './provisional-bills.ts';
import { businessSwitchHandlers } from './business-switch.ts';
import { cardHandlers } from './cards.ts';
import { passwordlessHandlers } from './identity-passwordless.ts';
import { sessionHandlers } from './identity-session.ts';
import { stepUpHandlers } from './identity-step-up.ts';
import { lowRiskTokenHandlers } from './low-risk-token.ts';
import { identityHandlers } from './identity.ts';
import { referenceHandlers } from './reference.ts';
import { reportingHandlers } from './reporting.ts';
import { receiptHandlers } from './receipts.ts';
import { reimbursementRateHandlers } from './reimbursement-rates.ts';
import { reimbursementHandlers } from './reimbursements.ts';
import { ssoHandlers } from './sso.ts';
import { ssoSamlHandlers } from './sso-saml.ts';
import { syncHandlers } from './sync.ts';
import { transactionHandlers } from './transactions.ts';
import { vendorHandlers } from './vendors.ts';
import { appAttestHandlers } from './webauthn-app-attest.ts';
import { webauthnHandlers } from './webauthn.ts';
import { supportAccessHandlers } from './support-access.ts';
import { emailVerificationHandlers } from './email-verification.ts';
import { fraudHandlers } from './fraud.ts';
import { bookingHandlers } from './booking.ts';
import { tripHandlers } from './travel.ts';
import { purchaseOrderHandlers } from './purchase-orders.ts';
import { spendRequestHandlers } from './spend-requests.ts';
import { spendBudgetHandlers } from './spend-allocations.ts';
import { billMatchHandlers } from './bill-match.ts';
import { billCardMatchHandlers } from './bill-card-match.ts';
import { billRailHandlers } from './bill-rails.ts';
import { expensePolicyHandlers } from './expense-policies.ts';
import { workflowHandlers } from './workflows.ts';
import { notificationHandlers } from './notifications.ts';
import { floatHandlers } from './float.ts';
import { walletAutomationHandlers } from './wallet-automation.ts';
import { bankingHandlers } from './banking.ts';
import { treasuryHandlers } from './treasury.ts';
import { cardAutopayHandlers } from './card-autopay.ts';
import { surfaceHandlers } from './surfaces.ts';
import { externalFirmHandlers } from './external-firm.ts';
import { vendorNetworkHandlers } from './vendor-network.ts';
import { applicationHandlers } from './application.ts';
import { financingStartHandlers } from './financing-starts.ts';
import { hrisHandlers } from './hris.ts';
import { sftpUploadHandlers } from './sftp-uploads.ts';
import { switchingHandlers } from './switching.ts';
import { businessSettingHandlers } from './business-settings.ts';
import { jobHandlers } from './jobs.ts';
import { billQueryHandlers } from './bill-query.ts';
import { approvalChainEventHandlers } from './approval-chain-events.ts';
import { savedViewHandlers } from './saved-views.ts';
import { exportSettingsHandlers } from './export-settings.ts';
import { chatHandlers } from './chat.ts';
import { userHandlers } from './users.ts';
import { platformHandlers } from './platform.ts';
import { apiClientHandlers } from './api-clients.ts';
import { developerAppHandlers } from './developer-apps.ts';
import { scimIntegrationHandlers } from './scim-integration.ts';
import { transactionExtraHandlers } from './transaction-extras.ts';

/**
 * Every served call's handler, one per catalogue id. `satisfies HandlerMap` is the completeness
 * check: a catalogue entry with no handler here fails to compile, and each domain map already
 * refused ids the catalogue does not have. createApp registers them in one loop
 * (registerCatalogue); served-catalogue.test.ts proves each answers on its method and path.
 */
export const HANDLERS = {
  ...authHandlers,
  ...identityHandlers,
  ...stepUpHandlers,
  ...lowRiskTokenHandlers,
  ...sessionHandlers,
  ...passwordlessHandlers,
  ...webauthnHandlers,
  ...appAttestHandlers,
  ...referenceHandlers,
  ...transactionHandlers,
  ...reimbursementHandlers,
  ...reimbursementRateHandlers,
  ...approvalHandlers,
  ...cardHandlers,
  ...vendorHandlers,
  ...billHandlers,
  ...billBulkHandlers,
  ...provisionalBillHandlers,
  ...recurringBillHandlers,
  ...vendorCreditHandlers,
  ...billTemplateHandlers,
  ...receiptHandlers,
  ...syncHandlers,
  ...adminHandlers,
  ...orgHandlers,
  ...adminUserHandlers,
  ...businessSwitchHandlers,
  ...approvalPolicyHandlers,
  ...copilotHandlers,
  ...reportingHandlers,
  ...accountingHandlers,
  ...merchantRestrictionHandlers,
  ...ssoHandlers,
  ...ssoSamlHandlers,
  ...supportAccessHandlers,
  ...emailVerificationHandlers,
  ...fraudHandlers,
  ...bookingHandlers,
  ...tripHandlers,
  ...purchaseOrderHandlers,
  ...spendRequestHandlers,
  ...spendBudgetHandlers,
  ...billMatchHandlers,
  ...billCardMatchHandlers,
  ...billRailHandlers,
  ...expensePolicyHandlers,
  ...workflowHandlers,
  ...commentHandlers,
  ...bankingHandlers,
  ...notificationHandlers,
  ...floatHandlers,
  ...walletAutomationHandlers,
  ...treasuryHandlers,
  ...cardAutopayHandlers,
  ...surfaceHandlers,
  ...externalFirmHandlers,
  ...vendorNetworkHandlers,
  ...applicationHandlers,
  ...financingStartHandlers,
  ...scimIntegrationHandlers,
  ...apiClientHandlers,
  ...developerAppHandlers,
  ...platformHandlers,
  ...chatHandlers,
  ...savedViewHandlers,
  ...exportSettingsHandlers,
  ...jobHandlers,
  ...hrisHandlers,
  ...sftpUploadHandlers,
  ...switchingHandlers,
  ...billQueryHandlers,
  ...approvalChainEventHandlers,
  ...transactionExtraHandlers,
  ...userHandlers,
  ...businessSettingHandlers,
} satisfies HandlerMap;
