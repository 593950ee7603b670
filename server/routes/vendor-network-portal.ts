import { randomUUID } from 'node:crypto';
import {
  acceptNetworkInvite, acceptNetworkInviteSignedIn, deleteNetworkDocument, deleteWireAccount, getNetworkDocumentFile, getNetworkProfile,
  listNetworkDocuments,
  listNetworkEditProposals, listNetworkPayers, listPortalPayments, lookupNetworkInvite, patchNetworkProfile, postAchDetails, postTin,
  postWireAccount, putNetworkAddress, uploadNetworkDocument, withdrawNetworkEditProposal,
} from '../../schema/api/calls-vendor-network-portal.ts';
import type { OtherSurfaceClaim } from '../../schema/api/scopes.ts';
import { hashPassword } from '../auth/password.ts';
import { clientAddress, takeRateLimit, type Limit } from '../auth/rate-limit.ts';
import { surfaceSignIn } from '../auth/session.ts';
import { ApiError } from '../core/errors.ts';
import type { Queryable } from '../db/db.ts';
import { deleteBank, setAchDetails, setLegalName, setNetworkAddress, setTin, setWire } from '../domain/vendor-network/details.ts';
import { deleteDocument, listDocuments, readDocumentFile, uploadDocument } from '../domain/vendor-network/documents.ts';
import { findLink, joinNetwork, lookupInvite } from '../domain/vendor-network/invites.ts';
import { listPayers, listPortalPayments as listPayments } from '../domain/vendor-network/portal-reads.ts';
import { listVendorProposals, withdrawProposal } from '../domain/vendor-network/proposals.ts';
import { networkProfile } from '../domain/vendor-network/shared.ts';
import { ok, surfaceActorOf, type DomainHandlers } from '../http/handler.ts';
import { documentAnswer } from './vendor-network-files.ts';

/**
 * Issue 31, the vendor portal (surface VENDOR_PORTAL: the gate refused every other token before
 * this runs) and its invitation links. The network vendor is the token's, never a parameter, so a
 * vendor reaches only its own rows. PUT and DELETE open their own transaction.
 */
const vendorOf = (ctx: Parameters<typeof surfaceActorOf>[0]) => surfaceActorOf(ctx, 'VENDOR_PORTAL').surface.network_vendor_id;
const portalClaim = (networkVendorId: string): OtherSurfaceClaim => ({ kind: 'VENDOR_PORTAL', network_vendor_id: networkVendorId });

/** The public invite page: 60 lookups per 15 minutes per client address (tokens are 32 random bytes). */
const lookupLimits = (address: string | null): Limit[] =>
  address ? [{ key: `network-invite-lookup:address:${address}`, max: 60, windowSeconds: 15 * 60 }] : [];

/** A signed-in identity's names for its hidden spend user: any of its spend users', else the mailbox's. */
async function namesOf(db: Queryable, identityId: string, email: string) {
  const [u] = await db.query<{ first_name: string; last_name: string }>(
    'SELECT first_name, last_name FROM spend_users WHERE identity_id = $1 AND NOT deleted ORDER BY updated_at LIMIT 1', [identityId],
  );
  return u ?? { first_name: email.slice(0, email.indexOf('@')), last_name: '' };
}

