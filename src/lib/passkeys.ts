/**
 * The page's side of a passkey ceremony (navigator.credentials exists only in a window, not in
 * the data worker): @simplewebauthn/browser, loaded on first use so the main chunk does not carry
 * it. Failures come back as words a person can act on, never as a thrown DOMException.
 */
import type * as WebAuthnBrowser from '@simplewebauthn/browser';
import type { PasskeyAssertion, PasskeyOptions, PasskeyRegistration } from '../data-access/types.ts';
import { errorText } from './error-text.ts';

export type CeremonyResult<T> = { ok: true; value: T } | { ok: false; message: string; cancelled: boolean };

export const PASSKEY_CANCELLED_MESSAGE = 'The passkey request was cancelled or timed out. Try again when you are ready.';
export const PASSKEY_UNSUPPORTED_MESSAGE = 'This browser does not support passkeys.';
export const PASSKEY_ALREADY_MESSAGE = 'This device already holds a passkey for your account.';
export const PASSKEY_DOMAIN_MESSAGE =
  'Passkeys only work when Ledgerline is opened at its own web address (https, or localhost), not at an IP address.';

/** WebAuthn is there at all (a secure context with PublicKeyCredential). */
export function passkeysSupported(): boolean {
  return typeof window !== 'undefined' && window.isSecureContext && typeof window.PublicKeyCredential === 'function';
}

/** The words for a failed ceremony; `cancelled` when the person closed the prompt or let it time out. */
export function passkeyErrorText(err: unknown): { message: string; cancelled: boolean } {
  const e = err as { name?: string; code?: string; message?: string } | null;
  const name = e?.name ?? '';
  const code = e?.code ?? '';
  if (name === 'NotAllowedError' || name === 'AbortError' || code === 'ERROR_CEREMONY_ABORTED') {
    return { message: PASSKEY_CANCELLED_MESSAGE, cancelled: true };
  }
  if (code === 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED' || name === 'InvalidStateError') {
    return { message: PASSKEY_ALREADY_MESSAGE, cancelled: false };
  }
  if (name === 'SecurityError' || code === 'ERROR_INVALID_DOMAIN' || code === 'ERROR_INVALID_RP_ID') {
    return { message: PASSKEY_DOMAIN_MESSAGE, cancelled: false };
  }
  if (name === 'NotSupportedError' || code === 'ERROR_MALFORMED_PUBKEYCREDPARAMS') {
    return { message: `${PASSKEY_UNSUPPORTED_MESSAGE} Use another device or a security key.`, cancelled: false };
  }
  return { message: `The passkey could not be used${e?.message ? `: ${e.message}` : '.'}`, cancelled: false };
}

async function ceremony<T>(run: (lib: typeof WebAuthnBrowser) => Promise<T>): Promise<CeremonyResult<T>> {
  if (!passkeysSupported()) return { ok: false, message: PASSKEY_UNSUPPORTED_MESSAGE, cancelled: false };
  try {
    const lib = await import('@simplewebauthn/browser');
    return { ok: true, value: await run(lib) };
  } catch (err) {
    return { ok: false, ...passkeyErrorText(err) };
  }
}

/** Creates a passkey for creation options from the server (registration). */
export function createPasskey(options: PasskeyOptions): Promise<CeremonyResult<PasskeyRegistration>> {
  return ceremony(async (lib) => {
    const r = await lib.startRegistration({ optionsJSON: options as unknown as Parameters<typeof lib.startRegistration>[0]['optionsJSON'] });
    return r as unknown as PasskeyRegistration;
  });
}

/** Signs the server's challenge with one of the person's passkeys (sign-in's second factor, step-up). */
export function signWithPasskey(options: PasskeyOptions): Promise<CeremonyResult<PasskeyAssertion>> {
  return ceremony(async (lib) => {
    const r = await lib.startAuthentication({ optionsJSON: options as unknown as Parameters<typeof lib.startAuthentication>[0]['optionsJSON'] });
    return r as unknown as PasskeyAssertion;
  });
}

/** A worker call's answer as far as a passkey proof reads it. */
type CallAnswer = { ok: boolean; error?: Parameters<typeof errorText>[0] };

/**
 * A passkey as the proof of a call (sign-in's second factor, a step-up): the server's challenge
 * (`passkeyAuthenticationOptions`), the browser's prompt, then `send` with the signed assertion.
 * The call's answer, or the words to show when a step failed.
 */
export async function proveWithPasskey<S extends (webauthn: PasskeyAssertion) => Promise<CallAnswer>>(
  client: { passkeyAuthenticationOptions(): Promise<{ ok: true; options: PasskeyOptions } | CallAnswer> },
  send: S,
): Promise<Extract<Awaited<ReturnType<S>>, { ok: true }> | { ok: false; message: string }> {
  const options = await client.passkeyAuthenticationOptions();
  if (!('options' in options)) return { ok: false, message: errorText(options.error) };
  const signed = await signWithPasskey(options.options);
  if (!signed.ok) return { ok: false, message: signed.message };
  const result = await send(signed.value);
  return result.ok ? (result as Extract<Awaited<ReturnType<S>>, { ok: true }>) : { ok: false, message: errorText(result.error) };
}
