/** SAML 2.0 service provider (issue 14): IdP metadata, AuthnRequest URLs, response verification, replay guard. */
export { SamlError, type SamlFailure } from './errors.ts';
export { certificateFingerprint, fetchIdpMetadata, parseIdpMetadata, spMetadataXml, type SamlIdp, type SamlSp } from './metadata.ts';
export { samlLoginUrl } from './login.ts';
export { SAML_CLOCK_SKEW_MS, verifySamlResponse, type SamlAssertion } from './verify-response.ts';
export { consumeAssertion } from './replay.ts';
