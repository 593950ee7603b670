import { createHash } from 'node:crypto';
import type { Queryable } from '../db/db.ts';
import type { Rng } from './prng.ts';
import type { DemoData } from './types.ts';

/** What the issue 31 demo seed's files share (server/seed/surfaces.ts and its two parts). */
export const SURFACE_DEMO = {
  /** Identities the surfaces add (firm admin, firm member, vendor admin, applicant). */
  identities: 4,
  /** Hidden spend users they add to the demo business (two advisors, the vendor's network admin). */
  hiddenUsers: 3,
  firmName: 'Ledger & Co',
  referralCode: 'LEDGERCO',
  applicationName: 'Sunrise Coffee LLC',
} as const;

export type SurfaceIdentity = { id: string; email: string; first_name: string; last_name: string };

export interface SurfaceSeedContext {
  tx: Queryable;
  data: DemoData;
  rng: Rng;
  now: Date;
  domain: string;
  /** The business admin the vendor was invited by and the owner who accepted the firm. */
  admin: { user_id: string; email: string };
  owner: { user_id: string; email: string; identity_id: string };
}

/** A sha256 token hash the seed can derive (no one holds the token: the row is already decided). */
export const seededTokenHash = (label: string) => createHash('sha256').update(`ledgerline-demo:${label}`).digest('hex');

/** The surfaces' demo accounts, for the seed CLI's and README's list (the applicant has no password: a mailed code). */
export function surfaceAccounts(domain: string): { email: string; surface: string; name: string; password: boolean }[] {
  return [
    { email: `firm@${domain}`, surface: 'ADVISOR_CONSOLE', name: `Fran Ledger, admin of ${SURFACE_DEMO.firmName}`, password: true },
    { email: `firm-member@${domain}`, surface: 'ADVISOR_CONSOLE', name: `Milo Ledger, member of ${SURFACE_DEMO.firmName}`, password: true },
    { email: `vendor@${domain}`, surface: 'VENDOR_PORTAL', name: 'Vera Vendorson, network vendor admin', password: true },
    { email: `applicant@${domain}`, surface: 'FINANCING_APPLICATION', name: `Sunny Rivera, draft "${SURFACE_DEMO.applicationName}"`, password: false },
  ];
}
