import {
  applyMappingRules, connectAccountingProvider, createMappingRule, createSyncCommit, deleteMappingRule,
  disconnectAccountingProvider, downloadSyncFile, getAccountingCurrent, getSyncCommit, listMappingRules, listSyncCommits,
  manualMatch, markNotSynced, previewSyncCommit, replaceMappingRule, updateAccountingPreferences,
} from '../../schema/api/calls-accounting.ts';
import { ApiError } from '../core/errors.ts';
import { encodeForContentType } from '../core/windows-1252.ts';
import { applyRules, createRule, deleteRule, listRules, replaceRule } from '../domain/accounting/mapping-rules.ts';
import { manualMatch as match } from '../domain/accounting/reconciliation.ts';
import { assertConnected, assertMayManageAccounting, connectProvider, readSettings, disconnectProvider, readCurrent, updatePreferences } from '../domain/accounting/settings.ts';
import { findSyncCommit, listSyncCommits as listCommits, previewSyncCommit as preview, readSyncFile } from '../domain/accounting/sync-commit-reads.ts';
import { createSyncCommit as commit, markNotSynced as unsync } from '../domain/accounting/sync-commits.ts';
import { visibilityOf } from '../domain/visibility.ts';
import { fileHeaders } from '../http/file-headers.ts';
import { actorOf, ok, type DomainHandlers } from '../http/handler.ts';

/**
 * Accounting close (issue 12; catalogue schema/api/calls-accounting.ts). Every call is §6
 * "manage bill pay accounting" (admin, AP clerk, bookkeeper), refused 403 before any lookup.
 */

/** The acting user, once the §6 rule lets them through. */
function manager(ctx: { actor: Parameters<typeof actorOf>[0]['actor'] }) {
  const { user } = actorOf(ctx);
  assertMayManageAccounting(user);
  return user;
}

export const accountingHandlers = {
  [getAccountingCurrent.id]: async (ctx) => ok(await readCurrent(ctx.db, manager(ctx).business_id)),

  [connectAccountingProvider.id]: async (ctx) =>
    ok(await connectProvider(ctx.db, manager(ctx), ctx.input.params.provider_type, new Date(ctx.deps.now()))),

  [disconnectAccountingProvider.id]: async (ctx) =>
    ok(await disconnectProvider(ctx.db, manager(ctx), ctx.input.params.provider_type, new Date(ctx.deps.now()))),

  [updateAccountingPreferences.id]: async (ctx) =>
    ok(await updatePreferences(ctx.db, manager(ctx).business_id, ctx.input.body, new Date(ctx.deps.now()))),

  [createSyncCommit.id]: async (ctx) =>
    ok(await commit(ctx.db, manager(ctx), ctx.input.params.provider_type, new Date(ctx.deps.now())), 201),

  [previewSyncCommit.id]: async (ctx) => {
    const user = manager(ctx);
    const provider = ctx.input.params.provider_type;
    assertConnected(await readSettings(ctx.db, user.business_id), provider);
    return ok(await preview(ctx.db, user.business_id, provider, new Date(ctx.deps.now())));
  },

  [listSyncCommits.id]: async (ctx) => {
    const user = manager(ctx);
    const q = ctx.input.query;
    return ok(await listCommits(ctx.db, user.business_id, { pageSize: q.page_size, start: q.start, includeCount: q.include_count === true }));
  },

  [getSyncCommit.id]: async (ctx) => {
    const found = await findSyncCommit(ctx.db, manager(ctx).business_id, ctx.input.params.sync_commit_uuid);
    if (!found) throw new ApiError('REQUEST_7004', 'This sync commit was not found.');
    return ok(found);
  },

  [downloadSyncFile.id]: async (ctx) => {
    const { sync_commit_uuid: commitId, file_name: name } = ctx.input.params;
    const file = await readSyncFile(ctx.db, manager(ctx).business_id, commitId, name);
    if (!file) throw new ApiError('REQUEST_7004', 'This file was not found.');
    const bytes = encodeForContentType(file.content, file.content_type);
    // A download, never rendered (file-headers.ts).
    return ctx.c.body(bytes, 200, {
      ...fileHeaders(file.content_type, file.name),
      'content-length': String(bytes.length),
      'cache-control': 'private, no-store',
    });
  },

  [markNotSynced.id]: async (ctx) => {
    const user = manager(ctx);
    return ok(await unsync(ctx.db, user.business_id, await visibilityOf(ctx.db, user), ctx.input.body.items));
  },

  [listMappingRules.id]: async (ctx) => ok({ data: await listRules(ctx.db, manager(ctx).business_id) }),

  [createMappingRule.id]: async (ctx) => ok(await createRule(ctx.db, manager(ctx), ctx.input.body, new Date(ctx.deps.now())), 201),

  // PUT and DELETE are not idempotency-keyed, so register runs them outside a transaction: they open one.
  [replaceMappingRule.id]: async (ctx) => {
    const user = manager(ctx);
    const now = new Date(ctx.deps.now());
    return ok(await ctx.deps.db.transaction((tx) => replaceRule(tx, user.business_id, ctx.input.params.mapping_rule_uuid, ctx.input.body, now)));
  },

  [deleteMappingRule.id]: async (ctx) => {
    const user = manager(ctx);
    const now = new Date(ctx.deps.now());
    return ok(await ctx.deps.db.transaction((tx) => deleteRule(tx, user.business_id, ctx.input.params.mapping_rule_uuid, now)));
  },

  [applyMappingRules.id]: async (ctx) => {
    const user = manager(ctx);
    return ok(await applyRules(ctx.db, user.business_id, await visibilityOf(ctx.db, user)));
  },

  [manualMatch.id]: async (ctx) => {
    const user = manager(ctx);
    return ok(await match(ctx.db, user, await visibilityOf(ctx.db, user), ctx.input.body, new Date(ctx.deps.now())), 201);
  },
} satisfies DomainHandlers;
