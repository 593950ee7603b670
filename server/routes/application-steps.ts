import { randomUUID } from 'node:crypto';
import {
  applicationBusinessDetails, applicationCheckbox, applicationCompany, applicationFinancialDetails, applicationGet, applicationKycIndividual,
  applicationLeadership, applicationOwnerships, applicationOwnershipsDelete, applicationPatch, applicationProducts,
} from '../../schema/api/calls-application-steps.ts';
import { dobRefusal, isValidEin, isValidNaics, isValidSsn, MAX_OWNERSHIP_BP, ssnDigits } from '../../schema/application-rules.ts';
import { encryptBankValue, loadVendorBankKey } from '../auth/vendor-bank-crypto.ts';
import { ApiError, validationError } from '../core/errors.ts';
import type { Queryable } from '../db/db.ts';
import { applicationContext, draftOf } from '../domain/applications/draft.ts';
import { ok, type DomainHandlers } from '../http/handler.ts';
import { readApplication, setAnswer, todayOf, writeDraft } from './application-access.ts';

/** Issue 31: the application's step calls (schema/api/calls-application-steps.ts). */

/** The one control person (a KYC individual), created or renamed by the leadership step. */
async function upsertControlPerson(tx: Queryable, appId: string, cp: { first_name: string; last_name: string; title: string; email: string }) {
  const updated = await tx.query(
    `UPDATE kyc_individuals SET first_name = $2, last_name = $3, title = $4, email = $5
      WHERE financing_application_id = $1 AND is_control_person RETURNING id`, [appId, cp.first_name, cp.last_name, cp.title, cp.email]);
  if (updated.length > 0) return;
  await tx.query(
    `INSERT INTO kyc_individuals (id, financing_application_id, first_name, last_name, title, email, is_control_person)
     VALUES ($1, $2, $3, $4, $5, $6, true)`, [randomUUID(), appId, cp.first_name, cp.last_name, cp.title, cp.email]);
}

const splitName = (name: string) => {
  const parts = name.trim().split(/\s+/);
  return { first: parts.length > 1 ? parts.slice(0, -1).join(' ') : name.trim(), last: parts.length > 1 ? parts.at(-1)! : null };
};

type OwnerInput = { id?: string | undefined; kind: 'INDIVIDUAL' | 'ENTITY'; name: string; email?: string | null | undefined; percent_bp: number };

/** An owner, new or changed; an individual gets its KYC individual to fill (kyc-individual step). */
async function upsertOwner(tx: Queryable, appId: string, o: OwnerInput): Promise<void> {
  if (o.id) {
    const rows = await tx.query<{ kyc_individual_id: string | null }>(
      `UPDATE application_owners SET kind = $3, name = $4, email = $5, percent_bp = $6
        WHERE id = $1 AND financing_application_id = $2 RETURNING kyc_individual_id::text`, [o.id, appId, o.kind, o.name, o.email ?? null, o.percent_bp]);
    if (rows.length === 0) throw new ApiError('REQUEST_7004', 'There is no such owner.', { 'owners.id': 'owners.id names no owner of this application' });
    if (o.kind === 'INDIVIDUAL' && !rows[0]!.kyc_individual_id) await attachIndividual(tx, appId, o.id, o);
    return;
  }
  const id = randomUUID();
  await tx.query(
    'INSERT INTO application_owners (id, financing_application_id, kind, name, email, percent_bp) VALUES ($1, $2, $3, $4, $5, $6)',
    [id, appId, o.kind, o.name, o.email ?? null, o.percent_bp]);
  if (o.kind === 'INDIVIDUAL') await attachIndividual(tx, appId, id, o);
}

async function attachIndividual(tx: Queryable, appId: string, ownerId: string, o: OwnerInput) {
  const kycId = randomUUID();
  const { first, last } = splitName(o.name);
  await tx.query('INSERT INTO kyc_individuals (id, financing_application_id, first_name, last_name, email) VALUES ($1, $2, $3, $4, $5)',
    [kycId, appId, first, last, o.email ?? null]);
  await tx.query('UPDATE application_owners SET kyc_individual_id = $2 WHERE id = $1', [ownerId, kycId]);
}

