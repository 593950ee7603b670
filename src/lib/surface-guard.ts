import type { AppState } from '../data-access/app-state.ts';
import { HOME_PATH } from './redirect.ts';

/**
 * Issue 31, the router's guard on the session's surface (in the first load: keep it tiny). The
 * main app and the three surfaces' layouts each admit one kind of session; anyone else goes to
 * their own home, a signed-out visitor to sign-in.
 */
export type SurfaceArea = 'BUSINESS' | 'ADVISOR_CONSOLE' | 'VENDOR_PORTAL' | 'FINANCING_APPLICATION';
type Signed = Pick<AppState, 'session' | 'surfaceSession'>;

/** Each surface's home; the firm applicant's one page sits in the console. */
const HOMES = {
  ADVISOR_CONSOLE: '/console',
  ADVISOR_CONSOLE_APPLICATION: '/console/application',
  VENDOR_PORTAL: '/vendor-portal',
  FINANCING_APPLICATION: '/application',
} as const;

export const SIGN_IN_PATH = '/sign-in';

/** Where the signed-in person's surface starts. */
export const sessionHome = (s: Signed): string => (s.surfaceSession ? HOMES[s.surfaceSession.surface.kind] : HOME_PATH);

/** Where a visit to `pathname` of `area` goes instead: null stays, SIGN_IN_PATH signed out, else the session's home. */
export function surfaceRedirect(s: Signed, area: SurfaceArea, pathname: string): string | null {
  if (!s.session && !s.surfaceSession) return SIGN_IN_PATH;
  const kind = s.surfaceSession?.surface.kind ?? 'BUSINESS';
  const applicant = kind === 'ADVISOR_CONSOLE_APPLICATION';
  if (kind !== area && !(applicant && area === 'ADVISOR_CONSOLE')) return sessionHome(s);
  // The firm applicant sees only the application's page; a firm user never does.
  if (area === 'ADVISOR_CONSOLE' && /^\/console\/application\/?$/.test(pathname) !== applicant) return sessionHome(s);
  return null;
}
