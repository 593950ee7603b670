import type { MissingItem } from '../../../schema/api/calls-expense-policies.ts';

/**
 * Issue 29: the reminder mail's link, `/missing-items#token=<token>`. The token (scope
 * `missing-items-restricted`: list and add receipts only) rides in the fragment, which browsers
 * never send to a server. `captureWizardLink` runs first thing in main.tsx, before the router or
 * telemetry read the address: it keeps the token in this module's memory only (not storage: a
 * reload asks for the mail's link again) and replaces the address with `/missing-items/link` at
 * once, so the token is in no history entry, no `redirect=` and no page-view. The browser is not
 * signed in as the person: the link page calls the server with this token alone.
 */
export const WIZARD_LINK_PATH = '/missing-items/link';
const TOKEN = /^#token=([A-Za-z0-9._~%-]+)$/;

let held: string | null = null;

type Win = { location: { pathname: string; hash: string }; history: Pick<History, 'replaceState' | 'state'> };

/** Takes the token off the address (true when there was one). */
export function captureWizardLink(win: Win): boolean {
  const m = TOKEN.exec(win.location.hash);
  if (win.location.pathname.replace(/\/$/, '') !== '/missing-items' || !m) return false;
  try {
    held = decodeURIComponent(m[1]!);
  } catch {
    held = null;
  }
  win.history.replaceState(win.history.state, '', WIZARD_LINK_PATH);
  return true;
}

export const wizardLinkToken = (): string | null => held;

/** Forgets the token (Done, or the server refused it). */
export function dropWizardLinkToken(): void {
  held = null;
}

export type LinkItem = Pick<MissingItem, 'object_type' | 'object_id' | 'date' | 'amount' | 'currency' | 'merchant' | 'receipt_ids' | 'violations'>;

/** Why a call failed, in words; `expired`: the token is no longer good (401/403), so only signing in helps. */
export class LinkCallError extends Error {
  constructor(message: string, readonly expired: boolean) {
    super(message);
  }
}

type Fetch = typeof fetch;

async function call<T>(doFetch: Fetch, token: string, method: string, path: string, body?: BodyInit, type = 'application/json'): Promise<T> {
  const res = await doFetch(path, { method, headers: { 'RAMP-ID-TOKEN': token, ...(body !== undefined && { 'content-type': type }) }, body });
  const data = (await res.json().catch(() => null)) as { error_v2?: { message?: string } } | null;
  if (!res.ok) throw new LinkCallError(data?.error_v2?.message ?? `The server answered ${res.status}.`, res.status === 401 || res.status === 403);
  return data as T;
}

/** The items that miss a receipt (the restricted token can fix nothing else), newest first. */
export async function linkItems(doFetch: Fetch, token: string): Promise<{ items: LinkItem[]; other: number }> {
  const page = await call<{ data: LinkItem[]; total_count: number }>(doFetch, token, 'GET', '/v1/auth/users/current/missing-items?page_size=100');
  const items = page.data.filter((i) => i.violations.some((v) => v.code === 'missing_receipt'));
  return { items, other: page.total_count - items.length };
}

/** Uploads the photo and attaches it: to the transaction, or onto the claim's receipts. */
export async function addLinkReceipt(doFetch: Fetch, token: string, item: LinkItem, file: Blob): Promise<void> {
  const receipt = await call<{ id: string }>(doFetch, token, 'POST', '/v1/auth/receipts', file, file.type || 'image/jpeg');
  if (item.object_type === 'transaction') {
    await call(doFetch, token, 'POST', `/v1/auth/transactions/${item.object_id}/receipts`, JSON.stringify({ receipt_id: receipt.id }));
  } else {
    await call(doFetch, token, 'PATCH', `/v1/auth/reimbursements/${item.object_id}`, JSON.stringify({ receipt_ids: [...item.receipt_ids, receipt.id] }));
  }
}
