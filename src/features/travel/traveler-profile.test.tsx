import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { TravelerProfile } from '../../../schema/travel-policy.ts';
import { createAppStore } from '../../data-access/app-state.ts';
import { DataProvider } from '../../data-access/data-context.tsx';
import type { DataClient } from '../../data-access/types.ts';
import { profileValues } from './profile-form.ts';
import { LoyaltyFieldset, ProfileForm } from './traveler-profile.tsx';

/** The profile form's first render on the server renderer (no DOM: effects and the worker are not run). */
const saved: TravelerProfile = {
  legal_first_name: 'Ana', legal_middle_name: null, legal_last_name: 'Ruiz', date_of_birth_masked: '••••-••-14', known_traveler_number_last_four: '4567',
  loyalty_programs: [{ airline_code: 'UA', number_last_four: '7766' }, { airline_code: 'DL', number_last_four: '1122' }], seat_preference: 'AISLE',
  updated_at: '2026-11-20T09:00:00Z',
};

const render = (profile: TravelerProfile | null) => renderToStaticMarkup(
  <DataProvider client={{} as DataClient} store={createAppStore(true)}>
    <ProfileForm profile={profile} onCancel={() => {}} onSaved={() => {}} />
  </DataProvider>,
);
const text = (html: string) => html.replace(/<[^>]+>/g, '');

describe('ProfileForm', () => {
  it('shows each saved loyalty program as its own row with Edit and Remove, and offers to remove the known traveler number', () => {
    const html = render(saved);
    expect(text(html)).toContain('UA••••7766Edit program 1Remove program 1');
    expect(text(html)).toContain('DL••••1122Edit program 2Remove program 2');
    expect(html).not.toContain('Airline code, program 1');
    expect(text(html)).toContain('Remove the saved known traveler number (••••4567)');
    expect(text(html)).toContain('Add a program');
  });

  it('has no known traveler number to remove on a first profile', () => {
    const html = render(null);
    expect(html).not.toContain('Remove the saved known traveler number');
    expect(text(html)).toContain('None.');
  });
});

describe('LoyaltyFieldset', () => {
  const fieldset = (rows: ReturnType<typeof profileValues>['loyalty'], errors: Record<string, string> = {}) =>
    renderToStaticMarkup(<LoyaltyFieldset rows={rows} savedCount={2} errors={errors} onChange={() => {}} />);

  it('opens one row for editing, the others stay as they are', () => {
    const rows = profileValues(saved).loyalty.map((l, i) => (i === 1 ? { ...l, editing: true } : l));
    const html = fieldset(rows);
    expect(html).toContain('Airline code, program 2');
    expect(html).toContain('Saved: ••••1122');
    expect(html).not.toContain('Airline code, program 1');
    expect(html).not.toContain('type again');
  });

  it('after removing a saved program asks for the kept one’s number, since the list is saved whole', () => {
    const html = fieldset(profileValues(saved).loyalty.slice(1));
    expect(html).toContain('type again the numbers of the saved ones you keep');
    expect(html).toContain('Number, program 1');
    expect(html).toContain('Saved: ••••1122');
  });
});
