import { z } from 'zod';

/**
 * Passkeys (WebAuthn) on the wire: the JSON forms of the browser's PublicKeyCredential that
 * @simplewebauthn/browser sends (RegistrationResponseJSON, AuthenticationResponseJSON), bounded
 * so no field is unreasonably large, and the authenticators list of Settings. The server checks
 * every signature and the challenge; these schemas only refuse what is not even the right shape.
 */
const b64url = (name: string, max: number) =>
  z.string().max(max).regex(/^[A-Za-z0-9_-]*$/, `${name} must be a valid base64url string`);

/** A credential id: 16–1023 bytes (WebAuthn §5.8.3), i.e. at most 1364 base64url characters. */
const credentialId = (name: string) => b64url(name, 1366).min(16, `${name} must be a valid credential id`);

/** Future transports must not break registration: unknown names are kept out server-side. */
const transports = z.array(z.string().max(32)).max(10);
const clientExtensionResults = z.record(z.string().max(64), z.unknown());
const attachment = z.enum(['platform', 'cross-platform']);

export const registrationResponseSchema = z.object({
  id: credentialId('id'),
  rawId: credentialId('rawId'),
  type: z.literal('public-key'),
  response: z.object({
    clientDataJSON: b64url('response.clientDataJSON', 8192).min(1),
    attestationObject: b64url('response.attestationObject', 65_536).min(1),
    authenticatorData: b64url('response.authenticatorData', 65_536).optional(),
    transports: transports.optional(),
    publicKeyAlgorithm: z.number().int().optional(),
    publicKey: b64url('response.publicKey', 8192).optional(),
  }),
  authenticatorAttachment: attachment.optional(),
  clientExtensionResults,
});
export type RegistrationResponse = z.infer<typeof registrationResponseSchema>;

export const authenticationResponseSchema = z.object({
  id: credentialId('id'),
  rawId: credentialId('rawId'),
  type: z.literal('public-key'),
  response: z.object({
    clientDataJSON: b64url('response.clientDataJSON', 8192).min(1),
    authenticatorData: b64url('response.authenticatorData', 65_536).min(1),
    signature: b64url('response.signature', 2048).min(1),
    userHandle: b64url('response.userHandle', 128).optional(),
  }),
  authenticatorAttachment: attachment.optional(),
  clientExtensionResults,
});
export type AuthenticationResponse = z.infer<typeof authenticationResponseSchema>;

const PASSKEY_NAME_MAX = 64;
export const passkeyNameSchema = z
  .string()
  .trim()
  .min(1, 'name is required')
  .max(PASSKEY_NAME_MAX, `name must be at most ${PASSKEY_NAME_MAX} characters`);

/** The second factors a person can have; mfa.send / mfa.check list the enrolled ones. */
export const secondFactorSchema = z.enum(['totp', 'webauthn']);
export type SecondFactor = z.infer<typeof secondFactorSchema>;

/** One row of Settings → Security's list: an authenticator app or a passkey. */
export const authenticatorSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('totp'),
    id: z.uuid(),
    name: z.string(),
    created_at: z.iso.datetime({ offset: true }),
    last_used_at: z.null(),
  }),
  z.object({
    type: z.literal('webauthn'),
    id: z.uuid(),
    name: z.string(),
    created_at: z.iso.datetime({ offset: true }),
    last_used_at: z.iso.datetime({ offset: true }).nullable(),
    /** multiDevice: a synced passkey (iCloud Keychain, Google Password Manager); singleDevice: a security key. */
    device_type: z.enum(['singleDevice', 'multiDevice']),
    backed_up: z.boolean(),
    transports: z.array(z.string()),
  }),
]);
export type Authenticator = z.infer<typeof authenticatorSchema>;

/**
 * The ceremony options the browser needs (PublicKeyCredentialCreationOptionsJSON /
 * PublicKeyCredentialRequestOptionsJSON). Loose: the server builds them with @simplewebauthn/server
 * and the browser library reads them; the client only needs to know there is a challenge.
 */
export const creationOptionsSchema = z.looseObject({
  challenge: z.string(),
  rp: z.looseObject({ name: z.string(), id: z.string().optional() }),
  user: z.looseObject({ id: z.string(), name: z.string(), displayName: z.string() }),
  pubKeyCredParams: z.array(z.looseObject({ alg: z.number(), type: z.literal('public-key') })),
});
export const requestOptionsSchema = z.looseObject({
  challenge: z.string(),
  rpId: z.string().optional(),
  allowCredentials: z.array(z.looseObject({ id: z.string(), type: z.literal('public-key') })).optional(),
});

/** App attest: a wrapper's evidence, by platform. The server checks the challenge and the shape only. */
const base64 = (name: string, max: number) =>
  z.string().min(1).max(max).regex(/^[A-Za-z0-9+/_-]+={0,2}$/, `${name} must be a valid base64 string`);
const appAttestChallengeSchema = b64url('challenge', 128).min(16, 'challenge must be a valid challenge');
export const appAttestBodySchema = z.discriminatedUnion('platform', [
  z.object({
    platform: z.literal('ios'),
    challenge: appAttestChallengeSchema,
    /** DCAppAttestService's key identifier (base64 of the key's SHA-256). */
    key_id: base64('key_id', 128),
    /** The CBOR attestation object attestKey returned, base64. */
    attestation_object: base64('attestation_object', 65_536),
  }),
  z.object({
    platform: z.literal('android'),
    challenge: appAttestChallengeSchema,
    /** A Play Integrity token (compact JWS/JWE) requested with the challenge as its nonce. */
    integrity_token: z.string().min(1).max(16_384).regex(/^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]*){2,4}$/, 'integrity_token must be a valid token'),
  }),
]);
