import { z } from 'zod';

/**
 * The error catalogue: spec §8 codes first, then the codes our own provider API adds for
 * situations the spec leaves unnamed (validation, not found, idempotency). Every error body the
 * server sends carries one of these codes; the client maps codes to messages here and nowhere else.
 */
export const ERROR_CATALOGUE = {
  '4005': { status: 403, message: 'This business is inactive.' },
  '4011': { status: 403, message: 'This business is locked.' },
  '4014': { status: 404, message: 'No user was found for this identity.' },
  BILLING_7001: { status: 422, message: 'There are no active subscriptions.' },
  BILLING_7002: { status: 422, message: 'The subscription is already active.' },
  BILLING_7003: { status: 404, message: 'No statement is available.' },
  BILL_PAY_7017: { status: 422, message: 'The network vendor email is invalid.' },
  PROFILE_7016: { status: 422, message: 'The code has expired. Request a new one.' },
  PROFILE_7017: { status: 422, message: 'The code is invalid.' },
  PROFILE_7027: { status: 422, message: 'This email is already verified.' },
  TIMEOUT: { status: 408, message: 'The request timed out. Refresh the page to try again.' },
  '6020': { status: 422, message: 'This phone number has unsubscribed.' },
  '6019': { status: 422, message: 'This phone number is out of region.' },
  '6014': { status: 422, message: 'You are already invited to this webinar.' },
  PAYEE_1007: { status: 422, message: 'State is required for US vendors.' },
  INFRA_7001: { status: 503, message: 'Scheduled maintenance is in progress.' },
  BUSINESS_7004: { status: 422, message: 'The identity-provider URL is invalid.' },
  BUSINESS_7014: { status: 422, message: 'The identity-provider format is invalid.' },
  AUTH_7016: { status: 403, message: 'Additional verification is needed for this action.' },
  AUTH_7022: { status: 403, message: 'This sign-in method is disabled.' },
  AUTH_7018: { status: 422, message: 'The email does not match.' },
  AUTH_7030: { status: 409, message: 'A SAML configuration already exists for this domain.' },
  AUTH_7042: { status: 422, message: 'SAML cannot be enabled with no users on the domain.' },
  AUTH_7021: { status: 422, message: 'The SSO configuration cannot be removed.' },
  AUTH_7028: { status: 422, message: 'The enforcement configuration is invalid.' },
  AUTH_7025: { status: 422, message: 'Multi-factor authentication failed.' },
  AUTH_7002: { status: 401, message: 'Failed to resolve authenticated state' },
  AUTH_7026: {
    status: 403,
    message: 'You have a pending invite. Check your email and accept it to log in.',
  },
  AUTH_7027: {
    status: 403,
    message: 'You have an expired invite. Request a new invite from your admin to log in.',
  },
  SWITCHING_7002: { status: 422, message: 'The card statement CSV could not be processed.' },
  ACCESS_7006: { status: 502, message: 'The accounting provider rejected the credentials.' },
  // Ours (the spec leaves these unnamed).
  AUTH_7001: { status: 401, message: 'The email or password is incorrect.' },
  AUTH_7003: { status: 401, message: 'Your session has expired. Sign in again.' },
  AUTH_7029: { status: 429, message: 'Too many attempts. Try again later.' },
  REQUEST_7001: { status: 422, message: 'The request is invalid.' },
  REQUEST_7004: { status: 404, message: 'The requested item was not found.' },
  REQUEST_7005: { status: 405, message: 'This method is not allowed here.' },
  REQUEST_7013: { status: 413, message: 'The request is too large.' },
  REQUEST_7014: { status: 431, message: 'The request headers or URL are too large.' },
  REQUEST_7015: { status: 415, message: 'Send the request body as application/json.' },
  REQUEST_7016: { status: 400, message: 'The request is malformed.' },
  // Issue 24: a JSON body with a prototype key, nested past the depth limit or past the key/item limits.
  REQUEST_7017: { status: 400, message: 'The request body has a structure the server does not accept.' },
  // Issue 24: a quota (invites, receipt uploads, sign-ups, sign-in links) is used up; the answer says which and when.
  QUOTA_EXCEEDED: { status: 429, message: 'You have reached a limit for now. Try again later.' },
  UPLOAD_7101: { status: 415, message: 'This file type is not supported.' },
  UPLOAD_7102: { status: 422, message: 'The file content does not match its type.' },
  UPLOAD_7103: { status: 413, message: 'The file is too large.' },
  UPLOAD_7104: { status: 422, message: 'The file is empty.' },
  UPLOAD_7105: { status: 422, message: 'The file contains web page content (HTML, SVG, XML or script) and is not accepted.' },
  FORBIDDEN_7003: { status: 403, message: 'You do not have permission to do this.' },
  APPROVAL_7201: { status: 403, message: 'You cannot review your own reimbursement. Another reviewer must decide it.' },
  // Issue 12, accounting close. No §8 or existing code says "already exported" or "a commit is running".
  ACCOUNTING_7301: {
    status: 409,
    message: 'This item was exported to your accounting system. Mark it as not synced to change its coding.',
  },
  ACCOUNTING_7302: { status: 409, message: 'Another sync commit is running for this business. Try again when it has finished.' },
  ACCOUNTING_7303: { status: 422, message: 'Nothing to sync: every coded, approved item has already been exported.' },
  ACCOUNTING_7304: { status: 422, message: 'Connect this accounting provider first.' },
  IDEMPOTENCY_7009: {
    status: 422,
    message: 'This Idempotency-Key was already used with a different request.',
  },
  IDEMPOTENCY_7010: {
    status: 409,
    message: 'A request with this Idempotency-Key is still in progress.',
  },
  // Issue 24: support access by grant, and email verification at sign-up.
  SUPPORT_7001: {
    status: 403,
    message: 'Support access is off for this business. An owner or admin can turn it on in Settings → Support access.',
  },
  SUPPORT_7002: { status: 403, message: 'Support access to this business is read-only: its grant does not allow changes.' },
  SUPPORT_7003: { status: 403, message: 'Security settings and verification codes are not available while acting as another person.' },
  PROFILE_UNVERIFIED: {
    status: 403,
    message: 'Verify your email address first: enter the 6-digit code we emailed you. Until then you cannot invite people, set up single sign-on, grant support access or email others.',
  },
  // Issue 25: a bill whose vendor and invoice number another live bill has, sent without confirm_duplicate.
  BILL_PAY_DUPLICATE_INVOICE: {
    status: 422,
    message: 'This vendor already has a bill with this invoice number. Check it is not the same invoice; to save it anyway, confirm the duplicate.',
  },
  // Issue 27, travel and booking (no §8 code fits). 7001–7019: trips, policy, profile; 7020–7039: search and booking.
  TRAVEL_7001: { status: 422, message: 'This offer has expired. Search again for current prices.' },
  TRAVEL_7002: { status: 422, message: 'This offer is outside the travel policy, and the policy does not allow booking it.' },
  TRAVEL_7003: { status: 409, message: 'This trip still has bookings. Cancel them before deleting the trip.' },
  TRAVEL_7004: { status: 422, message: 'Booking is turned off for this business. An admin can turn it on in Travel settings.' },
  TRAVEL_7005: { status: 409, message: 'This trip is canceled: nothing more can be booked or linked on it.' },
  TRAVEL_7006: { status: 409, message: 'This trip still has bookings. Cancel them before canceling the trip.' },
  TRAVEL_7007: { status: 409, message: 'This card transaction or claim is already linked to another trip. Unlink it there first.' },
  TRAVEL_7008: { status: 409, message: 'This trip is canceled: it can no longer be edited.' },
  TRAVEL_7009: { status: 409, message: 'This charge belongs to a booking: it stays with its trip.' },
  // Issue 27, booking (TRAVEL_7020–7039).
  TRAVEL_7020: { status: 409, message: 'This booking is already canceled or was rejected: there is nothing to cancel.' },
  TRAVEL_7021: { status: 422, message: 'This business asks for a trip purpose before anything is booked. Add one to the trip first.' },
  TRAVEL_7022: { status: 409, message: 'The trip\'s virtual card is locked, suspended or terminated, so nothing can be charged to it. Ask an admin to unlock it.' },
  TRAVEL_7023: { status: 422, message: 'This flight has already left (or the stay has begun): search again.' },
  TRAVEL_7024: { status: 409, message: 'This offer is already booked on another trip.' },
  TRAVEL_7025: { status: 409, message: 'The travel policy changed since you searched: this offer\'s policy outcome is different now. Search again to confirm.' },
  // Issue 28, procurement (PROCUREMENT_7001–7039).
  PROCUREMENT_7001: { status: 422, message: 'This kind of request is turned off for this business. An admin can turn it on.' },
  PROCUREMENT_7002: { status: 403, message: 'You can request spend for yourself, or for your team if you manage one. Bookkeepers can request for anyone.' },
  PROCUREMENT_7003: { status: 409, message: 'This request can no longer be changed this way.' },
  PROCUREMENT_7004: { status: 422, message: 'That vendor is not one of this business\'s vendors.' },
  PROCUREMENT_7005: { status: 422, message: 'That budget has ended or is archived: it cannot take more requests or cards.' },
  PROCUREMENT_7010: { status: 409, message: 'This receipt would take a line past the quantity ordered.' },
  PROCUREMENT_7011: { status: 409, message: 'This purchase order is closed: nothing more can be received against it.' },
  PROCUREMENT_7012: { status: 422, message: 'A line names a line that is not on this purchase order.' },
  PROCUREMENT_7013: { status: 409, message: 'This bill does not match its purchase order. Resolve the differences, or an admin can override the match with a reason.' },
  PROCUREMENT_7014: { status: 403, message: 'Only an admin can override a purchase order match.' },
  PROCUREMENT_7015: { status: 409, message: 'This spend intent has expired, was used or was canceled.' },
  PROCUREMENT_7016: { status: 422, message: 'Only admins and managers create budgets and add people to them.' },
  // Issue 29, expense policies and the missing-items wizard (POLICY_7001–7019); approvals, groups and delegation (POLICY_7020–7039).
  POLICY_7001: { status: 422, message: 'This policy contradicts itself. Fix the rules named below.' },
  POLICY_7002: { status: 403, message: 'Only an admin can create, change or delete expense policies.' },
  POLICY_7003: { status: 409, message: 'This business already has the most expense policies it can keep. Delete or merge one first.' },
  POLICY_7004: { status: 409, message: 'This person was already reminded today.' },
  POLICY_7005: { status: 422, message: 'This person has nothing missing: there is nothing to remind them of.' },
  // Issue 29, automation workflows (WORKFLOW_7001–7019).
  WORKFLOW_7001: { status: 422, message: 'This workflow would trigger itself: one of its actions leads back to its own trigger. Change the trigger or the actions.' },
  WORKFLOW_7002: { status: 422, message: 'Some conditions or actions do not fit this trigger. Fix the steps named below.' },
  WORKFLOW_7003: { status: 403, message: 'Only an admin can create, change or delete workflows.' },
  WORKFLOW_7004: { status: 409, message: 'A workflow needs at least one rule. Delete the workflow instead.' },
  WORKFLOW_7005: { status: 409, message: 'This business already has the most workflows it can keep. Delete one first.' },
  WORKFLOW_7006: { status: 422, message: 'The canvas does not read as a workflow yet. Fix the steps marked on it.' },
  // Issue 29, approval groups and delegation (POLICY_7020–7039).
  POLICY_7020: { status: 422, message: 'This person cannot decide approvals for someone else: they need the Copilot permission first.' },
  POLICY_7021: { status: 422, message: 'You cannot delegate your approvals to yourself. Choose someone else.' },
  POLICY_7022: { status: 409, message: 'This approval group is used by an approval policy. Remove it from the policy\'s steps first.' },
  POLICY_7023: { status: 422, message: 'The current policy leaves no step to decide on this approval. Approve or reject it instead.' },
  POLICY_7024: { status: 422, message: 'This approval was started before chains kept what they were resolved against: its policy cannot be re-applied.' },
  POLICY_7025: { status: 409, message: 'Another approval group already has this name.' },
  // Issue 29, comment threads (COMMENT_7001–7019).
  COMMENT_7001: { status: 403, message: 'Only the person who wrote this comment, or an admin, can delete it.' },
  COMMENT_7002: { status: 422, message: 'Someone you mentioned cannot see this item, so they could not read your comment. Remove the mention named below.' },
  COMMENT_7003: { status: 409, message: 'This comment id is already used for another comment.' },
  // Issue 29, the notifications centre (NOTIFY_7001–7019).
  NOTIFY_7001: { status: 403, message: 'Only an admin can change the transaction notify threshold.' },
  // Issue 30, treasury: wallet accounts, transfers and automation policies (TREASURY_7001–7029).
  TREASURY_7001: { status: 403, message: 'Only an admin can see and move the business\'s money.' },
  TREASURY_7002: { status: 422, message: 'This account is kept in another currency. Send the amount in the account\'s currency.' },
  TREASURY_7003: { status: 422, message: 'A transfer needs two different accounts.' },
  TREASURY_7004: { status: 422, message: 'There is not enough money in this account for that.' },
  TREASURY_7005: { status: 409, message: 'This transfer has already settled, failed or been canceled: it can no longer be canceled.' },
  TREASURY_7006: { status: 409, message: 'The fee or settlement date changed since you previewed this transfer. Check the new figures and confirm again.' },
  TREASURY_7007: { status: 422, message: 'This bank account is not verified yet: verify it before moving money to or from it.' },
  TREASURY_7008: { status: 409, message: 'There are no failed runs left to acknowledge.' },
  TREASURY_7009: { status: 422, message: 'This automation policy does not fit its accounts. Fix the fields named below.' },
  TREASURY_7010: { status: 409, message: 'This wallet account still holds money or has transfers on their way. Move the money out first.' },
  // Issue 30, banking links (BANKING_7001–7019).
  BANKING_7001: { status: 422, message: 'That routing number is not valid. Check the nine digits printed on a check or in the bank\'s app.' },
  BANKING_7002: { status: 422, message: 'Those amounts do not match the two small deposits we sent. Check the bank statement and try again.' },
  BANKING_7003: { status: 409, message: 'This bank account cannot be verified now: it is already verified, or too many wrong attempts locked it.' },
  BANKING_7004: { status: 409, message: 'This bank account has transfers on their way or is used by an automation policy. Finish or change those first.' },
  BANKING_7005: { status: 422, message: 'This statement could not be read. Upload a PDF or an image of the bank statement.' },
  // Issue 30, flex (float) financing of bills (FLEX_7001–7019).
  FLEX_7001: { status: 403, message: 'Only an admin, or an AP clerk when the business allows it, can pay bills with flex.' },
  FLEX_7002: { status: 422, message: 'This bill cannot be paid with flex: it must be approved, unpaid and within the flex line\'s limit.' },
  FLEX_7003: { status: 409, message: 'This flex offer has expired or was already used. Ask for a new offer.' },
  FLEX_7004: { status: 409, message: 'This installment is already paid: there is nothing to retry.' },
  FLEX_7005: { status: 422, message: 'This business has not set up flex yet. An admin can set it up in Treasury.' },
  // Issue 31, the surfaces: a token of one surface calling another's API (SURFACE_7001).
  SURFACE_7001: { status: 403, message: 'This isn\'t available from where you\'re signed in. Switch to the right account and try again.' },
  // Issue 31, the advisor console (FIRM_7001–7019).
  FIRM_7001: { status: 409, message: 'This firm already works with this business.' },
  FIRM_7002: { status: 409, message: 'This proposal was already decided or revoked, so it can\'t be changed.' },
  FIRM_7003: { status: 403, message: 'Your firm\'s access to this business doesn\'t include this. Ask the business to grant it.' },
  FIRM_7004: { status: 409, message: 'A firm needs at least one administrator.' },
  FIRM_7005: { status: 403, message: 'This business has ended your firm\'s access.' },
  // Issue 31, the vendor network (VENDOR_NETWORK_7001–7019).
  VENDOR_NETWORK_7001: { status: 409, message: 'This change was already accepted, rejected or withdrawn.' },
  // Issue 31, the financing application (APPLICATION_7001–7019).
  APPLICATION_7001: { status: 409, message: 'This application was submitted and can\'t be changed.' },
  APPLICATION_7002: { status: 422, message: 'Finish the steps named below before submitting.' },
  APPLICATION_7003: { status: 422, message: 'Ownership adds up to more than 100%.' },
  INTERNAL_7000: { status: 500, message: 'There was an error.' },
  // Issue 24: a PATCH sent with If-Match touched a field someone else changed since that version.
  CONFLICT: { status: 409, message: 'Someone else changed this while you were editing.' },
  // Issue 25: a bill whose vendor has no verified bank account, or no payment method for the bill's currency (no §8 code fits).
  BILL_PAY_7101: { status: 422, message: 'This vendor cannot be paid through Ledgerline yet: add and verify its bank details first.' },
  // Issue 28: the payee policy holds a new vendor, or a vendor's new bank account, until it is approved.
  BILL_PAY_7102: { status: 409, message: 'This vendor\'s payee details are waiting for approval: its bills can be paid once the approval completes.' },
  // Issue 30, payment rails: a check's images or a wire's MT103 asked of a payment sent on another rail.
  BILL_PAY_7103: { status: 422, message: 'This payment was not sent on that rail: check images exist for checks, an MT103 for wires.' },
  // Issue 30: a check can be voided only while it is mailed and not yet cleared.
  BILL_PAY_7104: { status: 409, message: 'This check cannot be voided: it already cleared or is no longer outstanding.' },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;
export const DEFAULT_ERROR_MESSAGE = 'There was an error.';

/**
 * One field of a refused PATCH (409 CONFLICT, issue 24): the PATCH body's top-level field name,
 * the server's value now and the value sent (both as the PATCH body spells them), and who changed
 * it and when (`changed_by` null: a server job, no person).
 */
const fieldConflictSchema = z.object({
  field: z.string(),
  server_value: z.unknown(),
  your_value: z.unknown(),
  changed_by: z.object({ user_id: z.string(), name: z.string() }).nullable(),
  changed_at: z.string(),
});
export type FieldConflict = z.infer<typeof fieldConflictSchema>;

export const errorV2Schema = z.object({
  error_v2: z.object({
    message: z.string(),
    error_code: z.string(),
    /** Field-level details for validation errors: path → message. */
    errors: z.record(z.string(), z.string()).optional(),
    /** CONFLICT only: every field the request changed that someone else changed since its If-Match. */
    conflicts: z.array(fieldConflictSchema).optional(),
    /** CONFLICT only: the row's change_seq now (the If-Match a resolved retry sends). */
    current_version: z.number().int().optional(),
  }),
});
export type ErrorV2 = z.infer<typeof errorV2Schema>;

export function isErrorCode(code: string): code is ErrorCode {
  return Object.hasOwn(ERROR_CATALOGUE, code);
}

/** The message a user sees for a code: the server's message when it sent one, else ours. */
export function messageForError(code: string | undefined, serverMessage?: string): string {
  if (serverMessage) return serverMessage;
  if (code && isErrorCode(code)) return ERROR_CATALOGUE[code].message;
  return DEFAULT_ERROR_MESSAGE;
}

export function errorBody(
  code: ErrorCode,
  message: string = ERROR_CATALOGUE[code].message,
  errors?: Record<string, string>,
): ErrorV2 {
  return { error_v2: { message, error_code: code, ...(errors ? { errors } : {}) } };
}

// §5 validation messages.
const requiredMessage = (path: string) => `${path} is required`;
export const invalidTypeMessage = (path: string, type: string) => `${path} must be a valid ${type}`;
const notAllowedMessage = (path: string) => `${path} is not allowed`;
const INVALID_URL_MESSAGE = 'Invalid URL';

/**
 * Turns zod issues into the §5 messages, keyed by dotted path. Pass the parsed input so a
 * missing value ('is required') can be told from a wrongly typed one ('must be a valid').
 * Unknown fields of a strict object get one entry each ('patch.colour is not allowed').
 */
export function validationMessages(error: z.ZodError, input?: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  collectMessages(error.issues, [], input, out);
  return out;
}

function collectMessages(issues: readonly z.core.$ZodIssue[], base: readonly PropertyKey[], input: unknown, out: Record<string, string>): void {
  for (const issue of issues) {
    const at = [...base, ...issue.path];
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        const path = joinPath([...at, key]);
        out[path] ??= notAllowedMessage(path);
      }
      continue;
    }
    const value = valueAt(input, at);
    if (issue.code === 'invalid_union' && value !== undefined && issue.errors.length > 0) {
      // No branch fits: speak for the branch that came closest (fewest issues, the first on a tie).
      const closest = issue.errors.reduce((best, branch) => (branch.length < best.length ? branch : best));
      collectMessages(closest, at, input, out);
      continue;
    }
    const path = joinPath(at) || 'body';
    out[path] ??= issueMessage(path, issue, value);
  }
}

