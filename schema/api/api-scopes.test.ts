import { describe, expect, it } from 'vitest';
import { API_SCOPES, apiScopeOf } from './api-scopes.ts';
import { CATALOGUE } from './calls.ts';

const byId = new Map(CATALOGUE.map((c) => [c.id, c]));
const scopeOf = (id: string) => apiScopeOf(byId.get(id as never)!);

describe('API scopes over the whole catalogue', () => {
  const scoped = CATALOGUE.map((call) => ({ call, scope: apiScopeOf(call) }));

  it('gives every call either no API scope or one of API_SCOPES', () => {
    for (const { scope } of scoped) if (scope) expect(API_SCOPES).toContain(scope);
  });

  it('never opens a call that needs a step-up, is public, of another surface, or about the signed-in person', () => {
    for (const { call, scope } of scoped) {
      if (!scope) continue;
      expect(call.auth.kind, call.id).toBe('scopes');
      if (call.auth.kind === 'scopes') expect(call.auth.scopes, call.id).toContain('default');
      expect(call.surfaces, call.id).toContain('BUSINESS');
      expect(call.path, call.id).not.toContain('/users/current/');
    }
  });

  it('keeps identity, access, the sync feed, API clients and money movement closed', () => {
    const closed = scoped.filter(({ scope }) => scope === null).map(({ call }) => call.id);
    for (const id of [
      'auth.stepUp', 'mfa.totpDelete', 'webauthn.delete', 'admin.sso.createSaml', 'admin.supportAccess.grant', 'impersonation.start',
      'sync.changes', 'admin.apiClients.list', 'admin.apiClients.create', 'admin.apiClients.delete', 'bills.bulk.payNow',
      'reimbursements.payAch', 'treasury.transfers.create', 'admin.users.changeRole', 'vendors.bankAccount.reveal', 'users.signOut',
    ]) expect(closed, id).toContain(id);
  });

  it('reads are :read (GETs, exports, searches) and changes are :write', () => {
    expect(scopeOf('transactions.list')).toBe('transactions:read');
    expect(scopeOf('transactions.search')).toBe('transactions:read');
    expect(scopeOf('transactions.exportAsFile')).toBe('transactions:read');
    expect(scopeOf('transactions.patch')).toBe('transactions:write');
    expect(scopeOf('transactions.attachReceipt')).toBe('receipts:write');
    expect(scopeOf('bills.create')).toBe('bills:write');
    expect(scopeOf('admin.departments.create')).toBe('departments:write');
    expect(scopeOf('glAccounts.list')).toBe('accounting:read');
    expect(scopeOf('users.list')).toBe('users:read');
  });

  it('opens a fair part of the catalogue, each resource in at least one call', () => {
    const used = new Set(scoped.map(({ scope }) => scope?.split(':')[0]).filter(Boolean));
    // Statements land with their own calls (issue 32, jobs); every other resource is reachable today.
    for (const scope of API_SCOPES) if (!scope.startsWith('statements')) expect(used, scope).toContain(scope.split(':')[0]);
    expect(scoped.filter(({ scope }) => scope).length).toBeGreaterThan(150);
  });
});
