import type { AppState } from '../data-access/app-state.ts';
import { HOME_PATH } from './redirect.ts';

/**
 * Issue 31, the router's guard on the session's surface (in the first load: keep it tiny). The
 * main app and the three surfaces each admit one kind of session; anyone else goes to their own
 * home, a signed-out visitor to sign-in. The console's split between the firm applicant's one page
 * and the firm user's pages is the console shell's (features/surfaces/surface-layout.tsx).
 */
export type SurfaceArea = 'BUSINESS' | 'ADVISOR_CONSOLE' | 'VENDOR_PORTAL' | 'FINANCING_APPLICATION';
type Signed = Pick<AppState, 'session' | 'surfaceSession'>;

/** Each surface's home and the area it belongs to; the firm applicant's one page sits in the console. */
const SURFACES: Record<NonNullable<Signed['surfaceSession']>['surface']['kind'], readonly [home: string, area: SurfaceArea]> = {
  ADVISOR_CONSOLE: ['/console', 'ADVISOR_CONSOLE'],
  ADVISOR_CONSOLE_APPLICATION: ['/console/application', 'ADVISOR_CONSOLE'],
  VENDOR_PORTAL: ['/vendor-portal', 'VENDOR_PORTAL'],
  FINANCING_APPLICATION: ['/application', 'FINANCING_APPLICATION'],
};

/** Where the signed-in person's surface starts. */
export const sessionHome = (s: Signed): string => (s.surfaceSession ? SURFACES[s.surfaceSession.surface.kind][0] : HOME_PATH);

/** Where a visit to `area` goes instead: null stays, '/sign-in' signed out, else the session's home. */
export function surfaceRedirect(s: Signed, area: SurfaceArea): string | null {
  if (!s.session && !s.surfaceSession) return '/sign-in';
  return (s.surfaceSession ? SURFACES[s.surfaceSession.surface.kind][1] : 'BUSINESS') === area ? null : sessionHome(s);
}
