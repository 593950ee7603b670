import type { z } from 'zod';
import {
  applyMappingRules, connectAccountingProvider, createMappingRule, createSyncCommit, deleteMappingRule,
  disconnectAccountingProvider, downloadSyncFile, getAccountingCurrent, listMappingRules, listSyncCommits,
  manualMatch, markNotSynced, previewSyncCommit, replaceMappingRule, updateAccountingPreferences,
  type AccountingCurrent, type AccountingProvider, type accountingPreferencesPatchSchema, type reconciliationMatchSchema,
  type SyncCommit, type SyncObjectType,
} from '../../schema/api/calls-accounting.ts';
import type { MappingRule, mappingRuleInputSchema } from '../../schema/mapping-rules.ts';
import { MAX_PAGE_SIZE } from '../../schema/paging.ts';
import type { OnlineFailure } from '../contracts/views.ts';
import { allPages, answerOf, bindDomain, custom, offlineFailure, onlineDomain, via, type OnlineApi, type OnlinePort } from '../online.ts';

/**
 * An accounting call's refusal. `offline`: nothing was sent (none of accounting is mirrored, so
 * every call needs a connection).
 */
export type AccountingFailure = OnlineFailure;
export type SyncCommitView = SyncCommit;
export type AccountingPreferencesPatch = z.input<typeof accountingPreferencesPatchSchema>;
export type MappingRuleInput = z.input<typeof mappingRuleInputSchema>;
export type ManualMatchInput = z.input<typeof manualMatch.body>;
export type ReconciliationMatch = z.output<typeof reconciliationMatchSchema>;
export type AccountingCurrentResult = { ok: true; current: AccountingCurrent } | AccountingFailure;
export type MappingRuleResult = { ok: true; rule: MappingRule } | AccountingFailure;

/**
 * Refused before any request: the accounting connection, its sync commits, their files and the
 * mapping rules live on the server only (nothing of them is mirrored, nothing queued).
 */
export const ACCOUNTING_OFFLINE = offlineFailure(
  'You’re offline. Accounting (the connection, sync commits, their files and mapping rules) is kept on the server and needs a connection: nothing was sent.',
);

const provider = (p: AccountingProvider) => ({ params: { provider_type: p } });
const rule = (id: string) => ({ mapping_rule_uuid: id });
const current = (c: AccountingCurrent) => ({ current: c });
const asRule = (r: MappingRule) => ({ rule: r });

/**
 * Accounting close (issue 12 §7; schema/api/calls-accounting.ts): the file-based provider, its
 * preferences, sync commits and their files, mapping rules and manual matches. Server-only, so
 * every call, the lists too, is a direct call, online only. POSTs carry an Idempotency-Key from
 * the HTTP layer, so a sync commit retried by the layer is one commit. What a call changes on
 * mirrored rows (synced marks, coding applied by rules) comes back through the feed.
 */
export const ACCOUNTING_CALLS = onlineDomain(ACCOUNTING_OFFLINE, {
  accountingCurrent: via(getAccountingCurrent, () => ({}), current),
  /** Connects a provider, replacing the connected one (commits already made stay). */
  connectAccounting: via(connectAccountingProvider, (p: AccountingProvider) => ({ ...provider(p), body: {} }), current),
  /** Only the connected provider disconnects (ACCOUNTING_7304 otherwise). */
  disconnectAccounting: via(disconnectAccountingProvider, (p: AccountingProvider) => ({ ...provider(p), body: {} }), current),
  updateAccountingPreferences: via(updateAccountingPreferences, (patch: AccountingPreferencesPatch) => ({ body: patch }),
    (preferences) => ({ preferences })),
  /** Every coded, approved, not-yet-synced item in one commit; ACCOUNTING_7303 when there is none, 7302 when another runs. */
  syncCommit: via(createSyncCommit, (p: AccountingProvider) => ({ ...provider(p), body: {} }), (commit) => ({ commit })),
  /** Issue 25: what `syncCommit` would export and lock now (per source and currency), locking nothing. */
  syncPreview: via(previewSyncCommit, (p: AccountingProvider) => provider(p), (preview) => ({ preview })),
  /** Every commit of the business, newest first. */
  syncCommits: custom((send) => async (): Promise<{ ok: true; commits: SyncCommitView[] } | AccountingFailure> => {
    const r = await allPages((start) => send(listSyncCommits, { query: { page_size: MAX_PAGE_SIZE, ...(start ? { start } : {}) } }));
    return r.ok ? { ok: true, commits: r.rows } : r;
  }),
  /**
   * One file of a commit, its bytes as the server stored them (typed with its Content-Type),
   * fetched with the session's token and handed to the page as a Blob (the file's URL needs the auth header).
   */
  syncFile: custom((_send, port, offline) => async (commitId: string, fileName: string): Promise<{ ok: true; file: Blob } | AccountingFailure> => {
    if (!port.hub.online) return offline;
    const res = await port.requireHttp().blob(downloadSyncFile, { params: { sync_commit_uuid: commitId, file_name: fileName } });
    const r = answerOf(port, res, offline);
    return r.ok ? { ok: true, file: r.data } : r;
  }),
  /** Unlocks the items' coding; `updated` counts those that were synced. */
  markNotSynced: via(markNotSynced, (items: { type: SyncObjectType; id: string }[]) => ({ body: { items } }), (d) => ({ updated: d.updated })),
  /** In the order they are tried. */
  mappingRules: via(listMappingRules, () => ({}), (d) => ({ rules: d.data })),
  createMappingRule: via(createMappingRule, (body: MappingRuleInput) => ({ body }), asRule),
  replaceMappingRule: via(replaceMappingRule, (id: string, body: MappingRuleInput) => ({ params: rule(id), body }), asRule),
  deleteMappingRule: via(deleteMappingRule, (id: string) => ({ params: rule(id) })),
  /** Codes every uncoded, unsynced transaction a rule matches; `updated` counts them. */
  applyMappingRules: via(applyMappingRules, () => ({ body: {} }), (d) => ({ updated: d.updated })),
  /** A card transaction matched to the bill it paid or to a bank line id. */
  manualMatch: via(manualMatch, (body: ManualMatchInput) => ({ body }), (match) => ({ match })),
});

export type AccountingApi = OnlineApi<typeof ACCOUNTING_CALLS>;

export const accountingHandlers = (port: OnlinePort): AccountingApi => bindDomain(port, ACCOUNTING_CALLS);
