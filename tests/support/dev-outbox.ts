/**
 * The development mailbox (`dev.outbox`, a test server started with `devOutbox: true`) read the
 * way a person reads their mail: newest message first, the outbox's own order.
 */
import { devOutbox } from '../../schema/api/calls-identity.ts';

type Mail = ReturnType<typeof devOutbox.response.parse>['messages'][number];

/** Every message mailed to the address, newest first. */
async function mailedTo(serverUrl: string, email: string): Promise<Mail[]> {
  const url = new URL(devOutbox.path, serverUrl);
  url.searchParams.set('email', email);
  const res = await fetch(url, { headers: { accept: 'application/json' } });
  return devOutbox.response.parse(await res.json()).messages;
}

/**
 * What `pick` finds in the address's messages (newest first), asked again until it finds
 * something: a mail is sent after the request that causes it has answered, and on a loaded
 * machine the test reads the mailbox first. Throws `what` with the messages when `timeoutMs` passes.
 */
export async function waitForMail<T>(
  serverUrl: string, email: string, pick: (messages: Mail[]) => T | undefined, what: string, timeoutMs = 30_000,
): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const messages = await mailedTo(serverUrl, email);
    const found = pick(messages);
    if (found !== undefined) return found;
    if (Date.now() > until) throw new Error(`${what} (${email}): ${JSON.stringify(messages.slice(0, 2))}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** The six-digit verification code of the newest message mailed to the address. */
export async function mailedCode(serverUrl: string, email: string): Promise<string> {
  return waitForMail(serverUrl, email, (messages) => /\b(\d{6})\b/.exec(messages[0]?.body ?? '')?.[1], 'no code in the dev outbox');
}

/** The newest link like `pattern` mailed to the address. */
export async function mailedLink(serverUrl: string, email: string, pattern: RegExp): Promise<string> {
  return waitForMail(serverUrl, email, (messages) => messages.map((m) => pattern.exec(m.body)?.[0]).find(Boolean), `no link like ${pattern} mailed`);
}
