/**
 * The development mailbox (`dev.outbox`, a test server started with `devOutbox: true`) read the
 * way a person reads their mail: newest message first, the outbox's own order.
 */
import { devOutbox } from '../../schema/api/calls-identity.ts';

/** Every message mailed to the address, newest first. */
async function mailedTo(serverUrl: string, email: string) {
  const url = new URL(devOutbox.path, serverUrl);
  url.searchParams.set('email', email);
  const res = await fetch(url, { headers: { accept: 'application/json' } });
  return devOutbox.response.parse(await res.json()).messages;
}

/** The six-digit verification code of the newest message mailed to the address. */
export async function mailedCode(serverUrl: string, email: string): Promise<string> {
  const messages = await mailedTo(serverUrl, email);
  const code = /\b(\d{6})\b/.exec(messages[0]?.body ?? '')?.[1];
  if (!code) throw new Error(`no code in the dev outbox for ${email}`);
  return code;
}

/** The newest link like `pattern` mailed to the address. */
export async function mailedLink(serverUrl: string, email: string, pattern: RegExp): Promise<string> {
  const messages = await mailedTo(serverUrl, email);
  const link = messages.map((m) => pattern.exec(m.body)?.[0]).find(Boolean);
  if (!link) throw new Error(`no link like ${pattern} mailed to ${email}`);
  return link;
}
