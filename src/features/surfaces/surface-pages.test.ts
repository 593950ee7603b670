import { describe, expect, it } from 'vitest';
import { consoleRedirect, pageOf, SHELLS, shellNav, shellOf } from './surface-pages.ts';
import { hasOtherScopes, scopeGroups } from './scope-groups.ts';

describe('surface pages', () => {
  it.each([
    ['/console', 'Clients'],
    ['/console/', 'Clients'],
    ['/console/proposals', 'Proposals'],
    ['/console/applications', 'Applications'],
    ['/console/clients/0b0b0b0b-0000-4000-8000-000000000001', 'Client'],
    ['/console/application', 'Your firm’s application'],
    ['/vendor-portal', 'Payments'],
    ['/vendor-portal/changes', 'Changes'],
    ['/application', 'Your application'],
    ['/application/submitted', 'Application submitted'],
    ['/application/company', 'Application step'],
  ])('%s is %s', (path, title) => expect(pageOf(path)?.title).toBe(title));

  it.each(['/console/nope', '/console/clients', '/vendor-portal/profile/x', '/application/a/b', '/transactions'])('%s is no page', (path) =>
    expect(pageOf(path)).toBeNull());

  it('finds the shell by the first segment only', () => {
    expect(shellOf('/vendor-portal/payers')?.kind).toBe('VENDOR_PORTAL');
    expect(shellOf('/applications')).toBeNull();
    expect(shellOf('/consoles')).toBeNull();
  });

  it('shows a firm user the console’s pages and the firm applicant only their application', () => {
    expect(shellNav(SHELLS.ADVISOR_CONSOLE, false).map((p) => p.nav)).toEqual(['Clients', 'Proposals', 'Team', 'Applications', 'Referrals', 'Settings']);
    expect(shellNav(SHELLS.ADVISOR_CONSOLE, true).map((p) => p.nav)).toEqual(['Application']);
    expect(shellNav(SHELLS.VENDOR_PORTAL, false).map((p) => p.nav)).toEqual(['Payments', 'Profile', 'Payers', 'Changes']);
  });
});

describe('consoleRedirect', () => {
  it.each([
    ['ADVISOR_CONSOLE', '/console/proposals', null],
    ['ADVISOR_CONSOLE', '/console/application', '/console'],
    ['ADVISOR_CONSOLE_APPLICATION', '/console/application/', null],
    ['ADVISOR_CONSOLE_APPLICATION', '/console', '/console/application'],
    ['ADVISOR_CONSOLE_APPLICATION', '/console/team', '/console/application'],
    ['VENDOR_PORTAL', '/vendor-portal', null],
    [undefined, '/console', null],
  ])('%s on %s → %s', (kind, path, to) => expect(consoleRedirect(kind, path)).toBe(to));
});

describe('scope picker groups', () => {
  const business = { target: { kind: 'BUSINESS' as const, business_id: 'b1' }, label: 'Alpha', detail: 'Admin' };
  const firm = { target: { kind: 'ADVISOR_CONSOLE' as const, external_firm_id: 'f1', external_firm_user_id: 'fu1' }, label: 'Ledger & Co', detail: 'Firm admin' };
  const vendor = { target: { kind: 'VENDOR_PORTAL' as const, network_vendor_id: 'v1' }, label: 'Acme Supplies', detail: 'Vendor' };
  const app = { target: { kind: 'FINANCING_APPLICATION' as const, financing_application_id: 'a1' }, label: 'New application (Nov 30, 2026)', detail: 'Applicant' };

  it('groups in sign-in order with the server’s labels and marks the current scope', () => {
    const groups = scopeGroups([app, vendor, firm, business], vendor.target);
    expect(groups.map((g) => [g.title, g.choices.map((c) => [c.label, c.current])])).toEqual([
      ['Businesses', [['Alpha', false]]],
      ['Accounting firm', [['Ledger & Co', false]]],
      ['Vendor portals', [['Acme Supplies', true]]],
      ['Financing applications', [['New application (Nov 30, 2026)', false]]],
    ]);
  });

  it('leaves out empty groups and is offered in the main app only with a scope besides businesses', () => {
    expect(scopeGroups([business], null).map((g) => g.title)).toEqual(['Businesses']);
    expect(hasOtherScopes([business])).toBe(false);
    expect(hasOtherScopes(undefined)).toBe(false);
    expect(hasOtherScopes([business, app])).toBe(true);
  });
});
