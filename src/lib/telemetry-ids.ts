import type { AppState } from '../data-access/app-state.ts';

/**
 * Who telemetry identifies (§2, issue 31): the spend user and business of the main app's session,
 * with the firm's id when a firm user's token acts in a client; on the advisor console the firm's
 * id alone; on the other surfaces nobody by id. Null signed out.
 */
export function telemetryIds(s: Pick<AppState, 'session' | 'surfaceSession'>) {
  if (s.session) return { spend_user_id: s.session.user.id, business_id: s.session.business.id, external_firm_id: s.session.external_firm_id ?? null };
  if (!s.surfaceSession) return null;
  const { surface } = s.surfaceSession;
  return { spend_user_id: null, business_id: null, external_firm_id: surface.kind === 'ADVISOR_CONSOLE' ? surface.external_firm_id : null };
}