export const applicationStepHandlers = {
  [applicationGet.id]: async (ctx) => ok(await draftOf(ctx.db, await readApplication(ctx, ctx.db), todayOf(ctx))),

  [applicationPatch.id]: async (ctx) => {
    const ifMatch = ctx.c.req.header('If-Match');
    return writeDraft(ctx, async (tx, app) => {
      // If-Match: the version the client edited (quotes allowed); another version is a conflict.
      if (ifMatch !== undefined && ifMatch.replace(/^W\//, '').replace(/"/g, '') !== String(app.version)) {
        throw new ApiError('CONFLICT', 'This application changed since you loaded it. Reload it and try again.');
      }
      const b = ctx.input.body;
      await tx.query('UPDATE financing_applications SET business_name = coalesce($2, business_name), current_step = coalesce($3, current_step) WHERE id = $1',
        [app.id, b.business_name ?? null, b.current_step ?? null]);
    });
  },

  [applicationBusinessDetails.id]: async (ctx) => {
    const b = ctx.input.body;
    if (!isValidEin(b.ein)) throw validationError({ ein: 'ein must be a valid EIN' });
    return writeDraft(ctx, async (tx, app) => {
      await setAnswer(tx, app.id, 'business_details', b);
      await tx.query('UPDATE financing_applications SET business_name = coalesce(business_name, $2) WHERE id = $1', [app.id, b.legal_name]);
    });
  },

  [applicationFinancialDetails.id]: async (ctx) => {
    const b = ctx.input.body;
    const currencies = new Set([b.annual_revenue.currency, b.cash_on_hand.currency, b.monthly_spend_estimate.currency]);
    if (currencies.size > 1) throw validationError({ cash_on_hand: 'cash_on_hand must be in the same currency as annual_revenue' });
    return writeDraft(ctx, (tx, app) => setAnswer(tx, app.id, 'financial_details', b).then(() => undefined));
  },

  [applicationCompany.id]: async (ctx) => {
    if (!isValidNaics(ctx.input.body.industry_code)) throw validationError({ industry_code: 'industry_code must be a valid NAICS code' });
    return writeDraft(ctx, (tx, app) => setAnswer(tx, app.id, 'company', ctx.input.body).then(() => undefined));
  },

  [applicationLeadership.id]: async (ctx) => writeDraft(ctx, async (tx, app) => {
    await setAnswer(tx, app.id, 'leadership', ctx.input.body);
    await upsertControlPerson(tx, app.id, ctx.input.body.control_person);
  }),

  [applicationOwnerships.id]: async (ctx) => writeDraft(ctx, async (tx, app) => {
    for (const owner of ctx.input.body.owners) await upsertOwner(tx, app.id, owner);
    const [sum] = await tx.query<{ total: number }>('SELECT coalesce(sum(percent_bp), 0)::int AS total FROM application_owners WHERE financing_application_id = $1', [app.id]);
    // Thrown inside the transaction: the refused owners are not written.
    if ((sum?.total ?? 0) > MAX_OWNERSHIP_BP) throw new ApiError('APPLICATION_7003');
  }),

  [applicationOwnershipsDelete.id]: async (ctx) => writeDraft(ctx, async (tx, app) => {
    const gone = await tx.query<{ kyc_individual_id: string | null }>(
      'DELETE FROM application_owners WHERE financing_application_id = $1 AND id = ANY($2::uuid[]) RETURNING kyc_individual_id::text',
      [app.id, ctx.input.body.ids]);
    if (gone.length !== ctx.input.body.ids.length) throw new ApiError('REQUEST_7004', 'There is no such owner.');
    const orphans = gone.map((g) => g.kyc_individual_id).filter((id): id is string => id !== null);
    if (orphans.length > 0) await deleteIndividuals(tx, app.id, orphans);
  }),

  [applicationKycIndividual.id]: async (ctx) => {
    const b = ctx.input.body;
    if (!isValidSsn(b.ssn)) throw validationError({ ssn: 'ssn must be a valid SSN' });
    const dob = dobRefusal(b.dob, todayOf(ctx));
    if (dob) throw validationError({ dob: `dob ${dob}` });
    return writeDraft(ctx, async (tx, app) => {
      const id = ctx.input.params.kyc_individual_uuid;
      const key = await loadVendorBankKey(tx);
      const ssn = ssnDigits(b.ssn);
      const rows = await tx.query(
        `UPDATE kyc_individuals SET first_name = $3, last_name = $4, dob = $5, ssn_cipher = $6, ssn_last_four = $7, address = $8,
                citizenship = $9, completed_at = $10
          WHERE id = $1 AND financing_application_id = $2 RETURNING id`,
        [id, app.id, b.first_name, b.last_name, b.dob, encryptBankValue(key, ssn, applicationContext(id, 'ssn')), ssn.slice(-4),
          JSON.stringify(b.address), b.citizenship, new Date(ctx.deps.now())]);
      if (rows.length === 0) throw new ApiError('REQUEST_7004', 'There is no such person on this application.');
    });
  },

  [applicationCheckbox.id]: async (ctx) => writeDraft(ctx, (tx, app) => setAnswer(tx, app.id, 'checkbox', ctx.input.body).then(() => undefined)),
  [applicationProducts.id]: async (ctx) =>
    writeDraft(ctx, (tx, app) => setAnswer(tx, app.id, 'products', [...new Set(ctx.input.body.products)]).then(() => undefined)),
} satisfies DomainHandlers;

/** KYC individuals no owner names any more (never the control person), with their documents. */
async function deleteIndividuals(tx: Queryable, appId: string, ids: string[]) {
  const loose = await tx.query<{ id: string }>(
    `SELECT id::text FROM kyc_individuals k WHERE financing_application_id = $1 AND id = ANY($2::uuid[]) AND NOT is_control_person
        AND NOT EXISTS (SELECT 1 FROM application_owners o WHERE o.kyc_individual_id = k.id)`, [appId, ids]);
  const dead = loose.map((r) => r.id);
  if (dead.length === 0) return;
  await tx.query('DELETE FROM application_document_pages WHERE document_id IN (SELECT id FROM application_documents WHERE kyc_individual_id = ANY($1::uuid[]))', [dead]);
  await tx.query('DELETE FROM application_documents WHERE kyc_individual_id = ANY($1::uuid[])', [dead]);
  await tx.query('UPDATE application_invites SET kyc_individual_id = NULL WHERE kyc_individual_id = ANY($1::uuid[])', [dead]);
  await tx.query('DELETE FROM kyc_individuals WHERE id = ANY($1::uuid[])', [dead]);
}
