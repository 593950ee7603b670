import { randomBytes, randomUUID } from 'node:crypto';
import {
  applicationAccountsDelete, applicationBankAccounts, applicationDocumentRequests, applicationInviteApplicant, applicationInviteDelete,
  applicationKybDocuments, applicationKybPageDelete, applicationKybPageUpload, applicationKycDocuments, applicationKycPageDelete,
  applicationKycPageUpload, applicationSurvey, MAX_PAGES_PER_DOCUMENT,
} from '../../schema/api/calls-application-steps.ts';
import { checkFileContent } from '../../schema/file-content.ts';
import { isValidRoutingNumber } from '../../schema/vendor-rules.ts';
import { foldEmail } from '../auth/email-address.ts';
import { sendMail } from '../auth/email-otp.ts';
import { encryptBankValue, loadVendorBankKey } from '../auth/vendor-bank-crypto.ts';
import { hashToken } from '../domain/admin-users.ts';
import { ApiError, validationError } from '../core/errors.ts';
import type { Queryable } from '../db/db.ts';
import { applicationContext, type ApplicationRow } from '../domain/applications/draft.ts';
import { fulfilDocumentRequests, kycDocumentType, listDocumentRequests, requestsAsk } from '../domain/applications/document-requests.ts';
import { mailLinks } from '../http/mail-links.ts';
import { ok, type DomainHandlers, type HandlerCtx } from '../http/handler.ts';
import type { CallDef } from '../../schema/api/define-call.ts';
import { readApplication, writeDraft } from './application-access.ts';

/** Issue 31: the application's documents, bank accounts, invites, survey and operations requests. */
const INVITE_TTL_MS = 7 * 24 * 3600 * 1000;
const notFound = (what: string) => new ApiError('REQUEST_7004', `There is no such ${what} on this application.`);

async function upsertDocuments(
  tx: Queryable, appId: string, kind: 'KYB' | 'KYC', docs: readonly { id?: string | undefined; doc_type: string; kyc_individual_id?: string }[],
) {
  for (const d of docs) {
    if (d.kyc_individual_id) {
      const person = await tx.query('SELECT 1 FROM kyc_individuals WHERE id = $1 AND financing_application_id = $2', [d.kyc_individual_id, appId]);
      if (person.length === 0) throw notFound('person');
    }
    if (d.id) {
      const rows = await tx.query(
        `UPDATE application_documents SET doc_type = $4, kyc_individual_id = coalesce($5, kyc_individual_id)
          WHERE id = $1 AND financing_application_id = $2 AND kind = $3 RETURNING id`, [d.id, appId, kind, d.doc_type, d.kyc_individual_id ?? null]);
      if (rows.length === 0) throw notFound('document');
    } else {
      await tx.query('INSERT INTO application_documents (id, financing_application_id, kind, doc_type, kyc_individual_id) VALUES ($1, $2, $3, $4, $5)',
        [randomUUID(), appId, kind, d.doc_type, d.kyc_individual_id ?? null]);
    }
  }
}

type PageCtx = HandlerCtx<CallDef> & { input: { params: { document_id: string }; body: Uint8Array } };

/** In review, a page of a KYC document of a type operations asked for (document-requests.ts). */
const askedKycPage = (documentId: string) => async (tx: Queryable, app: ApplicationRow) => {
  const type = await kycDocumentType(tx, app.id, documentId);
  return type !== null && requestsAsk(tx, app, [type]);
};

