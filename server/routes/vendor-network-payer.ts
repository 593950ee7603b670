import {
  acceptEditProposal, createNetworkVendor, deleteEditProposal, deleteVendorDocument, getVendorDocumentFile, inviteNetworkVendor,
  listPayerEditProposals, listVendorDocuments, networkFailureReminder, rejectEditProposal,
} from '../../schema/api/calls-vendor-network-payer.ts';
import { foldEmail } from '../auth/email-address.ts';
import { enqueueMail } from '../mail/outbox.ts';
import { inviteQuotas, takeQuota } from '../auth/quotas.ts';
import { hideDocumentForPayer, listPayerDocuments, readDocumentFile } from '../domain/vendor-network/documents.ts';
import { assertNetworkEmail, inviteMail, inviteVendor } from '../domain/vendor-network/invites.ts';
import { acceptProposal, listPayerProposals, rejectProposal } from '../domain/vendor-network/proposals.ts';
import { remindFailure } from '../domain/vendor-network/reminders.ts';
import { assertMayManageVendors, createVendor, findVendor } from '../domain/vendors.ts';
import { actorOf, ok, type DomainHandlers } from '../http/handler.ts';
import { mailLinks } from '../http/mail-links.ts';
import { documentAnswer } from './vendor-network-files.ts';

/**
 * Issue 31, the paying business's side of the vendor network: §6 bill-pay managers (admin, AP
 * clerk, bookkeeper), refused 403 before any lookup. PUT and DELETE open their own transaction.
 */
function managerOf(ctx: Parameters<typeof actorOf>[0]) {
  const actor = actorOf(ctx);
  assertMayManageVendors(actor.user);
  return actor;
}

export const vendorNetworkPayerHandlers = {
  [createNetworkVendor.id]: async (ctx) => {
    const { user } = managerOf(ctx);
    const { network_invite_email: email, ...body } = ctx.input.body;
    const now = new Date(ctx.deps.now());
    // BILL_PAY_7017 before anything is written.
    if (email !== null) await assertNetworkEmail(ctx.db, user.business_id, email);
    // A network invite mails an outside address: it counts against the inviter's and business's invite quotas.
    if (email !== null) await takeQuota(ctx.c, ctx.db, inviteQuotas(ctx.deps.quotas, user), ctx.deps.now());
    const created = await createVendor(ctx.db, user, body, now);
    if (email === null) return ok({ vendor: created, network_invite: null }, 201);
    const issued = await inviteVendor(ctx.db, user, created.id, email, now);
    await enqueueMail(ctx.deps, ctx.db, { to: foldEmail(issued.invite.invited_email), template: 'vendor_network_invite', values: inviteMail(issued, mailLinks(ctx)) });
    return ok({ vendor: await findVendor(ctx.db, user.business_id, created.id), network_invite: issued.invite }, 201);
  },

  [inviteNetworkVendor.id]: async (ctx) => {
    const { user } = managerOf(ctx);
    await takeQuota(ctx.c, ctx.db, inviteQuotas(ctx.deps.quotas, user), ctx.deps.now());
    const issued = await inviteVendor(ctx.db, user, ctx.input.params.payee_uuid, ctx.input.body.email, new Date(ctx.deps.now()));
    await enqueueMail(ctx.deps, ctx.db, { to: foldEmail(issued.invite.invited_email), template: 'vendor_network_invite', values: inviteMail(issued, mailLinks(ctx)) });
    return ok(issued.invite, 201);
  },

  [networkFailureReminder.id]: async (ctx) => {
    const { user } = managerOf(ctx);
    const r = await ctx.deps.db.transaction((tx) => remindFailure(tx, user, ctx.input.params.payee_uuid, ctx.input.body.bill_payment_id));
    if (r.mail) {
      await enqueueMail(ctx.deps, ctx.deps.db, {
        to: foldEmail(r.mail.to), template: 'vendor_payment_failed', values: { payer: r.mail.payer, vendor: r.mail.vendor, link: mailLinks(ctx)('/vendor-portal') },
      });
    }
    return ok({ bill_payment_id: r.bill_payment_id, reminded_at: r.reminded_at });
  },

  [listPayerEditProposals.id]: async (ctx) => {
    const { user } = managerOf(ctx);
    return ok({ data: await listPayerProposals(ctx.db, user.business_id, ctx.input.query.status) });
  },

  [acceptEditProposal.id]: async (ctx) => {
    const { user } = managerOf(ctx);
    return ok(await ctx.deps.db.transaction((tx) => acceptProposal(tx, user, ctx.input.params.proposal_id)));
  },

  [rejectEditProposal.id]: async (ctx) => {
    const { user } = managerOf(ctx);
    return ok(await ctx.deps.db.transaction((tx) => rejectProposal(tx, user, ctx.input.params.proposal_id, false)));
  },

  [deleteEditProposal.id]: async (ctx) => {
    const { user } = managerOf(ctx);
    return ok(await ctx.deps.db.transaction((tx) => rejectProposal(tx, user, ctx.input.params.proposal_id, true)));
  },

  [deleteVendorDocument.id]: async (ctx) => {
    const { user } = managerOf(ctx);
    const { payee_uuid, document_id } = ctx.input.params;
    await ctx.deps.db.transaction((tx) => hideDocumentForPayer(tx, user.business_id, payee_uuid, document_id));
    return ok({ ok: true });
  },

  [listVendorDocuments.id]: async (ctx) => {
    const { user } = managerOf(ctx);
    return ok({ data: await listPayerDocuments(ctx.db, user.business_id, ctx.input.params.payee_uuid) });
  },

  [getVendorDocumentFile.id]: async (ctx) => {
    const { user } = managerOf(ctx);
    const { payee_uuid, document_id } = ctx.input.params;
    return documentAnswer(ctx.c, await readDocumentFile(ctx.db, document_id, { businessId: user.business_id, vendorId: payee_uuid }));
  },
} satisfies DomainHandlers;
