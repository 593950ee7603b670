/**
 * Spec calls (§7, labelled as schema/api/spec-calls.ts reads them) served by a catalogue entry
 * whose path the label does not spell: prose items (`GET card details`) and paths the catalogue
 * places elsewhere (`POST /fraud-response` under the transaction). Calls whose path matches the
 * catalogue are found without an entry here. Data only: docs/coverage.md is generated from it.
 */
export const SPEC_SERVED: Readonly<Record<string, Readonly<Record<string, readonly string[]>>>> = {
  'Bill pay': {
    'DELETE bill-template/{template}': ['bills.templates.delete'],
    'DELETE recurring-bills/{id}': ['bills.recurring.delete'],
    'DELETE vendor-credits/{credit}': ['bills.vendorCredits.delete'],
    'DELETE provisional bills (single and all)': ['bills.provisional.delete', 'bills.provisional.deleteAll'],
    'DELETE v2/vendor/{vendor}/bank-account/{account} (body)': ['vendors.bankAccount.delete'],
    'GET bills': ['bills.list', 'bills.get'],
    'GET provisional bills': ['bills.provisional.list'],
    'GET recurring bills': ['bills.recurring.list'],
    'GET templates': ['bills.templates.list'],
    'GET vendor search': ['vendors.list'],
    'GET payments': ['bills.payments.list'],
    'GET pay-by-card matching': ['bills.payByCard.matching', 'bills.payByCard.close', 'bills.payByCard.get', 'bills.payByCard.undo'],
    // Issue 30, payment rails: a check's images (and voiding it before it clears), a wire's MT103.
    'GET check images': ['bills.payments.checkImages', 'bills.payments.voidCheck'],
    'GET MT103': ['bills.payments.mt103'],
    'DELETE ap-clerks/{user}': ['admin.apClerks.remove'],
  },
  // Issue 31 (helper A): the advisor console's prose labels; the rest of the section stays planned (#31).
  'External firm (advisor)': {
    'Proposals (PUT accept, reject, revoke, validate, bulk)': [
      'businesses.firmProposals.accept', 'businesses.firmProposals.reject', 'firm.proposals.revoke', 'firm.proposals.validate', 'firm.proposals.bulk',
    ],
    'business-proposal accept': ['firm.businessProposals.accept'],
    'invite accept': ['firm.invites.accept'],
    'accept-and-create-identity': ['firm.invites.acceptAndCreateIdentity'],
    'csv parse': ['firm.proposals.csvParse'],
    'resend': ['firm.invites.resend'],
    'DELETE invites': ['firm.invites.delete'],
    'DELETE firm users': ['firm.users.delete'],
    'DELETE authorizations': ['firm.authorizations.delete'],
    'DELETE spend-user unassignment': ['firm.assignments.delete'],
    'DELETE referrals': ['firm.referrals.delete'],
    'DELETE logo': ['firm.logo.delete'],
    // Issue 31, applications started for others (schema/api/calls-financing-starts.ts). §7's sentence
    // "PUT financing applications for vendor, firm and client" parses as the two labels below.
    'DELETE withdrawal of a client financing application': ['firm.applications.withdraw'],
    'PUT financing applications for vendor': ['vendorNetwork.applications.put'],
    'PUT firm and client': ['firm.applications.put'],
  },
  'Vendors and vendor network': {
    'DELETE vendors: the vendor': ['vendors.delete'],
    'DELETE vendors: contacts (body)': ['vendors.contacts.delete'],
    // Issue 31, the vendor network (schema/api/calls-vendor-network*.ts).
    'PUT network vendor failure reminder': ['vendors.network.failureReminder'],
    'PUT vendor-network address (sensitive)': ['vendorNetwork.address.put'],
    'DELETE vendors: documents': ['vendors.documents.delete'],
    'DELETE vendors: edit proposals': ['vendors.editProposals.delete'],
    'vendor-network bank account and documents': ['vendorNetwork.bankAccount.delete', 'vendorNetwork.documents.delete'],
  },
  'Banking links': {
    '/banking/... (manual-account, statement, moneykit, finicity, teller, debit-check)': [
      'banking.accounts.list', 'banking.manualAccount.create', 'banking.accounts.reveal', 'banking.debitCheck.start', 'banking.debitCheck.verify',
      'banking.statement.upload', 'banking.statement.list', 'banking.statement.get', 'banking.statement.file', 'banking.statement.lines',
    ],
    'DELETE statement/{statement}': ['banking.statement.delete'],
    'DELETE user/bank-accounts/{id}': ['banking.accounts.delete'],
    'entity cash-account mapping': ['banking.entityCashAccounts.list', 'banking.entityCashAccounts.put'],
  },
  Approvals: {
    'PATCH /approval_policy/{bill, card, reimbursement, spend_request, vendor-payment, payee} and bulk variants': [
      'admin.approvalPolicies.get', 'admin.approvalPolicies.update', 'admin.approvalPolicies.bulkUpdate',
    ],
    'PATCH approval instance policy': ['admin.approvalInstances.reapplyPolicy'],
    'PUT assigned approval chain entities': ['admin.approvalPolicies.assignEntities', 'admin.approvalPolicies.entities'],
    // Issue 32: a read whose query is a body, served as a read-only POST (calls-approval-events.ts).
    'GET bulk approval chain events uses a body': ['approvals.chainEvents'],
  },
  Workflows: {
    'PUT rules by id': ['workflows.rules.update'],
  },
  Cards: {
    'POST /reissue': ['cards.reissue'],
    'GET card details': ['cards.get', 'cards.list'],
    'GET requests': ['cardRequests.list'],
    // Issue 32 (helper BIZ): schema/api/calls-card-renewal.ts.
    'GET renewal': ['cards.renewal.get'],
    'GET reissue': ['cards.reissue.get'],
  },
  'Treasury, wallet, float': {
    'Float: /float/... (onboard, settings, offer, retry-installment-payment/{flex_installment_payment_uuid})': [
      'float.onboard', 'float.settings.get', 'float.settings.update', 'float.offer.create', 'float.offer.accept', 'float.records.list',
      'float.installments.retry',
    ],
    '/treasury/business-accounts (with /transfers, /transfers/preview, /transfers/{transfer_uuid}/cancel, /actions)': [
      'treasury.accounts.list', 'treasury.accounts.create', 'treasury.accounts.actions',
      'treasury.transfers.preview', 'treasury.transfers.create', 'treasury.transfers.list', 'treasury.transfers.cancel',
    ],
  },
  Transactions: {
    'POST /fraud-response': ['transactions.fraudResponse'],
    // Issue 32 (calls-transaction-extras.ts): the attendee split and a refund's receipts.
    'DELETE attendee-split on spend event and transaction': ['transactions.attendeeSplit.delete', 'travel.trips.spendEvents.attendeeSplit.delete'],
    'PUT copy-receipts for a refund transaction': ['transactions.copyReceipts'],
    'PUT attendee-split': ['transactions.attendeeSplit.put'],
  },
  Reimbursements: {
    'PATCH pay by ACH': ['reimbursements.payAch'],
    'PUT draft save': ['reimbursements.saveDraft'],
  },
  Accounting: {
    '/accounting/providers/{provider_type}/ (csv, disconnect, sync_commit, tracking_categories, accounts, oauth2_callback)': [
      'accounting.connect', 'accounting.disconnect', 'accounting.syncCommit', 'accounting.syncPreview',
    ],
    'PATCH accounting preferences': ['accounting.preferences.update'],
    'PUT mapping rules': ['accounting.mappingRules.replace'],
    'DELETE mapping_rules/{group}': ['accounting.mappingRules.delete'],
    'GET lists': ['glAccounts.list', 'trackingCategories.list'],
    'GET provider accounts': ['glAccounts.list'],
    'GET sync commits': ['accounting.syncCommits.list', 'accounting.syncCommits.get', 'accounting.syncCommits.file'],
    'DELETE suggested-context/{transaction}': ['accounting.suggestedContext.dismiss'],
  },
  'Users and authentication': {
    'POST /confirm_email': ['emailVerification.verify'],
    'PUT users/current/password': ['users.changePassword'],
    'TOTP and webauthn registration under /authentication/tokens/...': [
      'mfa.totpStart', 'mfa.totpVerify', 'webauthn.registrationOptions', 'webauthn.registrationVerify',
    ],
    'SAML providers under /authentication/saml-providers (DELETE /{provider})': ['admin.sso.createSaml', 'admin.sso.deleteSaml'],
    'passwordless link validation': ['auth.passwordlessValidate'],
    'app-attest challenge': ['appAttest.challenge', 'appAttest.attest'],
    'full verify with an ID token in a header': ['users.fullAuthCheck'],
    'DELETE TOTP and WebAuthn authenticators': ['mfa.totpDelete', 'webauthn.delete'],
    'PATCH admin change of user email (sensitive)': ['users.changeEmail'],
    // Issue 32: the person's own settings, preferences, picture and Web Push subscriptions (calls-users.ts, calls-push.ts).
    'PUT preferences': ['users.preferences.put', 'users.preferences.get'],
    'PUT profile picture': ['users.profilePicture.put', 'users.profilePicture.delete', 'users.profilePicture.file'],
    'device token refresh': ['notifications.deviceToken.register', 'notifications.push.key'],
  },
  // Issue 31: the application's calls all live under /application (the spec drops the prefix after the first).
  'Application and onboarding': {
    'PATCH bank accounts (body)': ['application.bankAccounts'],
    'DELETE kyc-documents/{doc}/{page}': ['application.kycDocuments.deletePage'],
    'DELETE accounts/{id}': ['application.accounts.delete'],
    'DELETE invite/{invite}': ['application.invite.delete'],
    'DELETE ownerships (body)': ['application.ownerships.delete'],
  },
  Businesses: {
    // Issue 32 (helper BIZ): schema/api/calls-business-settings.ts (card branding's paths match the catalogue).
    'DELETE beta-enrollment': ['businesses.betaEnrollment.delete', 'businesses.betaEnrollment.get', 'businesses.betaEnrollment.put'],
    'DELETE setting/{type}': ['businesses.settings.reset', 'businesses.settings.list'],
    'DELETE security/contact': ['businesses.securityContact.delete', 'businesses.securityContact.get', 'businesses.securityContact.put'],
    'PUT currencies': ['treasury.currencies.put'],
    'DELETE entities/{entity}': ['admin.entities.delete'],
    'DELETE {business}/sso (body)': ['admin.sso.deleteBusiness'],
    'DELETE users/{user} (query)': ['admin.users.delete'],
    'DELETE departments/{dept}': ['admin.departments.delete'],
    'DELETE locations/{location}': ['admin.locations.delete'],
    'PUT department and location owners': ['admin.departments.owners', 'admin.locations.owners'],
    'PATCH admin transaction notify threshold': ['admin.notifyThreshold.patch', 'admin.notifyThreshold.get'],
    'PUT merchant restrictions': ['admin.merchantRestrictions.put', 'businesses.merchantRestrictions.get'],
    // Issue 31 (the application area): a business's address, its owners' re-screening, a further entity's KYB.
    'PUT business address by business_uuid': ['businesses.address.put'],
    'PUT issuing onboarding by entity and country': ['businesses.issuingOnboarding.put'],
    'PUT kyb-kyc': ['businesses.kybKyc.put'],
  },
  'Spend requests and purchase orders': {
    'POST and PATCH /purchase-order-spend-requests/...': ['purchaseOrders.close', 'purchaseOrders.settings.put'],
    'DELETE spend-requests: item receipts': ['itemReceipts.delete'],
    'DELETE spend-requests: item receipt documents': ['itemReceipts.documents.delete'],
  },
  'Travel and booking': {
    'DELETE travel policy': ['travel.policy.delete'],
    'DELETE travel-rewards': ['travel.rewards.void'],
    'DELETE trips': ['travel.trips.delete'],
    'DELETE trip spend events and transactions': ['travel.trips.unlinkSpend'],
    'PUT travel policy': ['travel.policy.put'],
    'PUT settings': ['travel.settings.put'],
    'PUT traveler profile': ['travel.profile.put'],
    'PUT trip spend-events': ['travel.trips.linkSpend'],
    '/booking/flights/...': ['booking.flights.search'],
    '/booking/hotels/...': ['booking.hotels.search'],
  },
  'Integrations and other': {
    // Issue 32: customer API clients and secrets (helper B), SFTP transaction uploads (helper G, calls-sftp.ts).
    'customer API clients (DELETE clients/{client}, clients/secrets/{secret}, sftp-transaction-uploads/{id})': [
      'admin.apiClients.list', 'admin.apiClients.create', 'admin.apiClients.get', 'admin.apiClients.secrets.create',
      'admin.apiClients.secrets.delete', 'admin.apiClients.delete',
      'admin.sftpUploads.list', 'admin.sftpUploads.create', 'admin.sftpUploads.get', 'admin.sftpUploads.update',
      'admin.sftpUploads.delete', 'admin.sftpUploads.run',
    ],
    // Issue 32 (helper DEVAPPS): schema/api/calls-developer-apps.ts; the code and refresh grants are POST /v1/public/token.
    'developer applications': [
      'admin.developerApps.list', 'admin.developerApps.create', 'admin.developerApps.update', 'admin.developerApps.secrets.rotate',
      'admin.developerApps.delete', 'oauth.apps.get', 'oauth.consents.create', 'admin.oauthGrants.list', 'admin.oauthGrants.revoke',
    ],
    'comment threads (DELETE comments/{comment})': ['comments.list', 'comments.create', 'comments.delete'],
    configuration: ['config.web'],
    'expense policies (DELETE expense-policies/{policy}, expense-policy-creator)': [
      'expensePolicies.list', 'expensePolicies.create', 'expensePolicies.get', 'expensePolicies.update', 'expensePolicies.delete',
    ],
    'copilot (PUT, DELETE copilot/{user} body)': ['copilot.put', 'copilot.delete', 'copilot.list'],
    // Issue 32 (helper A): SCIM integrations; the protocol itself is /scim/v2 (server/scim/).
    'SCIM (DELETE scim/integration/{id}, PUT)': ['scim.integrations.list', 'scim.integrations.put', 'scim.integrations.delete'],
    // Issue 32: a list's saved views (schema/saved-views.ts).
    'saved views (PUT and DELETE by id)': ['savedViews.list', 'savedViews.put', 'savedViews.delete'],
    // Issue 32: schema/api/calls-chat.ts (one connection per provider; the posts are the server's).
    Slack: ['chat.connections.list', 'chat.connections.put', 'chat.connections.delete', 'chat.connections.test', 'chat.links.open'],
    Teams: ['chat.connections.list', 'chat.connections.put', 'chat.connections.delete', 'chat.connections.test', 'chat.links.open'],
    // Issue 32 (helper F): schema/api/calls-export-settings.ts.
    'export table user-settings': ['exportSettings.get', 'exportSettings.put', 'exportSettings.delete'],
    'export of primary cards (query)': ['primaryCards.export'],
    // Issue 32 (helper F): schema/api/calls-jobs.ts.
    'event history per entity type': ['eventHistory.list'],
    'async jobs': ['asyncJobs.list', 'asyncJobs.get', 'asyncJobs.file', 'asyncJobs.cancel'],
    // Issue 31: an application in MANUAL_REVIEW lists operations' requests and answers them with the KYC document calls.
    'operations document requests and uploaded files': [
      'application.documentRequests.list', 'application.kycDocuments', 'application.kycDocuments.uploadPage',
    ],
    // Issue 32 (helper G): the HRIS connection, its imports and their diffs (schema/api/calls-hris.ts).
    'HRIS (DELETE hris/connection)': [
      'hris.connection.delete', 'hris.connection.get', 'hris.connection.put', 'hris.imports.create', 'hris.imports.list',
      'hris.imports.get', 'hris.imports.apply',
    ],
  },
};
