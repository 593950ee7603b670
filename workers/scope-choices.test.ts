import { describe, expect, it } from 'vitest';
import { fakeToken } from '../sync/testing.ts';
import type { BusinessSessionInfo, SurfaceSessionInfo } from './contracts/session.ts';
import { offlineChoices, scopeLabel, sessionTarget, targetKey } from './scope-choices.ts';
import { tokenFirmId, tokenSurface } from './token-surface.ts';

const VENDOR = { kind: 'VENDOR_PORTAL' as const, network_vendor_id: 'v1' };
const FIRM = { kind: 'ADVISOR_CONSOLE' as const, external_firm_id: 'f1', external_firm_user_id: 'fu1' };

describe('tokenSurface', () => {
  it.each([
    ['a token before issue 31', {}, { kind: 'BUSINESS' }],
    ['a business token', { ramp_surface: { kind: 'BUSINESS' } }, { kind: 'BUSINESS' }],
    ['a vendor portal token', { ramp_surface: VENDOR }, VENDOR],
    ['a console token', { ramp_surface: FIRM }, FIRM],
    ['a claim that does not read', { ramp_surface: { kind: 'VENDOR_PORTAL' } }, { kind: 'BUSINESS' }],
  ])('%s', (_, claims, surface) => expect(tokenSurface(fakeToken(['default'], claims))).toEqual(surface));

  it('reads the firm id of a firm user’s token, null otherwise', () => {
    expect(tokenFirmId(fakeToken(['default'], { external_firm_id: 'f1' }))).toBe('f1');
    expect(tokenFirmId(fakeToken(['default'], {}))).toBeNull();
    expect(tokenFirmId('not a token')).toBeNull();
  });
});

describe('scope keys and labels', () => {
  it('keys a scope by its kind and subject, whatever else the target names', () => {
    expect(targetKey(FIRM)).toBe('ADVISOR_CONSOLE:fu1');
    expect(targetKey({ ...FIRM, external_firm_id: 'other' })).toBe(targetKey(FIRM));
    expect(targetKey({ kind: 'BUSINESS', business_id: 'b1' })).not.toBe(targetKey({ kind: 'BUSINESS', business_id: 'b2' }));
  });

  it('names a surface from the list, else by its kind', () => {
    expect(scopeLabel(VENDOR, [{ target: VENDOR, label: 'Acme Supplies', detail: null }])).toBe('Acme Supplies');
    expect(scopeLabel(VENDOR, [{ target: { ...VENDOR, network_vendor_id: 'v2' }, label: 'Other', detail: null }])).toBe('Vendor portal');
    expect(scopeLabel(FIRM, null)).toBe('Advisor console');
  });
});

describe('offlineChoices', () => {
  const business = {
    surface: { kind: 'BUSINESS' }, business: { id: 'b1', name: 'Alpha' }, user: { id: 'u1' }, scopes: ['default'],
    businesses: [
      { id: 'b1', name: 'Alpha', role: 'BUSINESS_ADMIN', user_id: 'u1' },
      { id: 'b2', name: 'Beta', role: 'BUSINESS_USER', user_id: 'u2' },
      { id: 'b3', name: 'Client of the firm', role: 'ADVISOR_CONSOLE_USER', user_id: 'u3' },
    ],
  } as unknown as BusinessSessionInfo;

  it('offers the session’s switchable businesses (never a hidden user) with the kept list first, each once', () => {
    const kept = [{ target: VENDOR, label: 'Acme Supplies', detail: 'Vendor' }, { target: { kind: 'BUSINESS' as const, business_id: 'b1' }, label: 'Alpha', detail: 'Admin' }];
    expect(offlineChoices({ ...business, choices: kept })).toEqual([
      ...kept,
      { target: { kind: 'BUSINESS', business_id: 'b2' }, label: 'Beta', detail: null },
    ]);
    expect(sessionTarget(business)).toEqual({ kind: 'BUSINESS', business_id: 'b1' });
  });

  it('always offers a surface session’s own scope', () => {
    const portal: SurfaceSessionInfo = { surface: VENDOR, identity_id: 'i1', email: null, label: 'Acme', scopes: ['default'] };
    expect(offlineChoices(portal)).toEqual([{ target: VENDOR, label: 'Acme', detail: null }]);
    expect(sessionTarget(portal)).toEqual(VENDOR);
  });
});
