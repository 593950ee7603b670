import { describe, expect, it } from 'vitest';
import { businessChoices } from './business-choices.ts';

describe('businessChoices', () => {
  it('names each spend user’s business, keeping order and roles', () => {
    const users = [
      { id: 'u1', business_id: 'b1', role: 'BUSINESS_OWNER' as const },
      { id: 'u2', business_id: 'b2', role: 'VENDOR_NETWORK_ADMIN' as const },
    ];
    expect(businessChoices(users, [{ id: 'b2', name: 'Beta' }, { id: 'b1', name: 'Alpha' }])).toEqual([
      { id: 'b1', name: 'Alpha', role: 'BUSINESS_OWNER', user_id: 'u1' },
      { id: 'b2', name: 'Beta', role: 'VENDOR_NETWORK_ADMIN', user_id: 'u2' },
    ]);
  });

  it('falls back to the id when the server sent no names', () => {
    expect(businessChoices([{ id: 'u1', business_id: 'b1', role: 'BUSINESS_USER' }], undefined)).toEqual([
      { id: 'b1', name: 'b1', role: 'BUSINESS_USER', user_id: 'u1' },
    ]);
  });
});
