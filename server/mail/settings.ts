/**
 * How this process delivers mail (issue 32, docs/design/issue-32-mail-chat.md): SMTP when
 * SMTP_URL is set (`smtp://user:pass@host:port`, `smtps://…` for TLS from the first byte), else
 * the server log. MAIL_FROM is the From header (default `Ledgerline <no-reply@localhost>`).
 */
export type MailSettings = {
  /** null: no mail server, the server log is the delivery (development, the demo). */
  smtpUrl: string | null;
  from: string;
};

export const DEFAULT_MAIL_FROM = 'Ledgerline <no-reply@localhost>';

export type MailEnv = { SMTP_URL?: string; MAIL_FROM?: string };

/** Refuses a malformed SMTP_URL at start rather than at the first mail. */
export function mailSettingsFrom(env: MailEnv): MailSettings {
  const raw = env.SMTP_URL?.trim() || null;
  if (raw !== null) {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw new Error('SMTP_URL must be a URL like smtp://user:pass@host:587 or smtps://user:pass@host:465');
    }
    if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') throw new Error('SMTP_URL must start with smtp:// or smtps://');
    if (!url.hostname) throw new Error('SMTP_URL names no host');
  }
  return { smtpUrl: raw, from: env.MAIL_FROM?.trim() || DEFAULT_MAIL_FROM };
}

let fromEnv: MailSettings | null = null;

/** The process's settings, read once from the environment (createApp's callers set nothing). */
export function processMailSettings(): MailSettings {
  fromEnv ??= mailSettingsFrom(process.env);
  return fromEnv;
}

/** The domain a Message-ID is minted in: MAIL_FROM's, so receivers see our own ids. */
export function messageIdDomain(from: string): string {
  const m = /@([A-Za-z0-9.-]+)>?\s*$/.exec(from);
  return m?.[1]?.toLowerCase() ?? 'localhost';
}
