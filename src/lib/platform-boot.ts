import { detectPlatform, type Platform } from '../../schema/platform.ts';

/**
 * §1 mobile wrapper at boot: the user agent or `is_mobile_app` in the URL; the query flag is
 * remembered in localStorage (with its timestamp) for 5 minutes, so in-app navigation that
 * drops the parameter keeps the mobile rules.
 */
export const MOBILE_FLAG_KEY = 'ledgerline.isMobileAppAt';

type Storage = Pick<globalThis.Storage, 'getItem' | 'setItem' | 'removeItem'>;

export function bootPlatform(env: { userAgent: string; search: string; storage: Storage; now: number }): Platform {
  const raw = Number(env.storage.getItem(MOBILE_FLAG_KEY));
  const rememberedAt = Number.isFinite(raw) && raw > 0 ? raw : null;
  const { platform, remember } = detectPlatform({ userAgent: env.userAgent, search: env.search, rememberedAt, now: env.now });
  if (remember === null) env.storage.removeItem(MOBILE_FLAG_KEY);
  else env.storage.setItem(MOBILE_FLAG_KEY, String(remember));
  return platform;
}

/**
 * §3: the business this tab shows is kept per tab (sessionStorage); `business_id` in a link
 * selects it. Returns the tab's business id after applying the URL.
 */
export const TAB_BUSINESS_KEY = 'ledgerline.businessId';

export function tabBusinessId(search: string, storage: Storage): string | null {
  const fromUrl = new URLSearchParams(search).get('business_id');
  if (fromUrl) storage.setItem(TAB_BUSINESS_KEY, fromUrl);
  return fromUrl ?? storage.getItem(TAB_BUSINESS_KEY);
}
