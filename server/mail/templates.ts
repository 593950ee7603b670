/**
 * Every mail Ledgerline sends, by template (issue 32). Each template has typed values
 * (`MailTemplateValues`) and lists the ones it cannot do without; a value that is missing, empty or
 * the text of a lost value ("undefined", "null", "NaN") is refused when the mail is enqueued
 * (MailTemplateError), so no reader ever gets "Hello undefined". Each renders a subject, a
 * plain-text body (what it is, the link, why you got it) and a simple HTML twin (escaped, links
 * clickable). Codes are the only secrets a mail carries.
 */

/** A notification-style mail: the event in one line, what it says, where to open it. */
type Event = { title: string; details?: string | null; link: string };

export type MailTemplateValues = {
  sign_in_code: { code: string };
  verify_email: { code: string };
  passwordless_link: { link: string };
  /** `invited_by`: a person's name (via person) or the integration's (via integration: SCIM, an HRIS). */
  invite: { business: string; invited_by: string; via: 'person' | 'integration'; link: string; expires: string };
  approval_waiting: Event;
  approved: Event;
  rejected: Event;
  reminder: Event;
  mention: Event;
  comment: Event;
  workflow: Event;
  large_transaction: Event;
  /** `account`: bank name and masked number ("Chase ••1234"). */
  bank_debit_check: { account: string; currency: string };
  /**
   * An admin's reminder of the person's missing items (expense-policies/reminders.ts): how many,
   * their total as the reader reads money ("$1,240.50", "$40.00 and €12.00"), the wizard's link.
   */
  missing_items_reminder: { first_name?: string | null; count: number; total: string; link: string };
  /** An approver reminded of a bill waiting for them (bill-approvals.ts): due date as "7 December 2026". */
  bill_approval_reminder: { vendor: string; invoice: string; amount: string; due: string; reminded_by: string; link: string };
  /** A charge held as unusual (fraud.ts): `charge` "£812.40 at Bijouterie Royale on 20 Nov 2026", `card` "•••• 4242 (Travel)". */
  held_charge: { first_name?: string | null; charge: string; card: string; reasons: string; link: string };
  /** The code that confirms the address of a financing application (routes/application-sign-in.ts). */
  application_code: { code: string };
  /** The code that confirms an accounting firm's application (external-firms/apply.ts): `firm` as the applicant typed it. */
  firm_application_code: { firm: string; code: string };
  /** Codes refused for a while after several wrong ones (routes/identity-code-limits.ts). */
  wrong_codes: { minutes: number };
  /** A payer invites a vendor to the vendor network (vendor-network/invites.ts): the link carries the invite's token. */
  vendor_network_invite: { payer: string; vendor: string; link: string };
  /** A payer's payment to a network vendor failed (routes/vendor-network-payer.ts): the link opens the vendor portal. */
  vendor_payment_failed: { payer: string; vendor: string; link: string };
  /** Mails written by their sender (subject and body as given): only through `sendMail`. */
  notice: { subject: string; body: string };
};

export type MailTemplateName = keyof MailTemplateValues;

type RequiredKeys<T> = { [K in keyof T]-?: undefined extends T[K] ? never : K }[keyof T] & string;

type TemplateDef<V> = {
  required: readonly RequiredKeys<V>[];
  subject: (v: V) => string;
  text: (v: V) => string;
};

const MUTE = 'You can turn these emails off in Ledgerline, under your notification settings.';
const EVENT_FIELDS = ['title', 'link'] as const;

/** A notification mail: the title, what it says, the link, why you got it. */
const eventMail = (open: string, why: string, lead = true): TemplateDef<Event> => ({
  required: EVENT_FIELDS,
  subject: (v) => v.title,
  text: (v) => [lead ? v.title : null, v.details, `${open}: ${v.link}`, why].filter(Boolean).join('\n\n'),
});

const items = (n: number | string) => `${n} ${Number(n) === 1 ? 'item' : 'items'}`;
const hello = (firstName?: string | null) => (firstName ? `Hi ${firstName},` : 'Hi,');

