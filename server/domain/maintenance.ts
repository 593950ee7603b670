/**
 * The instance's scheduled maintenance window (issue 32, INFRA_7001): one row in
 * `platform_maintenance`, shared by every process on the database. On until `until`, after which
 * it is simply over (no process has to switch it off); `npm run ops:maintenance` writes it.
 */
import type { MaintenanceState } from '../../schema/api/calls-platform.ts';
import type { Queryable } from '../db/db.ts';

/** The longest window the ops command accepts: a longer pause is an outage, not maintenance. */
export const MAX_MAINTENANCE_HOURS = 72;

export async function maintenanceState(db: Queryable, now: Date): Promise<MaintenanceState> {
  const [row] = await db.query<{ until: string; message: string | null }>(
    'SELECT ll_iso(until) AS until, message FROM platform_maintenance WHERE until > $1',
    [now],
  );
  return row ? { active: true, until: row.until, message: row.message } : { active: false, until: null, message: null };
}

export async function startMaintenance(db: Queryable, until: Date, message: string | null, now: Date): Promise<MaintenanceState> {
  if (!(until.getTime() > now.getTime())) throw new Error('--until must be in the future');
  if (until.getTime() - now.getTime() > MAX_MAINTENANCE_HOURS * 3_600_000) throw new Error(`--until must be within ${MAX_MAINTENANCE_HOURS} hours`);
  if (message !== null && message.length > 500) throw new Error('--message must be at most 500 characters');
  await db.query(
    `INSERT INTO platform_maintenance (id, until, message, started_at) VALUES (1, $1, $2, $3)
     ON CONFLICT (id) DO UPDATE SET until = EXCLUDED.until, message = EXCLUDED.message, started_at = EXCLUDED.started_at`,
    [until, message, now],
  );
  return maintenanceState(db, now);
}

export async function endMaintenance(db: Queryable): Promise<void> {
  await db.query('DELETE FROM platform_maintenance');
}

/**
 * `ops:maintenance -- on --until <iso> [--message <text>]`, `off` or `status`: what the ops
 * command prints. Throws with the reason on a bad command line.
 */
export async function runMaintenanceCommand(db: Queryable, args: readonly string[], now: Date): Promise<string> {
  const [command, ...rest] = args;
  const flag = (name: string) => {
    const i = rest.indexOf(`--${name}`);
    return i >= 0 ? rest[i + 1] : undefined;
  };
  const describe = (s: MaintenanceState) =>
    s.active ? `Maintenance is ON until ${s.until}${s.message ? `: ${s.message}` : ''}. Writes answer 503 INFRA_7001.` : 'Maintenance is off.';
  switch (command) {
    case 'on': {
      const untilText = flag('until');
      const until = untilText ? new Date(untilText) : null;
      if (!until || Number.isNaN(until.getTime()) || !/^\d{4}-\d{2}-\d{2}T/.test(untilText!)) throw new Error('on needs --until <ISO date-time>, e.g. 2026-12-01T06:00:00Z');
      return describe(await startMaintenance(db, until, flag('message') ?? null, now));
    }
    case 'off':
      await endMaintenance(db);
      return describe(await maintenanceState(db, now));
    case 'status':
    case undefined:
      return describe(await maintenanceState(db, now));
    default:
      throw new Error(`Unknown command ${command}: use on --until <iso> [--message <text>], off or status`);
  }
}
