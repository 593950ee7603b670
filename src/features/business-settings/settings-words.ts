import type { BusinessSetting } from '../../../schema/business-settings.ts';

/** What resetting a setting does, in words for the confirmation. */
export function resetQuestion(s: Pick<BusinessSetting, 'type' | 'summary' | 'default_summary'>): string {
  const back = `It goes from “${s.summary}” back to “${s.default_summary}”.`;
  switch (s.type) {
    case 'merchant_restrictions':
      return `${back} Cards can be used at every merchant category their own rules allow.`;
    case 'transaction_notify_threshold':
      return `${back} Admins stop getting large transaction alerts.`;
    case 'security_contact':
      return `${back} The contact is told by email; only admins hear about security changes.`;
    case 'card_branding':
      return `${back} The logo and colour leave every virtual card.`;
    case 'beta_enrollment':
      return `${back} The flags the programmes turned on go back to the business’s own settings.`;
  }
}

/** A security contact form's fields checked as the server checks them (null: fine). */
export function contactProblems(c: { name: string; email: string; phone: string }): Partial<Record<'name' | 'email' | 'phone', string>> {
  const out: Partial<Record<'name' | 'email' | 'phone', string>> = {};
  if (!c.name.trim()) out.name = 'Enter the contact’s name.';
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(c.email.trim())) out.email = 'Enter an email address like name@example.com.';
  if (c.phone.trim() && !/^\+?[0-9 ()-]{7,20}$/.test(c.phone.trim())) out.phone = 'Enter a phone number: digits, with + and spaces if you like.';
  return out;
}