const TEMPLATES: { [K in MailTemplateName]: TemplateDef<MailTemplateValues[K]> } = {
  sign_in_code: {
    required: ['code'],
    subject: () => 'Your Ledgerline verification code',
    text: (v) => `Your verification code is ${v.code}. It expires in 10 minutes.\n\n`
      + 'You got this email because someone is signing in to your Ledgerline account or confirming a change to it. '
      + 'Never share this code. If it was not you, change your password.',
  },
  verify_email: {
    required: ['code'],
    subject: () => 'Confirm your Ledgerline email address',
    text: (v) => `Your code to confirm this email address is ${v.code}. It expires in 10 minutes.\n\n`
      + 'You got this email because this address was given for a Ledgerline account. '
      + 'If that was not you, ignore this email: the address stays unconfirmed.',
  },
  passwordless_link: {
    required: ['link'],
    subject: () => 'Your Ledgerline sign-in link',
    text: (v) => `Sign in to Ledgerline: ${v.link} (it works once, for 15 minutes).\n\n`
      + 'You got this email because a sign-in link was asked for this address. '
      + 'If that was not you, ignore it: nobody signs in without opening the link.',
  },
  invite: {
    required: ['business', 'invited_by', 'via', 'link', 'expires'],
    subject: (v) => `You are invited to join ${v.business} on Ledgerline`,
    text: (v) => [
      v.via === 'person'
        ? `${v.invited_by} invited you to join ${v.business} on Ledgerline, where the team handles cards, expenses and bills.`
        : `${v.business} added you to Ledgerline through its ${v.invited_by} connection. Ledgerline is where the team handles cards, expenses and bills.`,
      `Accept the invite: ${v.link} (valid until ${v.expires}).`,
      `You got this email because ${v.business} added this address to its team. If you did not expect it, ignore it: nothing happens until you accept.`,
    ].join('\n\n'),
  },
  approval_waiting: eventMail('Review it in Ledgerline', `You got this email because you approve this step. ${MUTE}`),
  approved: eventMail('Open it in Ledgerline', `You got this email because you asked for this approval. ${MUTE}`),
  rejected: eventMail('Open it in Ledgerline', `You got this email because you asked for this approval. ${MUTE}`),
  reminder: eventMail('Open Ledgerline', `You got this email because your company asks for receipts, memos and coding on its spend. ${MUTE}`, false),
  mention: eventMail('Reply in Ledgerline', `You got this email because you were mentioned in a comment. ${MUTE}`),
  comment: eventMail('Reply in Ledgerline', `You got this email because the comment is on something of yours. ${MUTE}`),
  workflow: eventMail('Open it in Ledgerline', `You got this email because a workflow your admins set up notifies you when this happens. ${MUTE}`),
  large_transaction: eventMail('Open it in Ledgerline', `You got this email because you are an admin of this business. ${MUTE}`),
  bank_debit_check: {
    required: ['account', 'currency'],
    subject: () => 'Verify your bank account',
    text: (v) => `Two small deposits were sent to ${v.account}, each under 1.00 ${v.currency}. They show on the account's statement, usually within two business days.\n\n`
      + 'Enter both amounts in Ledgerline, on the bank account, to verify it. Three wrong tries lock the check.\n\n'
      + 'You got this email because you started a debit check of this account in Ledgerline.',
  },
  missing_items_reminder: {
    required: ['count', 'total', 'link'],
    subject: (v) => `You have ${items(v.count)} missing a receipt, memo or coding`,
    text: (v) => [
      `${hello(v.first_name)} ${items(v.count)} of your card charges and claims (${v.total} in all) still ${Number(v.count) === 1 ? 'needs' : 'need'} `
        + "something your company's expense policy asks for: a receipt, a memo or coding.",
      `Go through them one at a time: ${v.link}`,
      `You got this email because an admin of your company sent you a reminder. ${MUTE}`,
    ].join('\n\n'),
  },
  bill_approval_reminder: {
    required: ['vendor', 'invoice', 'amount', 'due', 'reminded_by', 'link'],
    subject: (v) => `A bill is waiting for your approval: invoice ${v.invoice} from ${v.vendor}`,
    text: (v) => [
      `${v.reminded_by} reminded you that a bill is waiting for your approval:`,
      `${v.vendor}, invoice ${v.invoice}\n${v.amount}, due ${v.due}`,
      `Review it in Ledgerline: ${v.link}`,
      'You got this email because you approve this step of the bill.',
    ].join('\n\n'),
  },
  held_charge: {
    required: ['charge', 'card', 'reasons', 'link'],
    subject: (v) => `Did you make this purchase? ${v.charge}`,
    text: (v) => [
      `${hello(v.first_name)} we held a charge of ${v.charge} on your card ${v.card} because it looks unusual: ${v.reasons}.`,
      `Tell us whether it was you: ${v.link}`,
      "If you don't recognise it, we lock the card at once, open a dispute and you can order a replacement.",
      'You got this email because the charge was made on your Ledgerline card.',
    ].join('\n\n'),
  },
  application_code: {
    required: ['code'],
    subject: () => 'Your Ledgerline application code',
    text: (v) => `Your code to continue your Ledgerline application is ${v.code}. It expires in 10 minutes.\n\n`
      + 'You got this email because a Ledgerline financing application was started or continued with this address. '
      + 'Never share this code. If it was not you, ignore this email.',
  },
  firm_application_code: {
    required: ['firm', 'code'],
    subject: () => 'Your Ledgerline firm application code',
    text: (v) => `Your code to apply for ${v.firm} on Ledgerline is ${v.code}. It expires in 10 minutes.\n\n`
      + 'You got this email because this address applied for an accounting firm account on Ledgerline. '
      + 'Never share this code. If you did not apply, ignore this email.',
  },
  wrong_codes: {
    required: ['minutes'],
    subject: () => 'Wrong verification codes on your Ledgerline account',
    text: (v) => `Someone entered wrong verification codes for your Ledgerline account several times, so codes are refused for the next ${v.minutes} minutes.\n\n`
      + 'If this was not you, your password may be known to someone else: change it.\n\n'
      + 'You got this email because it is about the security of your Ledgerline account.',
  },
  vendor_network_invite: {
    required: ['payer', 'vendor', 'link'],
    subject: (v) => `${v.payer} invites you to get paid through Ledgerline`,
    text: (v) => [
      `${v.payer} pays ${v.vendor} through Ledgerline. Join the vendor network to see your payments and keep your bank details up to date.`,
      `Join: ${v.link}`,
      `You got this email because ${v.payer} gave this address for ${v.vendor}. If you did not expect it, ignore it: nothing changes until you join.`,
    ].join('\n\n'),
  },
  vendor_payment_failed: {
    required: ['payer', 'vendor', 'link'],
    subject: (v) => `${v.payer} could not pay you`,
    text: (v) => [
      `A payment from ${v.payer} to ${v.vendor} failed. Check your bank details in the Ledgerline vendor portal.`,
      `Open the vendor portal: ${v.link}`,
      `You got this email because ${v.payer} pays ${v.vendor} through the Ledgerline vendor network.`,
    ].join('\n\n'),
  },
  notice: {
    required: ['subject', 'body'],
    subject: (v) => v.subject,
    text: (v) => v.body,
  },
};

