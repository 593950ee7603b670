import { businessDetailsSchema, companySchema, financialDetailsSchema } from '../../schema/entities/financing-application.ts';
import type { Queryable } from '../db/db.ts';
import { NO_PASSWORD } from '../domain/admin-users.ts';
import { Rng } from './prng.ts';
import { insertFirmDemo } from './surfaces-firm.ts';
import { SURFACE_DEMO, surfaceAccounts, type SurfaceIdentity, type SurfaceSeedContext } from './surfaces-context.ts';
import { DEMO_PASSWORD, type DemoData } from './types.ts';
import { insertVendorNetworkDemo } from './surfaces-vendor.ts';

/**
 * Issue 31: the demo's three other surfaces, so each has something to show (password DEMO_PASSWORD
 * but for the applicant, who signs in with a mailed code as every applicant does):
 * - the accounting firm "Ledger & Co" (firm@ admin, firm-member@ member) working for the demo
 *   business (READ + CODE) through hidden advisor spend users, with a pending proposal to
 *   client@ ("Harbor Bakery") and the referral code LEDGERCO (surfaces-firm.ts);
 * - the network vendor of vendor@, linked to the demo vendor with an unpaid bill (surfaces-vendor.ts);
 * - applicant@'s DRAFT financing application "Sunrise Coffee LLC" with its first steps answered.
 * Ids come from the seed's PRNG; the three hidden spend users take the seqs after `lastSeq`.
 */
export { SURFACE_DEMO, surfaceAccounts };

export interface SurfacesDemoOptions {
  now: Date;
  seed: number;
  lastSeq: number;
  hash: (password: string) => Promise<string>;
}

/** Inserts the surfaces' demo rows in the seed's transaction; answers the business's last seq. */
export async function insertSurfacesDemo(tx: Queryable, data: DemoData, opts: SurfacesDemoOptions): Promise<{ lastSeq: number }> {
  const rng = new Rng(opts.seed, `${data.business.id}\u0000surfaces`);
  const admin = data.accounts.find((a) => a.role === 'BUSINESS_ADMIN') ?? data.accounts[0]!;
  const ownerAccount = data.accounts.find((a) => a.role === 'BUSINESS_OWNER') ?? admin;
  const ownerUser = data.users.find((u) => u.id === ownerAccount.user_id)!;
  const domain = admin.email.slice(admin.email.indexOf('@') + 1);
  const ctx: SurfaceSeedContext = {
    tx, data, rng, now: opts.now, domain,
    admin: { user_id: admin.user_id, email: admin.email },
    owner: { user_id: ownerAccount.user_id, email: ownerAccount.email, identity_id: ownerUser.identity_id },
  };
  const [firm, member, vendor, applicant] = surfaceAccounts(domain).map((a) => a.email) as [string, string, string, string];
  const people = {
    firmAdmin: person(rng, firm, 'Fran', 'Ledger'),
    firmMember: person(rng, member, 'Milo', 'Ledger'),
    vendor: person(rng, vendor, 'Vera', 'Vendorson'),
    applicant: person(rng, applicant, 'Sunny', 'Rivera'),
  };
  const hashes = await Promise.all([people.firmAdmin, people.firmMember, people.vendor].map(() => opts.hash(DEMO_PASSWORD)));
  const createdAt = new Date(opts.now.getTime() - 90 * 86_400_000);
  for (const [i, p] of [people.firmAdmin, people.firmMember, people.vendor, people.applicant].entries()) {
    await tx.query('INSERT INTO identities (id, email, password_hash, email_verified_at, created_at) VALUES ($1, $2, $3, $4, $4)', [
      p.id, p.email, hashes[i] ?? NO_PASSWORD, createdAt,
    ]);
  }
  let seq = opts.lastSeq;
  seq = await insertFirmDemo(ctx, { admin: people.firmAdmin, member: people.firmMember }, seq);
  seq = await insertVendorNetworkDemo(ctx, people.vendor, seq);
  await insertApplicationDemo(ctx, people.applicant);
  return { lastSeq: seq };
}

function person(rng: Rng, email: string, first_name: string, last_name: string): SurfaceIdentity {
  return { id: rng.uuid(), email, first_name, last_name };
}


/**
 * applicant@'s DRAFT: business details, financial details and company answered (what the steps'
 * PATCHes store, parsed by their own schemas), the next step leadership. Nothing submitted.
 */
async function insertApplicationDemo(ctx: SurfaceSeedContext, applicant: SurfaceIdentity): Promise<void> {
  const { tx, rng, now } = ctx;
  const id = rng.uuid();
  const answers = {
    business_details: businessDetailsSchema.parse({
      legal_name: SURFACE_DEMO.applicationName, dba: 'Sunrise Coffee', entity_type: 'LLC', ein: '12-3456789',
      incorporation_state: 'OR', incorporation_date: '2021-04-12', website: 'https://sunrise-coffee.example', phone: '+1 503 555 0142',
      address: { line1: '1200 SE Division St', line2: null, city: 'Portland', state: 'OR', postal_code: '97202', country: 'US' },
    }),
    financial_details: financialDetailsSchema.parse({
      annual_revenue: { amount: 185_000_000, currency: 'USD' },
      cash_on_hand: { amount: 24_000_000, currency: 'USD' },
      monthly_spend_estimate: { amount: 3_500_000, currency: 'USD' },
    }),
    company: companySchema.parse({ industry_code: '722515', description: 'Two neighbourhood coffee shops and a small roastery.', employee_count: 14 }),
  };
  const createdAt = new Date(now.getTime() - 2 * 86_400_000);
  await tx.query(
    `INSERT INTO financing_applications (id, status, business_name, current_step, answers, created_by_identity_id, created_at, updated_at, version)
     VALUES ($1, 'DRAFT', $2, 'leadership', $3::jsonb, $4, $5, $6, 4)`,
    [id, SURFACE_DEMO.applicationName, JSON.stringify(answers), applicant.id, createdAt, new Date(createdAt.getTime() + 3_600_000)],
  );
  await tx.query(
    `INSERT INTO financing_application_users (financing_application_id, identity_id, role, first_name, last_name, created_at)
     VALUES ($1, $2, 'APPLICANT', $3, $4, $5)`,
    [id, applicant.id, applicant.first_name, applicant.last_name, createdAt],
  );
}
