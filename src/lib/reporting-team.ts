import type { UserRow } from '../../schema/entities/spend-user.ts';

/** A manager's team: themselves and every direct or indirect report (as the server's visibility walks it). */
export function teamOf(userId: string, users: readonly Pick<UserRow, 'id' | 'manager_id'>[]): string[] {
  const reports = new Map<string, string[]>();
  for (const u of users) if (u.manager_id) reports.set(u.manager_id, [...(reports.get(u.manager_id) ?? []), u.id]);
  const team = new Set([userId]);
  const queue = [userId];
  // The set stops a reporting cycle from looping forever.
  for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
    for (const r of reports.get(id) ?? []) {
      if (team.has(r)) continue;
      team.add(r);
      queue.push(r);
    }
  }
  return [...team];
}
