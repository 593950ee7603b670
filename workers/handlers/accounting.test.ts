import { describe, expect, it } from 'vitest';
import { errorBody } from '../../schema/errors.ts';
import { jsonResponse } from '../../sync/testing.ts';
import { signedInAdmin } from '../test-fixtures.ts';
import { signedInWorker } from '../testing/signed-in-worker.ts';
import { ACCOUNTING_OFFLINE } from './accounting.ts';

const { user: USER } = signedInAdmin();
const COMMIT_ID = '50000000-0000-4000-8000-0000000000c1';
const RULE_ID = '50000000-0000-4000-8000-0000000000a1';
const TXN_ID = '50000000-0000-4000-8000-0000000000f1';
const GL_ID = '50000000-0000-4000-8000-0000000000b1';
const BASE = '/v1/auth/accounting';

type Answer = (method: string, path: string, search: URLSearchParams, body: unknown) => Response;

/** A signed-in worker whose server answers accounting calls with `answer`; `sent` records method, path, query and body, `keys` the idempotency keys. */
async function worker(answer: Answer) {
  const keys: (string | null)[] = [];
  const { service, sent } = await signedInWorker({
    calls: BASE,
    route: (r) => (keys.push(r.headers.get('Idempotency-Key')), answer(r.method, r.path, r.search, r.body)),
  });
  return { service, sent, keys };
}

const iifFile = { name: 'ledgerline-qbd.iif', url: `${BASE}/sync_commits/${COMMIT_ID}/files/ledgerline-qbd.iif`, content_type: 'text/plain; charset=utf-8', size: 12, currency: 'USD', statement_account: null };
const commit = (n: number) => ({
  id: `50000000-0000-4000-8000-0000000000c${n}`, provider_type: 'quickbooks_desktop', created_by: USER.id,
  created_at: '2026-11-20T10:00:00.000Z', item_count: 3, files: [iifFile],
});
const preferences = { default_provider: null, iif_card_account: 'Ledgerline Card', iif_ap_account: 'Accounts Payable', iif_reimbursement_account: 'Employee Reimbursements', xero_max_lines_per_file: 1000, xero_date_format: 'DD/MM/YYYY' };
const current = (provider: 'csv' | 'quickbooks_desktop' | null) => ({
  provider: provider && { provider_type: provider, connected_at: '2026-11-20T09:00:00.000Z', connected_by: USER.id },
  preferences,
  last_commit: null,
});
const rule = {
  id: RULE_ID, priority: 0, match_field: 'merchant_name', match_operator: 'contains', match_value: 'uber', gl_account_id: GL_ID,
  department_id: null, tracking: {}, created_by: USER.id, created_at: '2026-11-20T10:00:00.000Z', updated_at: '2026-11-20T10:00:00.000Z',
};

