import { z } from 'zod';
import { defineCall, uploadBodySchema } from './define-call.ts';
import {
  betaEnrollmentInputSchema, betaEnrollmentSchema, businessSettingSchema, businessSettingTypeSchema, securityContactInputSchema,
  securityContactSchema,
} from '../business-settings.ts';
import { CARD_LOGO_CONTENT_TYPES, CARD_LOGO_MAX_BYTES, cardBrandingInputSchema, cardBrandingSchema } from '../card-branding.ts';

/**
 * Issue 32, §7 Businesses: settings by type and their reset (`DELETE setting/{type}`), the security
 * contact (`DELETE security/contact`), beta enrollment (`DELETE beta-enrollment`) and card branding
 * (`/card-branding`, `DELETE businesses/card-branding`). Always the caller's own business (no id
 * names another). Writes and the settings list: owners and admins (403 FORBIDDEN_7003 to anyone
 * else); the branding and the beta programmes are read by every member (cards show the branding).
 */
const auth = { scopes: ['default'] } as const;
const B = '/v1/auth/businesses';
const typeParams = z.object({ type: businessSettingTypeSchema });

export const settingsList = defineCall({
  id: 'businesses.settings.list', method: 'GET', path: `${B}/settings`, auth,
  response: z.object({ settings: z.array(businessSettingSchema) }),
});
/** Resets one setting to its default (an unknown type is 422 on `type`); answers the setting as it now is. */
export const settingReset = defineCall({
  id: 'businesses.settings.reset', method: 'DELETE', path: `${B}/setting/:type`, auth, params: typeParams,
  response: businessSettingSchema,
});

const CONTACT = `${B}/security/contact`;
export const securityContactGet = defineCall({ id: 'businesses.securityContact.get', method: 'GET', path: CONTACT, auth, response: securityContactSchema });
export const securityContactPut = defineCall({
  id: 'businesses.securityContact.put', method: 'PUT', path: CONTACT, auth, body: securityContactInputSchema, response: securityContactSchema,
});
/** 404 when none is set. */
export const securityContactDelete = defineCall({
  id: 'businesses.securityContact.delete', method: 'DELETE', path: CONTACT, auth, response: securityContactSchema,
});

const BETA = `${B}/beta-enrollment`;
export const betaEnrollmentGet = defineCall({ id: 'businesses.betaEnrollment.get', method: 'GET', path: BETA, auth, response: betaEnrollmentSchema });
/** Joins the named programmes (those already joined stay joined). */
export const betaEnrollmentPut = defineCall({
  id: 'businesses.betaEnrollment.put', method: 'PUT', path: BETA, auth, body: betaEnrollmentInputSchema, response: betaEnrollmentSchema,
});
/** Leaves every programme (404 when enrolled in none). */
export const betaEnrollmentDelete = defineCall({
  id: 'businesses.betaEnrollment.delete', method: 'DELETE', path: BETA, auth, response: betaEnrollmentSchema,
});

const BRANDING = `${B}/card-branding`;
export const cardBrandingGet = defineCall({ id: 'businesses.cardBranding.get', method: 'GET', path: BRANDING, auth, response: cardBrandingSchema });
/** The card colour (null: the default design). */
export const cardBrandingPut = defineCall({
  id: 'businesses.cardBranding.put', method: 'PUT', path: BRANDING, auth, body: cardBrandingInputSchema, response: cardBrandingSchema,
});
/** Removes the logo and the colour (404 when there is neither). */
export const cardBrandingDelete = defineCall({
  id: 'businesses.cardBranding.delete', method: 'DELETE', path: BRANDING, auth, response: cardBrandingSchema,
});
/** The logo: PNG or JPEG (SVG refused), within the size and pixel bounds of schema/card-branding.ts. */
export const cardLogoPut = defineCall({
  id: 'businesses.cardBranding.logoPut', method: 'PUT', path: `${BRANDING}/logo`, auth,
  body: uploadBodySchema, upload: { contentTypes: CARD_LOGO_CONTENT_TYPES, maxBytes: CARD_LOGO_MAX_BYTES }, response: cardBrandingSchema,
});
/** The logo's bytes for any member (404 without one). */
export const cardLogoGet = defineCall({
  id: 'businesses.cardBranding.logoGet', method: 'GET', path: `${BRANDING}/logo`, auth, response: z.string(),
});

export const BUSINESS_SETTING_CALLS = [
  settingsList, settingReset, securityContactGet, securityContactPut, securityContactDelete, betaEnrollmentGet, betaEnrollmentPut,
  betaEnrollmentDelete, cardBrandingGet, cardBrandingPut, cardBrandingDelete, cardLogoPut, cardLogoGet,
] as const;