export class MailTemplateError extends Error {
  constructor(readonly template: string, readonly field: string) {
    super(`Mail template "${template}" needs a value for "${field}"; nothing was sent.`);
    this.name = 'MailTemplateError';
  }
}

const LOST = new Set(['undefined', 'null', 'nan', '[object object]']);

function present(v: unknown): v is string | number {
  if (typeof v === 'number') return Number.isFinite(v);
  if (typeof v !== 'string') return false;
  const t = v.trim();
  return t.length > 0 && !LOST.has(t.toLowerCase());
}

export type RenderedMail = { template: MailTemplateName; subject: string; text: string; html: string };

/** Renders a template or throws MailTemplateError naming the first missing value. */
export function renderMail<K extends MailTemplateName>(template: K, values: MailTemplateValues[K]): RenderedMail {
  const def = TEMPLATES[template] as unknown as TemplateDef<MailTemplateValues[K]>;
  if (!def) throw new MailTemplateError(template, 'template');
  const given = values as Readonly<Record<string, unknown>>;
  const clean: Record<string, string> = {};
  for (const field of def.required) {
    const v = given[field];
    if (!present(v)) throw new MailTemplateError(template, field);
    clean[field] = String(v).trim();
  }
  // Optional values (details) are taken only when present: never "undefined" in a body.
  for (const [k, v] of Object.entries(given)) if (!(k in clean) && present(v)) clean[k] = String(v).trim();
  const typed = clean as unknown as MailTemplateValues[K];
  const subject = def.subject(typed).replace(/[\r\n]+/g, ' ').trim();
  const text = def.text(typed);
  return { template, subject, text, html: htmlOf(subject, text) };
}

/** A date as a reader says it in a mail ("7 December 2026", UTC); '' when it is not a date (refused as missing). */
export function mailDate(iso: string): string {
  const at = new Date(iso);
  return Number.isNaN(at.getTime()) ? '' : at.toLocaleDateString('en-GB', { timeZone: 'UTC', day: 'numeric', month: 'long', year: 'numeric' });
}

/** The names of every template (tests walk them). */
export const MAIL_TEMPLATE_NAMES = Object.keys(TEMPLATES) as MailTemplateName[];

/** The values a template cannot do without. */
export const requiredValues = (template: MailTemplateName): readonly string[] => TEMPLATES[template].required;

const escapeHtml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

const URL_RE = /\bhttps?:\/\/[^\s<>"']+[^\s<>"'.,;:!?)]/g;

function linkify(escaped: string): string {
  return escaped.replace(URL_RE, (u) => `<a href="${u}" style="color:#4f46e5">${u}</a>`);
}

/** A plain, readable HTML twin of the text: paragraphs on blank lines, links clickable. */
export function htmlOf(subject: string, text: string): string {
  const paragraphs = text.split(/\n{2,}/).map((p) => `<p style="margin:0 0 16px">${linkify(escapeHtml(p)).replace(/\n/g, '<br>')}</p>`);
  return [
    '<!doctype html><html><head><meta charset="utf-8">',
    `<title>${escapeHtml(subject)}</title></head>`,
    '<body style="font-family:-apple-system,Segoe UI,Roboto,Helvetica,Arial,sans-serif;font-size:15px;line-height:1.5;color:#111827;background:#ffffff">',
    '<div style="max-width:560px;margin:0 auto;padding:24px">',
    '<p style="margin:0 0 24px;font-weight:600;font-size:16px">Ledgerline</p>',
    ...paragraphs,
    '</div></body></html>',
  ].join('');
}
