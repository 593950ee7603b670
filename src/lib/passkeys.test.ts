import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PasskeyAssertion, PasskeyOptions } from '../data-access/types.ts';
import {
  PASSKEY_ALREADY_MESSAGE, PASSKEY_CANCELLED_MESSAGE, PASSKEY_DOMAIN_MESSAGE, PASSKEY_UNSUPPORTED_MESSAGE, passkeyErrorText, proveWithPasskey,
} from './passkeys.ts';

const ASSERTION = { id: 'cred-1', type: 'public-key' } as unknown as PasskeyAssertion;
vi.mock('@simplewebauthn/browser', () => ({ startAuthentication: async () => ASSERTION }));

describe('passkeyErrorText', () => {
  it.each([
    ['a closed or timed-out prompt', { name: 'NotAllowedError' }, PASSKEY_CANCELLED_MESSAGE, true],
    ['an aborted ceremony', { name: 'AbortError', code: 'ERROR_CEREMONY_ABORTED' }, PASSKEY_CANCELLED_MESSAGE, true],
    ['an authenticator registered already', { name: 'InvalidStateError', code: 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED' }, PASSKEY_ALREADY_MESSAGE, false],
    ['an IP address or foreign RP ID', { name: 'SecurityError', code: 'ERROR_INVALID_DOMAIN' }, PASSKEY_DOMAIN_MESSAGE, false],
  ])('%s', (_name, err, message, cancelled) => {
    expect(passkeyErrorText(err)).toEqual({ message, cancelled });
  });

  it('an unsupported algorithm or browser says so', () => {
    expect(passkeyErrorText({ name: 'NotSupportedError' }).message).toContain(PASSKEY_UNSUPPORTED_MESSAGE);
  });

  it('anything else keeps the browser\'s words', () => {
    expect(passkeyErrorText(new Error('boom'))).toEqual({ message: 'The passkey could not be used: boom', cancelled: false });
    expect(passkeyErrorText(null)).toEqual({ message: 'The passkey could not be used.', cancelled: false });
  });
});

describe('proveWithPasskey', () => {
  const options = { challenge: 'c' } as unknown as PasskeyOptions;
  const client = (answer: unknown) => ({ passkeyAuthenticationOptions: async () => answer as never });

  afterEach(() => vi.unstubAllGlobals());

  it('says the server\'s words when it gives no challenge, and sends nothing', async () => {
    const send = vi.fn();
    const refused = client({ ok: false, error: { error_code: 'AUTH_7001', message: 'Sign in again.' } });
    expect(await proveWithPasskey(refused, send)).toEqual({ ok: false, message: 'Sign in again.' });
    expect(send).not.toHaveBeenCalled();
  });

  it('says so in a browser without passkeys, and sends nothing', async () => {
    const send = vi.fn();
    expect(await proveWithPasskey(client({ ok: true, options }), send)).toEqual({ ok: false, message: PASSKEY_UNSUPPORTED_MESSAGE });
    expect(send).not.toHaveBeenCalled();
  });

  it('sends the signed assertion and answers the call\'s result, or its refusal in words', async () => {
    vi.stubGlobal('window', { isSecureContext: true, PublicKeyCredential: function PublicKeyCredential() {} });
    const send = vi.fn(async (webauthn: PasskeyAssertion) => ({ ok: true as const, proof: webauthn }));
    expect(await proveWithPasskey(client({ ok: true, options }), send)).toEqual({ ok: true, proof: ASSERTION });
    expect(send).toHaveBeenCalledWith(ASSERTION);
    const refuse = async () => ({ ok: false as const, error: { error_code: 'AUTH_7002', message: 'That passkey is not yours.' } });
    expect(await proveWithPasskey(client({ ok: true, options }), refuse)).toEqual({ ok: false, message: 'That passkey is not yours.' });
  });
});