function uploadPage(kind: 'KYB' | 'KYC') {
  return async (ctx: PageCtx) => {
    const declared = (ctx.c.req.header('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
    const content = checkFileContent(declared, ctx.input.body);
    if (!content.ok) throw new ApiError(content.code, content.message);
    const asked = kind === 'KYC' ? askedKycPage(ctx.input.params.document_id) : undefined;
    return writeDraft(ctx, async (tx, app) => {
      const [doc] = await tx.query<{ next: number }>(
        `SELECT coalesce((SELECT max(page) FROM application_document_pages WHERE document_id = d.id), 0) + 1 AS next
           FROM application_documents d WHERE d.id = $1 AND d.financing_application_id = $2 AND d.kind = $3 FOR UPDATE`,
        [ctx.input.params.document_id, app.id, kind]);
      if (!doc) throw notFound('document');
      if (doc.next > MAX_PAGES_PER_DOCUMENT) throw new ApiError('REQUEST_7001', `A document has at most ${MAX_PAGES_PER_DOCUMENT} pages.`);
      await tx.query('INSERT INTO application_document_pages (document_id, page, content_type, size, bytes) VALUES ($1, $2, $3, $4, $5)',
        [ctx.input.params.document_id, doc.next, content.contentType, ctx.input.body.length, ctx.input.body]);
      if (kind === 'KYC' && app.status === 'MANUAL_REVIEW') await fulfilDocumentRequests(tx, app.id);
    }, asked);
  };
}

function deletePage(kind: 'KYB' | 'KYC') {
  return async (ctx: HandlerCtx<CallDef> & { input: { params: { document_id: string; page: number } } }) => writeDraft(ctx, async (tx, app) => {
    const gone = await tx.query(
      `DELETE FROM application_document_pages p USING application_documents d
        WHERE p.document_id = d.id AND d.id = $1 AND d.financing_application_id = $2 AND d.kind = $3 AND p.page = $4 RETURNING p.page`,
      [ctx.input.params.document_id, app.id, kind, ctx.input.params.page]);
    if (gone.length === 0) throw notFound('page');
  });
}

export const applicationDocumentHandlers = {
  [applicationKybDocuments.id]: async (ctx) => writeDraft(ctx, (tx, app) => upsertDocuments(tx, app.id, 'KYB', ctx.input.body.documents)),
  // In review, only new documents of the types operations asked for.
  [applicationKycDocuments.id]: async (ctx) => writeDraft(ctx, (tx, app) => upsertDocuments(tx, app.id, 'KYC', ctx.input.body.documents),
    (tx, app) => (ctx.input.body.documents.every((d) => !d.id) ? requestsAsk(tx, app, ctx.input.body.documents.map((d) => d.doc_type)) : Promise.resolve(false))),
  [applicationKybPageUpload.id]: uploadPage('KYB'),
  [applicationKycPageUpload.id]: uploadPage('KYC'),
  [applicationKybPageDelete.id]: deletePage('KYB'),
  [applicationKycPageDelete.id]: deletePage('KYC'),

  [applicationBankAccounts.id]: async (ctx) => {
    const accounts = ctx.input.body.accounts;
    const bad = accounts.findIndex((a) => !isValidRoutingNumber(a.routing_number));
    if (bad >= 0) throw validationError({ [`accounts.${bad}.routing_number`]: `accounts.${bad}.routing_number is not a valid ABA routing number` });
    return writeDraft(ctx, async (tx, app) => {
      const key = await loadVendorBankKey(tx);
      for (const a of accounts) {
        const id = a.id ?? randomUUID();
        const values = [id, app.id, a.holder_name, a.type, encryptBankValue(key, a.routing_number, applicationContext(id, 'routing_number')),
          encryptBankValue(key, a.account_number, applicationContext(id, 'account_number')), a.routing_number.slice(-4), a.account_number.slice(-4)];
        const sql = a.id
          ? `UPDATE application_bank_accounts SET holder_name = $3, type = $4, routing_cipher = $5, account_cipher = $6, routing_last_four = $7,
                    account_last_four = $8 WHERE id = $1 AND financing_application_id = $2 RETURNING id`
          : `INSERT INTO application_bank_accounts (id, financing_application_id, holder_name, type, routing_cipher, account_cipher,
                    routing_last_four, account_last_four) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id`;
        if ((await tx.query(sql, values)).length === 0) throw notFound('bank account');
      }
      const [count] = await tx.query<{ n: number }>('SELECT count(*)::int AS n FROM application_bank_accounts WHERE financing_application_id = $1', [app.id]);
      if ((count?.n ?? 0) > 3) throw new ApiError('REQUEST_7001', 'An application has at most 3 bank accounts.', { accounts: 'accounts: at most 3 bank accounts' });
    });
  },

  [applicationAccountsDelete.id]: async (ctx) => writeDraft(ctx, async (tx, app) => {
    const gone = await tx.query('DELETE FROM application_bank_accounts WHERE id = $1 AND financing_application_id = $2 RETURNING id', [
      ctx.input.params.account_id, app.id]);
    if (gone.length === 0) throw notFound('bank account');
  }),

  // An owner fills their own KYC: the link signs them in to this application (application.verify with its id).
  [applicationInviteApplicant.id]: async (ctx) => {
    const email = foldEmail(ctx.input.body.email);
    const token = randomBytes(32).toString('base64url');
    const reply = await writeDraft(ctx, async (tx, app) => {
      const kycId = ctx.input.body.kyc_individual_uuid ?? null;
      if (kycId && (await tx.query('SELECT 1 FROM kyc_individuals WHERE id = $1 AND financing_application_id = $2', [kycId, app.id])).length === 0) {
        throw notFound('person');
      }
      await tx.query('UPDATE application_invites SET revoked_at = $3 WHERE financing_application_id = $1 AND email = $2 AND accepted_at IS NULL AND revoked_at IS NULL',
        [app.id, email, new Date(ctx.deps.now())]);
      await tx.query(
        'INSERT INTO application_invites (id, financing_application_id, email, kyc_individual_id, token_hash, expires_at) VALUES ($1, $2, $3, $4, $5, $6)',
        [randomUUID(), app.id, email, kycId, hashToken(token), new Date(ctx.deps.now() + INVITE_TTL_MS)]);
      const link = mailLinks(ctx)(`/application/start?application=${app.id}&invite=${token}`);
      await sendMail(ctx.deps, tx, email, 'You were asked to help with a Ledgerline application',
        `Someone asked you to fill in your details for a Ledgerline financing application: ${link} (valid for 7 days).`);
    });
    return { ...reply, status: 201 };
  },

  [applicationInviteDelete.id]: async (ctx) => writeDraft(ctx, async (tx, app) => {
    const gone = await tx.query(
      'UPDATE application_invites SET revoked_at = $3 WHERE id = $1 AND financing_application_id = $2 AND accepted_at IS NULL AND revoked_at IS NULL RETURNING id',
      [ctx.input.params.invite_id, app.id, new Date(ctx.deps.now())]);
    if (gone.length === 0) throw notFound('invite');
  }),

  // Once, and only after submitting (the one write a submitted application takes).
  [applicationSurvey.id]: async (ctx) => {
    const app = await readApplication(ctx, ctx.db, true);
    if (app.status === 'DRAFT') throw new ApiError('REQUEST_7001', 'Submit the application before the survey.');
    const saved = await ctx.db.query(
      'UPDATE financing_applications SET survey = $2 WHERE id = $1 AND survey IS NULL RETURNING id',
      [app.id, JSON.stringify({ ...ctx.input.body, at: new Date(ctx.deps.now()).toISOString() })]);
    if (saved.length === 0) throw new ApiError('APPLICATION_7001', 'You already answered the survey.');
    return ctx.c.body(null, 204);
  },

  [applicationDocumentRequests.id]: async (ctx) => {
    const app = await readApplication(ctx, ctx.db);
    return ok({ requests: await listDocumentRequests(ctx.db, app.id) });
  },
} satisfies DomainHandlers;
