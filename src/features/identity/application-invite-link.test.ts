import { describe, expect, it } from 'vitest';
import { inviteLinkOf } from './application-invite-link.ts';

const APP = '11111111-1111-4111-8111-111111111111';
const TOKEN = 'Zx_9-abcdefghijklmnopqrstuvwxyz0123456789AB';

describe('the application invite link', () => {
  it('reads the token and the application of the mailed link', () => {
    expect(inviteLinkOf(`?application=${APP}&invite=${TOKEN}`)).toEqual({ inviteToken: TOKEN, financingApplicationId: APP });
    expect(inviteLinkOf(`?invite=${TOKEN}&application=${APP.toUpperCase()}&ref=X`)).toEqual({ inviteToken: TOKEN, financingApplicationId: APP });
  });

  it('is no invite without one, and broken when a part is missing or not what the server mails', () => {
    expect(inviteLinkOf('')).toBeNull();
    expect(inviteLinkOf('?ref=PARTNER')).toBeNull();
    expect(inviteLinkOf(`?invite=${TOKEN}`)).toBe('broken');
    expect(inviteLinkOf(`?application=not-a-uuid&invite=${TOKEN}`)).toBe('broken');
    expect(inviteLinkOf(`?application=${APP}&invite=short`)).toBe('broken');
    expect(inviteLinkOf(`?application=${APP}&invite=${TOKEN}%3Cscript%3E`)).toBe('broken');
  });
});
