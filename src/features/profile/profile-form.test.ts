import { describe, expect, it } from 'vitest';
import type { UserSettings } from '../../../schema/api/calls-users.ts';
import { calledName, formOf, patchFrom, timeZoneChoices } from './profile-form.ts';

const saved: UserSettings = {
  user_id: '00000000-0000-4000-8000-000000000001', first_name: 'Emma', last_name: 'Ployee', email: 'em@x.test',
  preferred_name: null, timezone: 'Europe/Paris', locale: null, picture: null,
};

describe('profile form', () => {
  it('sends only what changed, and clears with an empty field', () => {
    expect(patchFrom(formOf(saved), saved)).toEqual({ ok: true, patch: {} });
    expect(patchFrom({ preferred_name: ' Em ', timezone: '', locale: 'fr-FR' }, saved)).toEqual({
      ok: true, patch: { preferred_name: 'Em', timezone: null, locale: 'fr-FR' },
    });
  });

  it('names the field that is wrong', () => {
    expect(patchFrom({ preferred_name: 'x'.repeat(61), timezone: 'Mars/Base', locale: 'xx' }, saved)).toEqual({
      ok: false, errors: { preferred_name: 'At most 60 characters.', timezone: 'Choose a time zone from the list.', locale: 'Choose a language and region from the list.' },
    });
  });

  it('offers UTC first and keeps a saved zone the list lacks', () => {
    expect(timeZoneChoices(null)[0]).toBe('UTC');
    expect(timeZoneChoices('Etc/GMT+5')).toContain('Etc/GMT+5');
    expect(calledName(saved)).toBe('Emma');
    expect(calledName({ ...saved, preferred_name: 'Em' })).toBe('Em');
  });
});
