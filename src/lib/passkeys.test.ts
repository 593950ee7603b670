import { describe, expect, it } from 'vitest';
import {
  PASSKEY_ALREADY_MESSAGE, PASSKEY_CANCELLED_MESSAGE, PASSKEY_DOMAIN_MESSAGE, PASSKEY_UNSUPPORTED_MESSAGE, passkeyErrorText,
} from './passkeys.ts';

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
