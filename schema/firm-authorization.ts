import type { CallAuth, Surface } from './api/scopes.ts';
import { ADVISOR_RIGHTS, type AdvisorRight } from './entities/external-firm.ts';

/**
 * What a firm user may do inside a client (issue 31, design §3 "The firm user in a client"): the
 * authorization's rights READ / CODE / CLOSE_BOOKS, each opening a fixed set of calls. Default deny:
 * a business write this map does not name is refused (FIRM_7003), so a new call stays closed to
 * advisors until someone decides otherwise (schema/firm-authorization.test.ts walks CATALOGUE).
 * Shared with the client, which hides what the rights do not open.
 * An authorization is ACTIVE →(client ends | firm withdraws | last user unassigned)→ ENDED.
 */
export { ADVISOR_RIGHTS, type AdvisorRight };
export const ADVISOR_ROLES = ['ADVISOR_CONSOLE_ADMIN', 'ADVISOR_CONSOLE_USER'] as const;
export const isAdvisorRole = (role: string) => (ADVISOR_ROLES as readonly string[]).includes(role);

const RIGHT_WORDS: Record<AdvisorRight, string> = { READ: 'reading its books', CODE: 'coding', CLOSE_BOOKS: 'closing the books' };

/** The right each business write (and read-only POST) needs; every other write is refused. */
export const ADVISOR_RIGHT_OF_CALL: Readonly<Record<string, AdvisorRight>> = {
  // Reads made as POSTs, and the session's own housekeeping.
  'transactions.search': 'READ',
  'reporting.generateReport': 'READ',
  'users.signOut': 'READ',
  'users.switchBusiness': 'READ',
  // Coding: the client's transactions and receipts.
  'transactions.patch': 'CODE',
  'transactions.bulkCode': 'CODE',
  'transactions.attachReceipt': 'CODE',
  'transactions.detachReceipt': 'CODE',
  'receipts.upload': 'CODE',
  'receipts.discard': 'CODE',
  'accounting.suggestedContext.dismiss': 'CODE',
  // Closing the books: accounting sync, mapping rules, reconciliation, exports.
  'accounting.syncCommit': 'CLOSE_BOOKS',
  'accounting.markNotSynced': 'CLOSE_BOOKS',
  'accounting.preferences.update': 'CLOSE_BOOKS',
  'accounting.mappingRules.create': 'CLOSE_BOOKS',
  'accounting.mappingRules.replace': 'CLOSE_BOOKS',
  'accounting.mappingRules.delete': 'CLOSE_BOOKS',
  'accounting.mappingRules.apply': 'CLOSE_BOOKS',
  'accounting.reconciliation.manualMatch': 'CLOSE_BOOKS',
  'bills.bulk.retryAccountingSync': 'CLOSE_BOOKS',
  'bills.bulk.markReconciled': 'CLOSE_BOOKS',
  'transactions.exportAsFile': 'CLOSE_BOOKS',
  'reporting.exportAsFile': 'CLOSE_BOOKS',
};

/**
 * The step-ups (every surface may call them): inside a client an advisor never earns `sensitive`
 * or `email-otp`, so the calls they open stay closed whatever the rights.
 */
const NO_STEP_UP_IN_A_CLIENT = new Set(['auth.stepUp', 'auth.sendEmailOtp', 'auth.verifyEmailOtp']);

type GatedCall = { id: string; method: string; readOnly: boolean; auth: CallAuth; surfaces: readonly Surface[] };

const STEP_UP_ONLY = (auth: CallAuth) =>
  auth.kind === 'scopes' && !auth.scopes.includes('default') && auth.scopes.some((s) => s === 'sensitive' || s === 'email-otp');

/**
 * The right a call needs from an advisor, or null when no right opens it: a mapped call its right;
 * a read (GET, read-only POST) READ unless it needs a step-up (revealing bank details: advisors
 * never get `sensitive`); a call of several surfaces (identity, telemetry, scope switch) is the
 * identity's, not the business's, and needs READ; any other write nothing.
 */
export function advisorRightOf(call: GatedCall): AdvisorRight | null {
  if (NO_STEP_UP_IN_A_CLIENT.has(call.id)) return null;
  const mapped = ADVISOR_RIGHT_OF_CALL[call.id];
  if (mapped) return mapped;
  if (STEP_UP_ONLY(call.auth)) return null;
  if (call.method === 'GET' || call.readOnly) return 'READ';
  if (call.surfaces.length > 1) return 'READ';
  return null;
}

/** FIRM_7003's words for a call the rights do not open, or null when they do. */
export function advisorRefusal(call: GatedCall, rights: readonly AdvisorRight[]): string | null {
  const right = advisorRightOf(call);
  if (right && rights.includes(right)) return null;
  return right
    ? `Your firm's access to this business doesn't include ${RIGHT_WORDS[right]}. Ask the business to grant it.`
    : 'Your firm\'s access to this business doesn\'t include this. Only the business\'s own people can do it.';
}
