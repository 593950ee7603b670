import type { Queryable } from '../db/db.ts';
import { DEFAULT_EMAIL_DOMAIN } from './types.ts';
import { SURFACE_DEMO, type SurfaceIdentity, type SurfaceSeedContext } from './surfaces-context.ts';

/**
 * Issue 31: the demo's accounting firm (ACTIVE) as firm.apply.verify and an accepted proposal leave
 * it: Fran Ledger's verified, APPROVED application and her EXTERNAL_FIRM_ADMIN row, Milo Ledger an
 * EXTERNAL_FIRM_USER; the proposal to the demo business ACCEPTED by its owner, the ACTIVE
 * authorization (READ + CODE, not CLOSE_BOOKS) binding both to hidden spend users in the business
 * (ADVISOR_CONSOLE_ADMIN / _USER, `external_firm {uuid, id}` and `external_firm_role` as
 * domain/external-firms/hidden-users.ts writes them, the seqs after `seq`); a PENDING proposal to
 * client@ ("Harbor Bakery"); the referral code LEDGERCO.
 */
const DAY = 86_400_000;
const RIGHTS = ['READ', 'CODE'];

type FirmUser = SurfaceIdentity & { firm_user_id: string; role: 'EXTERNAL_FIRM_ADMIN' | 'EXTERNAL_FIRM_USER' };

export async function insertFirmDemo(
  ctx: SurfaceSeedContext, people: { admin: SurfaceIdentity; member: SurfaceIdentity }, seq: number,
): Promise<number> {
  const { tx, rng, now, data } = ctx;
  const at = (days: number) => new Date(now.getTime() - days * DAY);
  const firmId = rng.uuid();
  await tx.query(`INSERT INTO external_firms (id, name, status, created_at) VALUES ($1, $2, 'ACTIVE', $3)`, [firmId, SURFACE_DEMO.firmName, at(60)]);
  await tx.query(
    `INSERT INTO external_firm_applications (id, identity_id, firm_name, admin_first_name, admin_last_name, status, verified_at, firm_id, created_at, decided_at)
     VALUES ($1, $2, $3, $4, $5, 'APPROVED', $6, $7, $6, $6)`,
    [rng.uuid(), people.admin.id, SURFACE_DEMO.firmName, people.admin.first_name, people.admin.last_name, at(60), firmId],
  );
  const users: FirmUser[] = [
    { ...people.admin, firm_user_id: rng.uuid(), role: 'EXTERNAL_FIRM_ADMIN' },
    { ...people.member, firm_user_id: rng.uuid(), role: 'EXTERNAL_FIRM_USER' },
  ];
  for (const [i, u] of users.entries()) {
    await tx.query(
      `INSERT INTO external_firm_users (id, firm_id, identity_id, role, status, first_name, last_name, email, created_at)
       VALUES ($1, $2, $3, $4, 'ACTIVE', $5, $6, $7, $8)`,
      [u.firm_user_id, firmId, u.id, u.role, u.first_name, u.last_name, u.email, at(60 - i * 5)],
    );
  }
  const firmUserIds = users.map((u) => u.firm_user_id);
  const proposalId = rng.uuid();
  await tx.query(
    `INSERT INTO external_firm_proposals (id, firm_id, direction, client_email, client_name, business_id, rights, firm_user_ids, status,
                                          created_by, decided_by, decided_at, created_at)
     VALUES ($1, $2, 'FIRM_TO_BUSINESS', $3, $4, $5, $6, $7::uuid[], 'ACCEPTED', $8, $9, $10, $11)`,
    [proposalId, firmId, ctx.owner.email, data.business.name, data.business.id, RIGHTS, firmUserIds, people.admin.id, ctx.owner.identity_id,
      at(45), at(47)],
  );
  const authorizationId = rng.uuid();
  await tx.query(
    `INSERT INTO external_firm_authorizations (id, firm_id, business_id, proposal_id, rights, status, created_at)
     VALUES ($1, $2, $3, $4, $5, 'ACTIVE', $6)`,
    [authorizationId, firmId, data.business.id, proposalId, RIGHTS, at(45)],
  );
  for (const u of users) {
    seq += 1;
    await insertAdvisor(tx, ctx, { firmId, authorizationId, user: u, spendUserId: rng.uuid(), seq, at: at(45) });
  }
  await tx.query(
    `INSERT INTO external_firm_proposals (id, firm_id, direction, client_email, client_name, rights, firm_user_ids, status, created_by, created_at)
     VALUES ($1, $2, 'FIRM_TO_BUSINESS', $3, 'Harbor Bakery', $4, $5::uuid[], 'PENDING', $6, $7)`,
    [rng.uuid(), firmId, `client@${ctx.domain}`, RIGHTS, firmUserIds, people.admin.id, at(3)],
  );
  await tx.query('INSERT INTO external_firm_referrals (id, firm_id, code, label, created_at) VALUES ($1, $2, $3, $4, $5)', [
    rng.uuid(), firmId, referralCode(ctx), 'Our website', at(30),
  ]);
  return seq;
}

/** LEDGERCO for the demo; a second tenant's firm (another --email-domain) gets its own (codes are global). */
function referralCode(ctx: SurfaceSeedContext): string {
  return ctx.domain === DEFAULT_EMAIL_DOMAIN ? SURFACE_DEMO.referralCode : `${SURFACE_DEMO.referralCode}-${ctx.data.business.id.slice(0, 8).toUpperCase()}`;
}

/** One firm user's hidden spend user in the client and its binding to the authorization. */
async function insertAdvisor(
  tx: Queryable, ctx: SurfaceSeedContext,
  a: { firmId: string; authorizationId: string; user: FirmUser; spendUserId: string; seq: number; at: Date },
): Promise<void> {
  const u = a.user;
  await tx.query(
    `INSERT INTO spend_users (id, business_id, identity_id, role, external_firm, external_firm_role, first_name, last_name, email,
                              status, has_accepted_cardholder_agreement, change_seq, updated_at)
     VALUES ($1, $2, $3, $4, $5::jsonb, $6, $7, $8, $9, 'ACTIVE', false, $10, $11)`,
    [a.spendUserId, ctx.data.business.id, u.id, u.role === 'EXTERNAL_FIRM_ADMIN' ? 'ADVISOR_CONSOLE_ADMIN' : 'ADVISOR_CONSOLE_USER',
      JSON.stringify({ uuid: a.firmId, id: u.firm_user_id }), u.role, u.first_name, u.last_name, u.email, a.seq, a.at],
  );
  await tx.query('INSERT INTO external_firm_authorization_users (authorization_id, firm_user_id, spend_user_id) VALUES ($1, $2, $3)', [
    a.authorizationId, u.firm_user_id, a.spendUserId,
  ]);
}
