/**
 * A software passkey for tests: an EC P-256 key made with node:crypto that answers WebAuthn
 * ceremonies the way a browser + authenticator would — attestation 'none' for registration, an
 * ES256 assertion for authentication — built by hand (authenticator data, COSE key, CBOR,
 * clientDataJSON) so tests can also bend any part (origin, challenge, counter).
 */
import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { isoBase64URL, isoCBOR } from '@simplewebauthn/server/helpers';
import type { AuthenticationResponse, RegistrationResponse } from '../../schema/webauthn.ts';

const b64url = (bytes: Uint8Array) => isoBase64URL.fromBuffer(Uint8Array.from(bytes));
const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest();
const u32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
};

/** UP (user present) and UV (user verified); AT marks attested credential data. */
const FLAGS = { up: 0x01, uv: 0x04, at: 0x40 };

export type CeremonyOverrides = { origin?: string; challenge?: string; rpId?: string; type?: string; counter?: number };

export class SoftPasskey {
  readonly credentialId = randomBytes(32);
  private readonly privateKey: KeyObject;
  private readonly cose: Uint8Array;
  /** The signature counter the next assertion reports (then increments); tests may set it back. */
  counter = 0;

  constructor(readonly rpId = 'localhost', readonly origin = 'http://localhost') {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    this.privateKey = privateKey;
    const jwk = publicKey.export({ format: 'jwk' });
    const coseKey = new Map<number, number | Uint8Array>([
      [1, 2], // kty: EC2
      [3, -7], // alg: ES256
      [-1, 1], // crv: P-256
      [-2, Buffer.from(jwk.x!, 'base64url')],
      [-3, Buffer.from(jwk.y!, 'base64url')],
    ]);
    this.cose = isoCBOR.encode(coseKey);
  }

  get id(): string {
    return b64url(this.credentialId);
  }

  private clientData(type: string, challenge: string, o: CeremonyOverrides): Buffer {
    return Buffer.from(JSON.stringify({ type: o.type ?? type, challenge: o.challenge ?? challenge, origin: o.origin ?? this.origin, crossOrigin: false }));
  }

  /** navigator.credentials.create's answer to creation options with this challenge. */
  register(challenge: string, o: CeremonyOverrides = {}): RegistrationResponse {
    const idLen = Buffer.alloc(2);
    idLen.writeUInt16BE(this.credentialId.length);
    const authData = Buffer.concat([
      sha256(o.rpId ?? this.rpId), Buffer.from([FLAGS.up | FLAGS.uv | FLAGS.at]), u32(0),
      Buffer.alloc(16), idLen, this.credentialId, this.cose,
    ]);
    const attestation = isoCBOR.encode(new Map<string, unknown>([['fmt', 'none'], ['attStmt', new Map()], ['authData', authData]]) as never);
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key',
      response: {
        clientDataJSON: b64url(this.clientData('webauthn.create', challenge, o)),
        attestationObject: b64url(attestation),
        transports: ['internal'],
      },
      authenticatorAttachment: 'platform',
      clientExtensionResults: {},
    };
  }

  /** navigator.credentials.get's answer to request options with this challenge. */
  assert(challenge: string, o: CeremonyOverrides = {}): AuthenticationResponse {
    this.counter = o.counter ?? this.counter + 1;
    const authData = Buffer.concat([sha256(o.rpId ?? this.rpId), Buffer.from([FLAGS.up | FLAGS.uv]), u32(this.counter)]);
    const clientData = this.clientData('webauthn.get', challenge, o);
    const signature = sign('sha256', Buffer.concat([authData, sha256(clientData)]), this.privateKey);
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key',
      response: { clientDataJSON: b64url(clientData), authenticatorData: b64url(authData), signature: b64url(signature) },
      authenticatorAttachment: 'platform',
      clientExtensionResults: {},
    };
  }
}
