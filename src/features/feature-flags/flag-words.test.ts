import { describe, expect, it } from 'vitest';
import { FEATURE_FLAG_NAMES, resolveFeatureFlags } from '../../../schema/feature-flags.ts';
import { changesAccess, changeText, confirmWords, FLAG_GROUPS, FLAG_WORDS, flagChanges, flagsOfGroup, limitError, overridesOf } from './flag-words.ts';

describe('the feature flags page words', () => {
  it('puts every registry flag in exactly one group, with a title and a description', () => {
    const grouped = FLAG_GROUPS.flatMap((g) => flagsOfGroup(g.key));
    expect([...grouped].sort()).toEqual([...FEATURE_FLAG_NAMES].sort());
    for (const name of FEATURE_FLAG_NAMES) {
      expect(FLAG_WORDS[name].title.length).toBeGreaterThan(3);
      expect(FLAG_WORDS[name].description.length).toBeGreaterThan(10);
    }
    expect(flagsOfGroup('access')).toEqual(['auditor_role', 'it_admin_can_be_assistant', 'disable_invites_by_managers']);
  });

  it('the confirmation says what changes for whom', () => {
    const saved = resolveFeatureFlags();
    const draft = resolveFeatureFlags({ auditor_role: true, disable_invites_by_managers: true, bulk_bill_creation_limit: 120 });
    const changes = flagChanges(saved, draft);
    expect(changes.map((c) => c.name)).toEqual(['auditor_role', 'disable_invites_by_managers', 'bulk_bill_creation_limit']);
    expect(changes.map(changeText)).toEqual([
      'Auditor role: Off → On. Owners and admins can invite people as Auditors and change someone’s role to Auditor.',
      'Turn off invites by managers: Off → On. Managers can no longer invite people or resend invites; owners and admins still can. Pending invites stay valid.',
      'Bills per bulk action: 50 → 120. Everyone who manages bills can act on at most 120 bills at a time, on the bills page and through the API; a larger selection is refused before anything changes.',
    ]);
    expect(changeText({ name: 'auditor_role', from: true, to: false })).toMatch(/People who are Auditors now keep the role\.$/);
    expect(confirmWords(changes)).toEqual({ title: 'Save 3 changes to access rules and limits?', confirm: 'Save 3 changes' });
  });

  it('says plainly when a flag is read by no screen, and asks a plain question for non-access changes', () => {
    const changes = flagChanges(resolveFeatureFlags(), resolveFeatureFlags({ spend_export_use_olap: false }));
    expect(changeText(changes[0]!)).toBe('Faster spend exports: On → Off. No screen reads this flag yet: nothing visible changes.');
    expect(changesAccess(changes)).toBe(false);
    expect(confirmWords(changes).title).toBe('Save 1 change?');
  });

  it('sends as overrides only what differs from the defaults (reset to default = no override)', () => {
    expect(overridesOf(resolveFeatureFlags())).toEqual({});
    expect(overridesOf(resolveFeatureFlags({ auditor_role: true, security_login_history: false, bulk_bill_creation_limit: 50 })))
      .toEqual({ auditor_role: true, security_login_history: false });
  });

  it('checks the limit against the registry range', () => {
    expect(limitError('120')).toBeNull();
    expect(limitError('1')).toBeNull();
    expect(limitError('500')).toBeNull();
    for (const bad of ['', '0', '501', '2.5', 'ten']) expect(limitError(bad)).toBe('Enter a whole number from 1 to 500.');
  });
});
