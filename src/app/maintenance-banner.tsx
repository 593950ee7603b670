import { useEffect, useState } from 'react';
import type { MaintenanceState } from '../../schema/api/calls-platform.ts';
import { useAppState, useDataClient } from '../data-access/data-context.tsx';
import { formatLocalDateTime } from '../lib/format.ts';

/** How often an open app asks whether a maintenance window started (a public, one-row read). */
const POLL_MS = 120_000;

/**
 * What the banner says during a maintenance window (INFRA_7001): until when, the operator's
 * message, and what still works. Queued changes (transactions, receipts, reimbursements) wait on
 * the device, since the outbox holds a 503 and sends again after its Retry-After; a direct change
 * (settings, payments) is refused until the window ends.
 */
export function maintenanceText(state: MaintenanceState, format: (iso: string) => string = formatLocalDateTime): string | null {
  if (!state.active) return null;
  const until = state.until ? ` until ${format(state.until)}` : '';
  const message = state.message ? ` ${state.message.trim().replace(/([^.!?])$/, '$1.')}` : '';
  return `Scheduled maintenance${until}.${message} You can keep reading and capturing: changes you make wait on this device and are sent when it ends. Settings and payments can’t be changed until then.`;
}

/**
 * The shell's maintenance banner: read on mount, when the connection comes back, when the tab is
 * shown again and every two minutes while open; shown only while the server says a window is on,
 * and gone at its end without a reload (its `until` passes).
 */
export function MaintenanceBanner() {
  const client = useDataClient();
  const online = useAppState((s) => s.online && (s.status?.online ?? true));
  const [state, setState] = useState<MaintenanceState | null>(null);
  const [endedAt, setEndedAt] = useState<number | null>(null);

  useEffect(() => {
    if (!online) return;
    let live = true;
    const read = () =>
      void client.maintenance().then((r) => {
        if (live && r.ok) setState(r.maintenance);
      });
    read();
    const timer = setInterval(read, POLL_MS);
    const onShow = () => document.visibilityState === 'visible' && read();
    document.addEventListener('visibilitychange', onShow);
    return () => {
      live = false;
      clearInterval(timer);
      document.removeEventListener('visibilitychange', onShow);
    };
  }, [client, online]);

  // Hide at the window's end even before the next read.
  const endsAt = state?.active && state.until ? Date.parse(state.until) : null;
  useEffect(() => {
    if (endsAt === null) return;
    const timer = setTimeout(() => setEndedAt(endsAt), Math.max(0, endsAt - Date.now()) + 1000);
    return () => clearTimeout(timer);
  }, [endsAt]);

  if (!state || (endsAt !== null && endedAt === endsAt)) return null;
  const text = maintenanceText(state);
  return text ? (
    <div className="maintenance-banner" role="region" aria-label="Maintenance notice">
      {text}
    </div>
  ) : null;
}
