import { SAML, ValidateInResponseTo, type SamlConfig } from '@node-saml/node-saml';
import { newSamlId, type SamlIdp, type SamlSp } from './metadata.ts';
import { NAMEID_EMAIL } from './xml.ts';

const toPem = (certBase64Der: string): string =>
  `-----BEGIN CERTIFICATE-----\n${certBase64Der.replace(/\s+/g, '').replace(/(.{64})/g, '$1\n').replace(/\n$/, '')}\n-----END CERTIFICATE-----\n`;

/**
 * node-saml configured as we use it. It checks signatures (and their placement) only: time,
 * audience and InResponseTo are ours (verify-response.ts), because node-saml reads the wall clock
 * itself and answers every refusal as a plain Error, and we need `now` injected and a reason each.
 */
export function samlClient(sp: SamlSp, idp: SamlIdp, generateUniqueId: () => string = newSamlId): SAML {
  const config: SamlConfig = {
    idpCert: idp.certificates.map(toPem),
    issuer: sp.entityId,
    callbackUrl: sp.acsUrl,
    entryPoint: idp.ssoUrl,
    identifierFormat: NAMEID_EMAIL,
    // The default asks for PasswordProtectedTransport exactly, which IdPs refuse when the person
    // signs in with a passkey or MFA push; leave the method to the IdP.
    disableRequestedAuthnContext: true,
    generateUniqueId,
    acceptedClockSkewMs: -1,
    audience: false,
    wantAssertionsSigned: false,
    wantAuthnResponseSigned: false,
    validateInResponseTo: ValidateInResponseTo.never,
  };
  return new SAML(config);
}

/** Redirect-binding AuthnRequest URL to the IdP carrying relayState; keep requestId to check InResponseTo. */
export async function samlLoginUrl(sp: SamlSp, idp: SamlIdp, relayState: string): Promise<{ url: string; requestId: string }> {
  const requestId = newSamlId();
  const url = await samlClient(sp, idp, () => requestId).getAuthorizeUrlAsync(relayState, undefined, {});
  return { url, requestId };
}