const joinPath = (path: readonly PropertyKey[]) => path.map(String).join('.');

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let v = input;
  for (const key of path) {
    if (v === null || typeof v !== 'object' || !Object.hasOwn(v, key)) return undefined;
    v = (v as Record<PropertyKey, unknown>)[key];
  }
  return v;
}

/** zod's type names as a person reads them. */
const TYPE_NAMES: Record<string, string> = {
  int: 'integer', nan: 'number', bigint: 'integer', uuid: 'uuid', guid: 'uuid', email: 'email',
  date: 'date', datetime: 'date-time', time: 'time', map: 'object', record: 'object', set: 'array', tuple: 'array',
};
const typeName = (t: string) => TYPE_NAMES[t] ?? t;

/** Zod's own default messages start like this; a schema's own message never does. */
const ZOD_DEFAULT = /^(Invalid|Too (big|small)|Unrecognized|Expected)\b/;

function issueMessage(path: string, issue: z.core.$ZodIssue, value: unknown): string {
  if (!ZOD_DEFAULT.test(issue.message)) return ownMessage(path, issue.message);
  switch (issue.code) {
    case 'invalid_type':
      // Only an absent value is "missing"; null, 5 or "x" in the wrong place is wrongly typed.
      return value === undefined ? requiredMessage(path) : invalidTypeMessage(path, typeName(issue.expected));
    case 'invalid_format':
      if (issue.format === 'url') return INVALID_URL_MESSAGE;
      if (issue.format === 'regex' || issue.format.endsWith('_with') || issue.format === 'includes') return invalidTypeMessage(path, 'value');
      return invalidTypeMessage(path, typeName(issue.format));
    case 'invalid_value':
      return issue.values.length === 1
        ? `${path} must be ${String(issue.values[0])}`
        : `${path} must be one of ${issue.values.map(String).join(', ')}`;
    case 'invalid_union':
      return value === undefined ? requiredMessage(path) : invalidTypeMessage(path, 'value');
    case 'invalid_key':
    case 'invalid_element': {
      const inner = issue.issues[0];
      return inner ? issueMessage(path, inner, issue.code === 'invalid_key' ? issue.path.at(-1) : value) : invalidTypeMessage(path, 'value');
    }
    case 'too_small':
    case 'too_big':
      return sizeMessage(path, issue, value);
    case 'not_multiple_of':
      return `${path} must be a multiple of ${String(issue.divisor)}`;
    default:
      return `${path}: ${issue.message}`;
  }
}

function sizeMessage(path: string, issue: z.core.$ZodIssueTooSmall | z.core.$ZodIssueTooBig, value: unknown): string {
  const small = issue.code === 'too_small';
  const limit = String(small ? issue.minimum : issue.maximum);
  const bound = small ? (issue.inclusive === false ? 'more than' : 'at least') : issue.inclusive === false ? 'less than' : 'at most';
  switch (issue.origin) {
    case 'string':
      if (small && value === '' && Number(limit) <= 1) return requiredMessage(path);
      return `${path} must be ${bound} ${limit} ${limit === '1' ? 'character' : 'characters'} long`;
    case 'array':
    case 'set':
      return `${path} must have ${bound} ${limit} ${limit === '1' ? 'item' : 'items'}`;
    default:
      return `${path} must be ${bound} ${limit}`;
  }
}

/** A schema's own sentence: "must …" reads after the path; one already naming its field stands alone. */
function ownMessage(path: string, message: string): string {
  const field = path.split('.').at(-1) ?? path;
  if (message.startsWith(`${field} `)) return `${path}${message.slice(field.length)}`;
  if (message.startsWith('must ')) return `${path} ${message}`;
  return `${path}: ${message}`;
}
