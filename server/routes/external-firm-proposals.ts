import {
  assignmentsDelete, authorizationsDelete, businessProposalsAccept, clientFirmsEnd, clientFirmsList, clientProposalsAccept,
  clientProposalsCreate, clientProposalsList, clientProposalsReject, clientsList, clientsOpen, proposalsBulk, proposalsCreate,
  proposalsCsvParse, proposalsList, proposalsRevoke, proposalsValidate,
} from '../../schema/api/calls-external-firm-proposals.ts';
import { parseClientsCsv, CSV_MAX_ROWS } from '../../schema/firm-proposals.ts';
import { issueToken, mfaRequiredFor, signInGrant } from '../auth/session.ts';
import { validationError } from '../core/errors.ts';
import type { Queryable } from '../db/db.ts';
import {
  acceptClientProposal, endClientFirm, listClientFirms, listClientProposals, proposeToFirm, rejectClientProposal,
} from '../domain/external-firms/client-side.ts';
import { assignedSpendUser, listClients, unassign, withdraw } from '../domain/external-firms/clients.ts';
import { firmCallerOf } from '../domain/external-firms/firm-caller.ts';
import { acceptBusinessProposal, bulkDecide, createProposal, decideOwn, listProposals } from '../domain/external-firms/proposals.ts';
import { mailLinks } from '../http/mail-links.ts';
import { actorOf, ok, surfaceActorOf, type DomainHandlers } from '../http/handler.ts';

/** Issue 31: proposals (both sides), the firms of a business, the firm's clients (calls-external-firm-proposals.ts). */
const caller = (ctx: Parameters<typeof surfaceActorOf>[0], db: Queryable) => firmCallerOf(db, surfaceActorOf(ctx, 'ADVISOR_CONSOLE'));

export const firmProposalHandlers = {
  [proposalsCreate.id]: async (ctx) => ok(await createProposal(ctx.db, await caller(ctx, ctx.db), ctx.input.body, ctx.deps.now()), 201),

  [proposalsCsvParse.id]: async (ctx) => {
    await caller(ctx, ctx.db);
    const rows = parseClientsCsv(ctx.input.body.csv);
    if (rows.length > CSV_MAX_ROWS) throw validationError({ csv: `csv must have at most ${CSV_MAX_ROWS} rows` });
    return ok({ rows });
  },

  [proposalsValidate.id]: async (ctx) => ctx.deps.db.transaction(async (tx) =>
    ok(await decideOwn(ctx.deps, tx, await caller(ctx, tx), ctx.input.params.proposal_id, 'validate', ctx.deps.now(), mailLinks(ctx)))),

  [proposalsRevoke.id]: async (ctx) => ctx.deps.db.transaction(async (tx) =>
    ok(await decideOwn(ctx.deps, tx, await caller(ctx, tx), ctx.input.params.proposal_id, 'revoke', ctx.deps.now(), mailLinks(ctx)))),

  [proposalsBulk.id]: async (ctx) => ctx.deps.db.transaction(async (tx) => ok({
    results: await bulkDecide(ctx.deps, tx, await caller(ctx, tx), ctx.input.body.action, ctx.input.body.ids, ctx.deps.now(), mailLinks(ctx)),
  })),

  [proposalsList.id]: async (ctx) => ok({ data: await listProposals(ctx.db, await caller(ctx, ctx.db), ctx.input.query.status) }),

  [businessProposalsAccept.id]: async (ctx) => ctx.deps.db.transaction(async (tx) =>
    ok(await acceptBusinessProposal(ctx.deps, tx, await caller(ctx, tx), ctx.input.params.proposal_id, ctx.deps.now()))),

  [clientProposalsList.id]: async (ctx) => ok({ data: await listClientProposals(ctx.db, actorOf(ctx)) }),

  [clientProposalsAccept.id]: async (ctx) => ctx.deps.db.transaction(async (tx) =>
    ok(await acceptClientProposal(ctx.deps, tx, actorOf(ctx), ctx.input.params.proposal_id, ctx.input.body?.rights, ctx.deps.now()))),

  [clientProposalsReject.id]: async (ctx) => ctx.deps.db.transaction(async (tx) =>
    ok(await rejectClientProposal(ctx.deps, tx, actorOf(ctx), ctx.input.params.proposal_id, ctx.deps.now()))),

  [clientProposalsCreate.id]: async (ctx) => ok(await proposeToFirm(ctx.deps, ctx.db, actorOf(ctx), ctx.input.body, ctx.deps.now()), 201),

  [clientFirmsList.id]: async (ctx) => ok({ data: await listClientFirms(ctx.db, actorOf(ctx)) }),

  [clientFirmsEnd.id]: async (ctx) => ctx.deps.db.transaction(async (tx) =>
    ok(await endClientFirm(ctx.deps, tx, actorOf(ctx), ctx.input.params.authorization_id, ctx.deps.now()))),

  [clientsList.id]: async (ctx) =>
    ok(await listClients(ctx.db, await caller(ctx, ctx.db), { pageSize: ctx.input.query.page_size, start: ctx.input.query.start })),

  /** D3: a BUSINESS token on the console's session for the caller's hidden spend user in the client. */
  [clientsOpen.id]: async (ctx) => {
    const actor = surfaceActorOf(ctx, 'ADVISOR_CONSOLE');
    const firm = await firmCallerOf(ctx.db, actor);
    const businessId = ctx.input.params.business_id;
    const userId = await assignedSpendUser(ctx.db, firm, businessId);
    const mfaRequired = await mfaRequiredFor(ctx.db, actor.identityId, businessId);
    const mfaAuthed = actor.claims.ramp_mfa_authed === true;
    const grant = mfaRequired && !mfaAuthed ? signInGrant(true) : { scopes: ['default' as const], mfaRequired, mfaAuthed };
    const { token } = await issueToken(
      ctx.deps, { identityId: actor.identityId, userId, businessId, sessionId: actor.sessionId, externalFirmId: firm.firmId },
      { ...grant, signInProvider: actor.claims.sign_in_provider },
    );
    return ok({ id_token: token, mfa_required: grant.scopes.length === 0 });
  },

  [authorizationsDelete.id]: async (ctx) => ctx.deps.db.transaction(async (tx) =>
    ok(await withdraw(tx, await caller(ctx, tx), ctx.input.params.authorization_id, ctx.deps.now()))),

  [assignmentsDelete.id]: async (ctx) => ctx.deps.db.transaction(async (tx) =>
    ok(await unassign(tx, await caller(ctx, tx), ctx.input.params.authorization_id, ctx.input.params.firm_user_id, ctx.deps.now()))),
} satisfies DomainHandlers;
