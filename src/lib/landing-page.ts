import { LANDING_PAGES } from '../../schema/api/calls-users.ts';
import { HOME_PATH } from './redirect.ts';

/**
 * Issue 32: the person's start page (preferences `landing_page`), kept on the device when the
 * preferences are read or saved, so opening the app at `/` goes there at once, offline too.
 * Anything unknown is the usual home.
 */
export const LANDING_KEY = 'ledgerline.landing-page';

export function landingPath(storage: Pick<Storage, 'getItem'> | null): string {
  const saved = storage?.getItem(LANDING_KEY) ?? null;
  return saved && (LANDING_PAGES as readonly string[]).includes(saved) ? saved : HOME_PATH;
}

export function rememberLanding(storage: Pick<Storage, 'setItem'>, path: string): void {
  if ((LANDING_PAGES as readonly string[]).includes(path)) storage.setItem(LANDING_KEY, path);
}
