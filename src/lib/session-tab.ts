import { TAB_BUSINESS_KEY } from './platform-boot.ts';

/** §3: the business a tab shows is that tab's own (sessionStorage), not shared across tabs. */
export function rememberTabBusiness(businessId: string, storage: Pick<Storage, 'setItem'> = window.sessionStorage): void {
  try {
    storage.setItem(TAB_BUSINESS_KEY, businessId);
  } catch {
    // Storage can be unavailable (private modes): the tab then follows the session's business.
  }
}

/** The tab's business (§3), sent with a sign-in so it opens that business again. */
export function readTabBusiness(storage: Pick<Storage, 'getItem'> = window.sessionStorage): string | null {
  try {
    return storage.getItem(TAB_BUSINESS_KEY);
  } catch {
    return null;
  }
}
