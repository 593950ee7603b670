import {
  createExpensePolicy, deleteExpensePolicy, getExpensePolicy, getPolicyCompliance, listExpensePolicies, listMissingItems,
  mintMissingItemsToken, sendMissingItemReminders, updateExpensePolicy,
} from '../../schema/api/calls-expense-policies.ts';
import { policyCompliance } from '../domain/expense-policies/compliance.ts';
import { listMissingItems as missingItemsOf } from '../domain/expense-policies/missing-items.ts';
import { createPolicy, deletePolicy, findPolicy, livePolicies, updatePolicy } from '../domain/expense-policies/policies.ts';
import { sendReminders } from '../domain/expense-policies/reminders.ts';
import { mintMissingItemsToken as mintToken, mintReminderLinkToken } from '../domain/expense-policies/wizard-token.ts';
import { actorOf, ok, type DomainHandlers } from '../http/handler.ts';
import { mailer } from '../http/mail-links.ts';
import { versionedGet, versionedPatch } from './versioned.ts';

/**
 * Expense policies, compliance, reminders and the missing-items wizard (issue 29,
 * EXPENSE_POLICY_CALLS): the rules are in domain/expense-policies/. POST and PATCH run in the
 * transaction register opens; DELETE (not idempotency-keyed) opens its own. `/compliance` and
 * `/reminders` are static segments: the router tries them before `/:expense_policy_id`.
 */
export const expensePolicyHandlers = {
  [listExpensePolicies.id]: async (ctx) => ok({ data: await livePolicies(ctx.db, actorOf(ctx).user.business_id) }),

  [getPolicyCompliance.id]: async (ctx) => ok(await policyCompliance(ctx.db, actorOf(ctx).user, ctx.input.query, new Date(ctx.deps.now()))),

  [sendMissingItemReminders.id]: async (ctx) => {
    const { user } = actorOf(ctx);
    const send = mailer(ctx);
    const linkFor = async (p: { user_id: string; identity_id: string }) => {
      const token = await mintReminderLinkToken(ctx.deps, ctx.db, { ...p, business_id: user.business_id });
      return `${send.link('/missing-items')}#token=${encodeURIComponent(token)}`;
    };
    return ok(await sendReminders(ctx.db, user, ctx.input.body.user_ids, new Date(ctx.deps.now()), send, linkFor));
  },

  [mintMissingItemsToken.id]: async (ctx) => ok(await mintToken(ctx.deps, actorOf(ctx))),

  [createExpensePolicy.id]: async (ctx) => ok(await createPolicy(ctx.db, actorOf(ctx).user, ctx.input.body, new Date(ctx.deps.now())), 201),

  // Versioned (issue 24's pattern, migration 057): GET answers `ETag: "<change_seq>"`; a PATCH sent with
  // If-Match merges field by field and answers 409 CONFLICT for a field another admin changed since.
  [getExpensePolicy.id]: versionedGet('expense_policies', 'expense_policy_id', async (ctx) =>
    ok(await findPolicy(ctx.db, actorOf(ctx).user.business_id, ctx.input.params.expense_policy_id))),

  [updateExpensePolicy.id]: versionedPatch('expense_policies', 'expense_policy_id', async (ctx) =>
    ok(await updatePolicy(ctx.db, actorOf(ctx).user, ctx.input.params.expense_policy_id, ctx.input.body, new Date(ctx.deps.now())))),

  [deleteExpensePolicy.id]: async (ctx) => {
    const { user } = actorOf(ctx);
    const now = new Date(ctx.deps.now());
    return ok(await ctx.deps.db.transaction((tx) => deletePolicy(tx, user, ctx.input.params.expense_policy_id, now)));
  },

  [listMissingItems.id]: async (ctx) => {
    const { user } = actorOf(ctx);
    return ok(await missingItemsOf(ctx.db, user.business_id, user.id, ctx.input.query));
  },
} satisfies DomainHandlers;
