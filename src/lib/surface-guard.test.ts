import { describe, expect, it } from 'vitest';
import type { AppState } from '../data-access/app-state.ts';
import { sessionHome, surfaceRedirect, type SurfaceArea } from './surface-guard.ts';

type Signed = Pick<AppState, 'session' | 'surfaceSession'>;
const business = { session: { surface: { kind: 'BUSINESS' } }, surfaceSession: null } as unknown as Signed;
const on = (surface: Record<string, string>) => ({ session: null, surfaceSession: { surface } }) as unknown as Signed;
const FIRM = on({ kind: 'ADVISOR_CONSOLE', external_firm_id: 'f', external_firm_user_id: 'u' });
const APPLICANT = on({ kind: 'ADVISOR_CONSOLE_APPLICATION', external_firm_application_id: 'a' });
const VENDOR = on({ kind: 'VENDOR_PORTAL', network_vendor_id: 'v' });
const FINANCING = on({ kind: 'FINANCING_APPLICATION', financing_application_id: 'f' });
const SIGNED_OUT: Signed = { session: null, surfaceSession: null };

describe('surfaceRedirect', () => {
  it.each<[string, Signed, SurfaceArea, string, string | null]>([
    ['signed out, the main app', SIGNED_OUT, 'BUSINESS', '/transactions', '/sign-in'],
    ['signed out, a surface', SIGNED_OUT, 'VENDOR_PORTAL', '/vendor-portal', '/sign-in'],
    ['a business session in the main app', business, 'BUSINESS', '/cards', null],
    ['a business session on the console', business, 'ADVISOR_CONSOLE', '/console', '/transactions'],
    ['a business session on the portal', business, 'VENDOR_PORTAL', '/vendor-portal/profile', '/transactions'],
    ['a firm user in the console', FIRM, 'ADVISOR_CONSOLE', '/console/proposals', null],
    ['a firm user in the main app', FIRM, 'BUSINESS', '/transactions', '/console'],
    ['a firm applicant on their page', APPLICANT, 'ADVISOR_CONSOLE', '/console/application', null],
    ['a firm applicant in the main app', APPLICANT, 'BUSINESS', '/transactions', '/console/application'],
    ['a vendor in the portal', VENDOR, 'VENDOR_PORTAL', '/vendor-portal/payers', null],
    ['a vendor in the main app', VENDOR, 'BUSINESS', '/bills', '/vendor-portal'],
    ['a vendor on an application', VENDOR, 'FINANCING_APPLICATION', '/application', '/vendor-portal'],
    ['an applicant on their application', FINANCING, 'FINANCING_APPLICATION', '/application/company', null],
    ['an applicant on the console', FINANCING, 'ADVISOR_CONSOLE', '/console', '/application'],
  ])('%s (%s)', (_, signed, area, path, to) => expect(surfaceRedirect(signed, area), path).toBe(to));

  it('sends each session to its own home', () => {
    expect([business, FIRM, APPLICANT, VENDOR, FINANCING].map(sessionHome)).toEqual([
      '/transactions', '/console', '/console/application', '/vendor-portal', '/application',
    ]);
  });
});
