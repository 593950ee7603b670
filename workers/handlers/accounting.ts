import {
  applyMappingRules, connectAccountingProvider, createMappingRule, createSyncCommit, deleteMappingRule,
  disconnectAccountingProvider, downloadSyncFile, getAccountingCurrent, listMappingRules, listSyncCommits,
  manualMatch, markNotSynced, previewSyncCommit, replaceMappingRule, updateAccountingPreferences,
} from '../../schema/api/calls-accounting.ts';
import type { CallDef, CallResponse } from '../../schema/api/define-call.ts';
import { MAX_PAGE_SIZE } from '../../schema/paging.ts';
import type { CallOptions, HttpResult } from '../../sync/index.ts';
import type { AccountingApi, AccountingFailure, SyncCommitView } from '../api.ts';
import { actionFailure } from '../identity.ts';
import type { WorkerContext } from '../worker-context.ts';
import { MAX_LIST_PAGES } from './bill-extras.ts';

/**
 * Refused before any request: the accounting connection, its sync commits, their files and the
 * mapping rules live on the server only (nothing of them is mirrored, nothing queued).
 */
export const ACCOUNTING_OFFLINE: AccountingFailure = {
  ok: false,
  offline: true,
  error: {
    error_code: 'OFFLINE',
    message: 'You’re offline. Accounting (the connection, sync commits, their files and mapping rules) is kept on the server and needs a connection: nothing was sent.',
  },
};

/**
 * Accounting close (issue 12; schema/api/calls-accounting.ts), straight through the session's
 * HTTP client like handlers/bill-extras.ts: online only, a failure is data, a 401 expires the
 * session like the sync engine's. POSTs carry an Idempotency-Key from the HTTP layer, so a sync
 * commit retried by the layer is one commit. A commit's file is fetched with the session's token
 * and handed to the page as a Blob (the page saves it; the file's URL needs the auth header).
 */
export function accountingHandlers(ctx: WorkerContext): AccountingApi {
  async function answer<T>(res: HttpResult<T>): Promise<{ ok: true; data: T } | AccountingFailure> {
    const r = ctx.watch401(res);
    if (r.ok) return { ok: true, data: r.data };
    // Never reached the server: nothing changed there, as offline.
    if ((r.kind === 'network' || r.kind === 'timeout') && !r.maybeSent) return ACCOUNTING_OFFLINE;
    return actionFailure(r);
  }
  async function send<C extends CallDef>(def: C, opts: CallOptions<C>): Promise<{ ok: true; data: CallResponse<C> } | AccountingFailure> {
    if (!ctx.hub.online) return ACCOUNTING_OFFLINE;
    return answer(await ctx.requireHttp().call(def, opts));
  }
  const rule = (id: string) => ({ mapping_rule_uuid: id });

  return {
    async accountingCurrent() {
      const r = await send(getAccountingCurrent, {});
      return r.ok ? { ok: true, current: r.data } : r;
    },
    async connectAccounting(provider) {
      const r = await send(connectAccountingProvider, { params: { provider_type: provider }, body: {} });
      return r.ok ? { ok: true, current: r.data } : r;
    },
    async disconnectAccounting(provider) {
      const r = await send(disconnectAccountingProvider, { params: { provider_type: provider }, body: {} });
      return r.ok ? { ok: true, current: r.data } : r;
    },
    async updateAccountingPreferences(patch) {
      const r = await send(updateAccountingPreferences, { body: patch });
      return r.ok ? { ok: true, preferences: r.data } : r;
    },
    async syncPreview(provider) {
      const r = await send(previewSyncCommit, { params: { provider_type: provider } });
      return r.ok ? { ok: true, preview: r.data } : r;
    },
    async syncCommit(provider) {
      const r = await send(createSyncCommit, { params: { provider_type: provider }, body: {} });
      return r.ok ? { ok: true, commit: r.data } : r;
    },
    async syncCommits() {
      const commits: SyncCommitView[] = [];
      let start: string | undefined;
      for (let i = 0; i < MAX_LIST_PAGES; i += 1) {
        const r = await send(listSyncCommits, { query: { page_size: MAX_PAGE_SIZE, ...(start ? { start } : {}) } });
        if (!r.ok) return r;
        commits.push(...r.data.data);
        if (!r.data.page.next) break;
        start = r.data.page.next;
      }
      return { ok: true, commits };
    },
    async syncFile(commitId, fileName) {
      if (!ctx.hub.online) return ACCOUNTING_OFFLINE;
      const r = await answer(await ctx.requireHttp().blob(downloadSyncFile, { params: { sync_commit_uuid: commitId, file_name: fileName } }));
      return r.ok ? { ok: true, file: r.data } : r;
    },
    async markNotSynced(items) {
      const r = await send(markNotSynced, { body: { items } });
      return r.ok ? { ok: true, updated: r.data.updated } : r;
    },
    async mappingRules() {
      const r = await send(listMappingRules, {});
      return r.ok ? { ok: true, rules: r.data.data } : r;
    },
    async createMappingRule(body) {
      const r = await send(createMappingRule, { body });
      return r.ok ? { ok: true, rule: r.data } : r;
    },
    async replaceMappingRule(id, body) {
      const r = await send(replaceMappingRule, { params: rule(id), body });
      return r.ok ? { ok: true, rule: r.data } : r;
    },
    async deleteMappingRule(id) {
      const r = await send(deleteMappingRule, { params: rule(id) });
      return r.ok ? { ok: true } : r;
    },
    async applyMappingRules() {
      const r = await send(applyMappingRules, { body: {} });
      return r.ok ? { ok: true, updated: r.data.updated } : r;
    },
    async manualMatch(body) {
      const r = await send(manualMatch, { body });
      return r.ok ? { ok: true, match: r.data } : r;
    },
  };
}
