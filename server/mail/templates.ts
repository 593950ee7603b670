/**
 * Every mail Ledgerline sends, by template (issue 32). A template names the values it needs; a
 * value that is missing, empty or the text of a lost value ("undefined", "null", "NaN") is refused
 * when the mail is enqueued (MailTemplateError), so no reader ever gets "Hello undefined". Each
 * renders a plain-text body and a simple HTML one built from it (escaped, links clickable).
 */
export type MailTemplateName =
  | 'sign_in_code' | 'verify_email' | 'passwordless_link' | 'invite'
  | 'approval_waiting' | 'rejected' | 'reminder' | 'notice';

type Values = Readonly<Record<string, string | number | null | undefined>>;

type TemplateDef = {
  fields: readonly string[];
  subject: (v: Record<string, string>) => string;
  text: (v: Record<string, string>) => string;
};

const TEMPLATES: Record<MailTemplateName, TemplateDef> = {
  sign_in_code: {
    fields: ['code'],
    subject: () => 'Your Ledgerline verification code',
    text: (v) => `Your verification code is ${v.code}. It expires in 10 minutes.\n\nIf you did not ask for it, you can ignore this email.`,
  },
  verify_email: {
    fields: ['code'],
    subject: () => 'Confirm your Ledgerline email address',
    text: (v) => `Your code to confirm this email address is ${v.code}. It expires in 10 minutes.\n\nIf you did not sign up for Ledgerline, ignore this email.`,
  },
  passwordless_link: {
    fields: ['link'],
    subject: () => 'Your Ledgerline sign-in link',
    text: (v) => `Sign in to Ledgerline: ${v.link}\n\nThe link works once, for 15 minutes.`,
  },
  invite: {
    fields: ['business', 'link'],
    subject: (v) => `You are invited to ${v.business} on Ledgerline`,
    text: (v) => `You have been invited to join ${v.business} on Ledgerline.\n\nAccept the invite: ${v.link}`,
  },
  approval_waiting: {
    fields: ['title', 'link'],
    subject: (v) => v.title!,
    text: (v) => [v.title, v.details, `Review it in Ledgerline: ${v.link}`].filter(Boolean).join('\n\n'),
  },
  rejected: {
    fields: ['title', 'link'],
    subject: (v) => v.title!,
    text: (v) => [v.title, v.details, `Open it in Ledgerline: ${v.link}`].filter(Boolean).join('\n\n'),
  },
  reminder: {
    fields: ['title', 'link'],
    subject: (v) => v.title!,
    text: (v) => [v.details, `Open Ledgerline: ${v.link}`].filter(Boolean).join('\n\n'),
  },
  notice: {
    fields: ['subject', 'body'],
    subject: (v) => v.subject!,
    text: (v) => v.body!,
  },
};

export class MailTemplateError extends Error {
  constructor(readonly template: string, readonly field: string) {
    super(`Mail template "${template}" needs a value for "${field}"; nothing was sent.`);
    this.name = 'MailTemplateError';
  }
}

const LOST = new Set(['undefined', 'null', 'nan', '[object object]']);

function present(v: Values[string]): v is string | number {
  if (v === null || v === undefined) return false;
  if (typeof v === 'number') return Number.isFinite(v);
  const t = v.trim();
  return t.length > 0 && !LOST.has(t.toLowerCase());
}

export type RenderedMail = { template: MailTemplateName; subject: string; text: string; html: string };

/** Renders a template or throws MailTemplateError naming the first missing value. */
export function renderMail(template: MailTemplateName, values: Values): RenderedMail {
  const def = TEMPLATES[template];
  const clean: Record<string, string> = {};
  for (const field of def.fields) {
    const v = values[field];
    if (!present(v)) throw new MailTemplateError(template, field);
    clean[field] = String(v);
  }
  // Optional values (details) are taken only when present: never "undefined" in a body.
  for (const [k, v] of Object.entries(values)) if (!(k in clean) && present(v)) clean[k] = String(v);
  const subject = def.subject(clean).replace(/[\r\n]+/g, ' ').trim();
  const text = def.text(clean);
  return { template, subject, text, html: htmlOf(subject, text) };
}

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
