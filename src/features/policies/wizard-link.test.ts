import { afterEach, describe, expect, it, vi } from 'vitest';
import { addLinkReceipt, captureWizardLink, dropWizardLinkToken, LinkCallError, linkItems, wizardLinkToken, type LinkItem } from './wizard-link.ts';

const win = (pathname: string, hash: string) => {
  const replaceState = vi.fn();
  return { w: { location: { pathname, hash }, history: { state: { k: 1 }, replaceState } }, replaceState };
};

describe('the reminder link (issue 29)', () => {
  afterEach(() => dropWizardLinkToken());

  it('takes the token off /missing-items#token=… at once, into memory only', () => {
    const { w, replaceState } = win('/missing-items', '#token=aaa.bbb.c-c_d');
    expect(captureWizardLink(w)).toBe(true);
    expect(wizardLinkToken()).toBe('aaa.bbb.c-c_d');
    expect(replaceState).toHaveBeenCalledWith({ k: 1 }, '', '/missing-items/link');
  });

  it.each([
    ['another page', '/transactions', '#token=abc'],
    ['another fragment', '/missing-items', '#section'],
    ['markup in the fragment', '/missing-items', '#token=<script>'],
  ])('leaves %s alone', (_name, pathname, hash) => {
    const { w, replaceState } = win(pathname, hash);
    expect(captureWizardLink(w)).toBe(false);
    expect(wizardLinkToken()).toBeNull();
    expect(replaceState).not.toHaveBeenCalled();
  });

  const item = (over: Partial<LinkItem>): LinkItem => ({
    object_type: 'transaction', object_id: '00000000-0000-4000-8000-000000000001', date: '2026-11-20', amount: 100, currency: 'USD', merchant: 'M',
    receipt_ids: [], violations: [{ code: 'missing_receipt', policy_id: '00000000-0000-4000-8000-0000000000aa', policy_name: 'P', message: 'x' }], ...over,
  });
  const answer = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

  it('lists only what misses a receipt and counts the rest (memo, coding: sign in)', async () => {
    const memoOnly = item({ object_id: '00000000-0000-4000-8000-000000000002', violations: [{ code: 'missing_memo', policy_id: '00000000-0000-4000-8000-0000000000aa', policy_name: 'P', message: 'y' }] });
    const doFetch = vi.fn(async () => answer(200, { data: [item({}), memoOnly], page: { next: null }, total_count: 2 }));
    const got = await linkItems(doFetch as typeof fetch, 'tok');
    expect(got.items.map((i) => i.object_id)).toEqual([item({}).object_id]);
    expect(got.other).toBe(1);
    expect(doFetch).toHaveBeenCalledWith('/v1/auth/users/current/missing-items?page_size=100', expect.objectContaining({ headers: { 'RAMP-ID-TOKEN': 'tok' } }));
  });

  it('uploads then attaches to a transaction, or adds to a claim\'s receipts; a refused token reads as expired', async () => {
    const calls: [string, string, unknown][] = [];
    const doFetch = vi.fn(async (path: string, init: RequestInit) => {
      calls.push([init.method!, path, typeof init.body === 'string' ? JSON.parse(init.body) : 'file']);
      return path === '/v1/auth/receipts' ? answer(201, { id: 'r-new' }) : answer(200, {});
    });
    const file = new Blob(['x'], { type: 'image/jpeg' });
    await addLinkReceipt(doFetch as unknown as typeof fetch, 'tok', item({}), file);
    await addLinkReceipt(doFetch as unknown as typeof fetch, 'tok', item({ object_type: 'reimbursement', object_id: 'c1', receipt_ids: ['r-old'] }), file);
    expect(calls).toEqual([
      ['POST', '/v1/auth/receipts', 'file'], ['POST', `/v1/auth/transactions/${item({}).object_id}/receipts`, { receipt_id: 'r-new' }],
      ['POST', '/v1/auth/receipts', 'file'], ['PATCH', '/v1/auth/reimbursements/c1', { receipt_ids: ['r-old', 'r-new'] }],
    ]);
    const refused = vi.fn(async () => answer(401, { error_v2: { error_code: 'AUTH_7003', message: 'Signed out.' } }));
    await expect(linkItems(refused as typeof fetch, 'tok')).rejects.toEqual(new LinkCallError('Signed out.', true));
  });
});