describe('accounting calls', () => {
  it('connects, commits with an Idempotency-Key and reads every commit, page after page', async () => {
    const { service, sent, keys } = await worker((method, path, search) => {
      if (path.endsWith('/connect')) return jsonResponse(200, current('quickbooks_desktop'));
      if (path.endsWith('/sync_commit')) return jsonResponse(201, commit(1));
      if (search.get('start') === 'p2') return jsonResponse(200, { data: [commit(2)], page: { next: null } });
      return jsonResponse(200, { data: [commit(1)], page: { next: 'p2' } });
    });
    expect(await service.connectAccounting('quickbooks_desktop')).toMatchObject({ ok: true, current: { provider: { provider_type: 'quickbooks_desktop' } } });
    expect(await service.syncCommit('quickbooks_desktop')).toMatchObject({ ok: true, commit: { item_count: 3, files: [{ name: 'ledgerline-qbd.iif' }] } });
    const listed = await service.syncCommits();
    expect(listed.ok && listed.commits.map((c) => c.id)).toEqual([commit(1).id, commit(2).id]);
    expect(sent).toEqual([
      `POST ${BASE}/providers/quickbooks_desktop/connect {}`,
      `POST ${BASE}/providers/quickbooks_desktop/sync_commit {}`,
      `GET ${BASE}/sync_commits?page_size=1000`,
      `GET ${BASE}/sync_commits?page_size=1000&start=p2`,
    ]);
    // The commit is keyed (a retry by the HTTP layer is the same commit); reads are not.
    expect(keys[1]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys[2]).toBeNull();
  });

  it('hands a commit’s file over as the bytes the server sent, typed', async () => {
    const text = '!TRNS\tTRNSID\r\n';
    const { service, sent } = await worker(() => new Response(text, { status: 200, headers: { 'Content-Type': 'text/plain; charset=utf-8' } }));
    const r = await service.syncFile(COMMIT_ID, 'ledgerline-qbd.iif');
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(await r.file.text()).toBe(text);
    expect(r.file.type).toContain('text/plain');
    expect(sent).toEqual([`GET ${BASE}/sync_commits/${COMMIT_ID}/files/ledgerline-qbd.iif`]);
  });

  it('sends rules, apply, mark-not-synced, preferences and manual match to their §7 paths', async () => {
    const { service, sent } = await worker((method, path) => {
      if (path.endsWith('/mapping_rules/apply')) return jsonResponse(200, { updated: 4, change_seq: 9 });
      if (path.endsWith('/mapping_rules') && method === 'GET') return jsonResponse(200, { data: [rule] });
      if (path.includes('/mapping_rules')) return jsonResponse(method === 'DELETE' ? 200 : 201, method === 'DELETE' ? { id: RULE_ID, deleted: true } : rule);
      if (path.endsWith('/mark-not-synced')) return jsonResponse(200, { updated: 1, change_seq: 10 });
      if (path.endsWith('/preferences')) return jsonResponse(200, { ...preferences, iif_card_account: 'Amex Card' });
      return jsonResponse(201, { id: COMMIT_ID, transaction_id: TXN_ID, bill_id: null, bank_line_id: 'BANK-1', created_by: USER.id, created_at: '2026-11-20T10:00:00.000Z' });
    });
    const input = { match_field: 'merchant_name' as const, match_operator: 'contains' as const, match_value: 'uber', gl_account_id: GL_ID };
    expect(await service.mappingRules()).toMatchObject({ ok: true, rules: [{ id: RULE_ID }] });
    expect(await service.createMappingRule(input)).toMatchObject({ ok: true, rule: { id: RULE_ID } });
    expect(await service.replaceMappingRule(RULE_ID, { ...input, priority: 2 })).toMatchObject({ ok: true });
    expect(await service.deleteMappingRule(RULE_ID)).toEqual({ ok: true });
    expect(await service.applyMappingRules()).toEqual({ ok: true, updated: 4 });
    expect(await service.markNotSynced([{ type: 'transaction', id: TXN_ID }])).toEqual({ ok: true, updated: 1 });
    expect(await service.updateAccountingPreferences({ iif_card_account: 'Amex Card' })).toMatchObject({ ok: true, preferences: { iif_card_account: 'Amex Card' } });
    expect(await service.manualMatch({ transaction_id: TXN_ID, bank_line_id: 'BANK-1' })).toMatchObject({ ok: true, match: { bank_line_id: 'BANK-1' } });
    const body = JSON.stringify(input);
    expect(sent).toEqual([
      `GET ${BASE}/mapping_rules`,
      `POST ${BASE}/mapping_rules ${body}`,
      `PUT ${BASE}/mapping_rules/${RULE_ID} ${JSON.stringify({ ...input, priority: 2 })}`,
      `DELETE ${BASE}/mapping_rules/${RULE_ID}`,
      `POST ${BASE}/mapping_rules/apply {}`,
      `POST ${BASE}/mark-not-synced {"items":[{"type":"transaction","id":"${TXN_ID}"}]}`,
      `PATCH ${BASE}/preferences {"iif_card_account":"Amex Card"}`,
      `POST ${BASE}/reconciliation/manual-match {"transaction_id":"${TXN_ID}","bank_line_id":"BANK-1"}`,
    ]);
  });

  it('answers nothing-to-sync, a running sync and a file refusal with the server’s code and words', async () => {
    let code: 'ACCOUNTING_7303' | 'ACCOUNTING_7302' = 'ACCOUNTING_7303';
    const { service } = await worker((_m, path) =>
      path.includes('/files/') ? jsonResponse(404, errorBody('REQUEST_7004', 'This file was not found.')) : jsonResponse(code === 'ACCOUNTING_7303' ? 422 : 409, errorBody(code)));
    expect(await service.syncCommit('csv')).toMatchObject({ ok: false, error: { error_code: 'ACCOUNTING_7303', message: errorBody('ACCOUNTING_7303').error_v2.message } });
    code = 'ACCOUNTING_7302';
    expect(await service.syncCommit('csv')).toMatchObject({ ok: false, error: { error_code: 'ACCOUNTING_7302' } });
    expect(await service.syncFile(COMMIT_ID, 'missing.csv')).toMatchObject({ ok: false, error: { error_code: 'REQUEST_7004', message: 'This file was not found.' } });
  });

  it('refuses offline before sending, the reads and the files too: nothing of accounting is on the device', async () => {
    const { service, sent } = await worker(() => jsonResponse(200, current(null)));
    await service.setOnline(false);
    expect(await service.accountingCurrent()).toEqual(ACCOUNTING_OFFLINE);
    expect(await service.syncCommit('csv')).toEqual(ACCOUNTING_OFFLINE);
    expect(await service.syncFile(COMMIT_ID, 'ledgerline.csv')).toEqual(ACCOUNTING_OFFLINE);
    expect(await service.markNotSynced([{ type: 'transaction', id: TXN_ID }])).toEqual(ACCOUNTING_OFFLINE);
    expect(sent).toEqual([]);
  });
});
