import {
  betaEnrollmentDelete, betaEnrollmentGet, betaEnrollmentPut, cardBrandingDelete, cardBrandingGet, cardBrandingPut, cardLogoGet, cardLogoPut,
  securityContactDelete, securityContactGet, securityContactPut, settingReset, settingsList,
} from '../../schema/api/calls-business-settings.ts';
import { cardReissueState, cardRenewal } from '../../schema/api/calls-card-renewal.ts';
import type { BetaEnrollment, BetaProgrammeId, BusinessSetting, BusinessSettingType, SecurityContact, SecurityContactInput } from '../../schema/business-settings.ts';
import type { CardBranding } from '../../schema/card-branding.ts';
import type { CardReissue, CardRenewal } from '../../schema/card-renewal.ts';
import type { OnlineFailure } from '../contracts/views.ts';
import { answerOf, bindDomain, custom, offlineFailure, onlineDomain, via, type OnlineApi, type OnlinePort } from '../online.ts';

/** Refused before any request: business settings live on the server, nothing mirrored or queued. */
export const BUSINESS_SETTINGS_OFFLINE = offlineFailure('You’re offline. Business settings need a connection: nothing was changed.');

const contact = (c: SecurityContact) => ({ contact: c.contact });
const beta = (b: BetaEnrollment) => ({ programmes: b.programmes });
const branding = (b: CardBranding) => ({ branding: b });
/** A read whose 404 means "none": answered as null. */
const orNull = <T>(r: { ok: true; data: T } | OnlineFailure): { ok: true; data: T | null } | OnlineFailure =>
  r.ok ? r : 'offline' in r || r.error.error_code !== 'REQUEST_7004' ? r : { ok: true, data: null };

/**
 * Issue 32 (calls-business-settings.ts, calls-card-renewal.ts): the settings by type and their
 * reset, the security contact, beta programmes, card branding, and a card's renewal and reissue.
 * Direct calls, online only.
 */
export const BUSINESS_SETTINGS_DOMAIN = onlineDomain(BUSINESS_SETTINGS_OFFLINE, {
  businessSettings: via(settingsList, () => ({}), (d) => ({ settings: d.settings })),
  resetBusinessSetting: via(settingReset, (type: BusinessSettingType) => ({ params: { type } }), (s: BusinessSetting) => ({ setting: s })),
  securityContact: via(securityContactGet, () => ({}), contact),
  saveSecurityContact: via(securityContactPut, (body: SecurityContactInput) => ({ body }), contact),
  removeSecurityContact: via(securityContactDelete, () => ({}), contact),
  betaEnrollment: via(betaEnrollmentGet, () => ({}), beta),
  joinBetaProgrammes: via(betaEnrollmentPut, (programmes: BetaProgrammeId[]) => ({ body: { programmes } }), beta),
  leaveBetaProgrammes: via(betaEnrollmentDelete, () => ({}), beta),
  cardBranding: via(cardBrandingGet, () => ({}), branding),
  saveCardColor: via(cardBrandingPut, (color: string | null) => ({ body: { color } }), branding),
  removeCardBranding: via(cardBrandingDelete, () => ({}), branding),
  /** A PNG or JPEG as the card logo (admins); the server checks the bytes and the pixel size. */
  uploadCardLogo: custom((send) => async (file: Blob): Promise<{ ok: true; branding: CardBranding } | OnlineFailure> => {
    const r = await send(cardLogoPut, { file: { body: file, contentType: file.type } });
    return r.ok ? { ok: true, branding: r.data } : r;
  }),
  /** The card logo as a Blob (null when the business has none). */
  cardLogo: custom((_send, port, offline) => async (): Promise<{ ok: true; file: Blob | null } | OnlineFailure> => {
    if (!port.hub.online) return offline;
    const r = orNull(answerOf(port, await port.requireHttp().blob(cardLogoGet, {}), offline));
    return r.ok ? { ok: true, file: r.data } : r;
  }),
  /** The card's renewal (null: it has no expiry to renew). */
  cardRenewal: custom((send) => async (cardId: string): Promise<{ ok: true; renewal: CardRenewal | null } | OnlineFailure> => {
    const r = orNull(await send(cardRenewal, { params: { card_uuid: cardId } }));
    return r.ok ? { ok: true, renewal: r.data } : r;
  }),
  /** The card's reissue (null: never reissued). */
  cardReissue: custom((send) => async (cardId: string): Promise<{ ok: true; reissue: CardReissue | null } | OnlineFailure> => {
    const r = orNull(await send(cardReissueState, { params: { card_uuid: cardId } }));
    return r.ok ? { ok: true, reissue: r.data } : r;
  }),
});

export type BusinessSettingsApi = OnlineApi<typeof BUSINESS_SETTINGS_DOMAIN>;

export const businessSettingsWorkerHandlers = (port: OnlinePort): BusinessSettingsApi => bindDomain(port, BUSINESS_SETTINGS_DOMAIN);