export const vendorNetworkPortalHandlers = {
  [lookupNetworkInvite.id]: async (ctx) => {
    await takeRateLimit(ctx.c, ctx.deps.db, lookupLimits(clientAddress(ctx.c)), ctx.deps.now());
    return ok(await lookupInvite(ctx.deps.db, ctx.input.params.token));
  },

  // Public: the mailed link proves the mailbox. An email that already has an identity signs in and
  // accepts signed in (the link holder owns the mailbox, so saying so is no oracle).
  [acceptNetworkInvite.id]: async (ctx) => {
    const { token } = ctx.input.params;
    const { password, first_name, last_name } = ctx.input.body;
    const link = await findLink(ctx.deps.db, token);
    if (link.status !== 'INVITED') throw new ApiError('REQUEST_7001', 'This invite has already been used.');
    // Hashed outside the transaction: scrypt is slow and PGlite has one connection.
    const hash = await hashPassword(password);
    const { identityId, networkVendorId } = await ctx.deps.db.transaction(async (tx) => {
      const known = await tx.query('SELECT 1 FROM identities WHERE lower(email) = $1', [link.invited_email]);
      if (known.length > 0) throw new ApiError('REQUEST_7001', 'This email already has a Ledgerline account: sign in, then accept the invite.');
      const id = randomUUID();
      await tx.query('INSERT INTO identities (id, email, password_hash, email_verified_at) VALUES ($1, $2, $3, now())', [id, link.invited_email, hash]);
      return { identityId: id, networkVendorId: await joinNetwork(tx, token, id, { first_name, last_name }) };
    }).catch((err: unknown) => {
      // Two accepts racing to create one email's identity: the unique index decides, the same answer as a used invite.
      if ((err as { code?: string }).code === '23505') throw new ApiError('REQUEST_7001', 'This invite has already been used.');
      throw err;
    });
    return ok(await surfaceSignIn(ctx.deps, ctx.deps.db, identityId, portalClaim(networkVendorId)), 201);
  },

  [acceptNetworkInviteSignedIn.id]: async (ctx) => {
    const caller = ctx.actor ?? ctx.surfaceActor;
    if (!caller) throw new ApiError('AUTH_7002');
    // Joining binds a person to a vendor: never on someone's behalf.
    if (caller.claims.impersonator) throw new ApiError('FORBIDDEN_7003');
    const link = await findLink(ctx.db, ctx.input.params.token);
    const [me] = await ctx.db.query<{ email: string }>('SELECT lower(email) AS email FROM identities WHERE id = $1', [caller.identityId]);
    if (!me || me.email !== link.invited_email) throw new ApiError('AUTH_7018');
    const networkVendorId = await joinNetwork(ctx.db, ctx.input.params.token, caller.identityId, await namesOf(ctx.db, caller.identityId, me.email));
    return ok(await surfaceSignIn(ctx.deps, ctx.db, caller.identityId, portalClaim(networkVendorId)));
  },

  [getNetworkProfile.id]: async (ctx) => ok(await networkProfile(ctx.db, vendorOf(ctx))),

  [patchNetworkProfile.id]: async (ctx) => ok(await setLegalName(ctx.db, vendorOf(ctx), ctx.input.body.legal_name)),

  [putNetworkAddress.id]: async (ctx) => {
    const id = vendorOf(ctx);
    return ok(await ctx.deps.db.transaction((tx) => setNetworkAddress(tx, id, ctx.input.body.address)));
  },

  [postAchDetails.id]: async (ctx) => ok(await setAchDetails(ctx.db, vendorOf(ctx), ctx.input.body)),
  [postTin.id]: async (ctx) => ok(await setTin(ctx.db, vendorOf(ctx), ctx.input.body.tin_type, ctx.input.body.tin)),
  [postWireAccount.id]: async (ctx) => ok(await setWire(ctx.db, vendorOf(ctx), ctx.input.body)),

  [deleteWireAccount.id]: async (ctx) => {
    const id = vendorOf(ctx);
    return ok(await ctx.deps.db.transaction((tx) => deleteBank(tx, id, ctx.input.query.kind)));
  },

  [uploadNetworkDocument.id]: async (ctx) => {
    const contentType = (ctx.c.req.header('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
    return ok(await uploadDocument(ctx.db, vendorOf(ctx), ctx.input.query.kind, contentType, ctx.input.body), 201);
  },
  [listNetworkDocuments.id]: async (ctx) => ok({ data: await listDocuments(ctx.db, vendorOf(ctx)) }),
  [getNetworkDocumentFile.id]: async (ctx) =>
    documentAnswer(ctx.c, await readDocumentFile(ctx.db, ctx.input.params.document_id, { networkVendorId: vendorOf(ctx) })),
  [deleteNetworkDocument.id]: async (ctx) => {
    await deleteDocument(ctx.db, vendorOf(ctx), ctx.input.params.document_id);
    return ok({ ok: true });
  },

  [listNetworkPayers.id]: async (ctx) => ok({ data: await listPayers(ctx.db, vendorOf(ctx)) }),
  [listPortalPayments.id]: async (ctx) => ok(await listPayments(ctx.db, vendorOf(ctx), ctx.input.query)),

  [listNetworkEditProposals.id]: async (ctx) => ok({ data: await listVendorProposals(ctx.db, vendorOf(ctx)) }),
  [withdrawNetworkEditProposal.id]: async (ctx) => {
    const id = vendorOf(ctx);
    return ok(await ctx.deps.db.transaction((tx) => withdrawProposal(tx, id, ctx.input.params.proposal_id)));
  },
} satisfies DomainHandlers;
