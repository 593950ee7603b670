/** Why a SAML step was refused; the SSO routes map each to an error code or to words on the sign-in page. */
export type SamlFailure =
  | 'url'
  | 'format'
  | 'signature'
  | 'expired'
  | 'not-yet-valid'
  | 'audience'
  | 'issuer'
  | 'destination'
  | 'in-response-to'
  | 'replayed'
  | 'status'
  | 'no-email';

/** A refusal with its reason; the message is words a person can read (an admin or someone signing in). */
export class SamlError extends Error {
  readonly reason: SamlFailure;
  constructor(reason: SamlFailure, message: string) {
    super(message);
    this.name = 'SamlError';
    this.reason = reason;
  }
}
