/**
 * Issue 33: evidence of where the load test's server connections wait, for bench/load-test.ts.
 * - `sampleActivity`: polls pg_stat_activity of the benchmarked database every `everyMs` on its own
 *   connection and counts, per (state, wait event, statement), how many backends were in it on
 *   average per sample: "active, Lock:transactionid, UPDATE businesses SET change_seq" is a writer
 *   queued for the business row's lock while holding its pool connection; "idle in transaction,
 *   Client:ClientRead" is a transaction waiting for the server process between its statements.
 * - `summarizeProbes`: joins the probe-<pid>.json files bench/load-probe.ts wrote in the server
 *   processes (pool checkout waits, waiting counts, the phases of each seq-reserving transaction).
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import pg from 'pg';
import type { ProbeFile } from './load-probe.ts';
import { percentile, roundMs } from './stats.ts';

export type ActivityRow = { state: string; wait: string; statement: string; perSample: number };

/** Starts sampling; the returned stop() ends it and answers the rows, busiest first. */
export async function sampleActivity(databaseUrl: string, everyMs = 50): Promise<() => Promise<{ samples: number; rows: ActivityRow[] }>> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const counts = new Map<string, number>();
  let samples = 0;
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      const { rows } = await client.query<{ state: string; wait: string; statement: string }>(
        `SELECT coalesce(state, '') AS state, coalesce(wait_event_type || ':' || wait_event, '') AS wait,
                left(regexp_replace(ltrim(query), '\\s+', ' ', 'g'), 48) AS statement
           FROM pg_stat_activity
          WHERE datname = current_database() AND pid <> pg_backend_pid() AND backend_type = 'client backend'
            AND query NOT LIKE 'LISTEN%'`);
      samples++;
      for (const r of rows) {
        // An idle connection's statement is its last one: only its state matters.
        const key = JSON.stringify([r.state, r.wait, r.state === 'idle' ? '' : r.statement]);
        counts.set(key, (counts.get(key) ?? 0) + 1);
      }
      await new Promise((resolve) => setTimeout(resolve, everyMs));
    }
  })();
  return async () => {
    stopped = true;
    await loop;
    await client.end();
    const rows = [...counts].map(([key, n]) => {
      const [state, wait, statement] = JSON.parse(key) as [string, string, string];
      return { state, wait, statement, perSample: Math.round((n / Math.max(samples, 1)) * 100) / 100 };
    });
    return { samples, rows: rows.sort((a, b) => b.perSample - a.perSample) };
  };
}

export type ProbeSummary = {
  pools: { pool: string; checkouts: number; waitP50Ms: number; waitP99Ms: number; waitingMean: number; waitingMax: number; opened: number; openWaitP50Ms: number; openedServing: number }[];
  /** Under the lock, per statement (first 40 characters): how many, p50 and mean ms; slowest total first. */
  heldStatements: { statement: string; count: number; p50Ms: number; meanMs: number }[];
  locked: { count: number; beforeP50Ms: number; lockWaitP50Ms: number; lockWaitP99Ms: number; holdP50Ms: number; holdP99Ms: number; holdStatementP50Ms: number; holdGapP50Ms: number; statementsHeldP50: number } | null;
};

/** Joins the probe files of one run (every server process); `servingSince`: when the clients started (epoch ms). */
export async function summarizeProbes(dir: string, servingSince = 0): Promise<ProbeSummary> {
  const files = await Promise.all((await readdir(dir)).filter((f) => f.startsWith('probe-')).map(async (f) => JSON.parse(await readFile(join(dir, f), 'utf8')) as ProbeFile));
  const pools: ProbeSummary['pools'] = [];
  const names = new Set(files.flatMap((f) => Object.keys(f.connectWaits)));
  for (const name of names) {
    const waits = files.flatMap((f) => f.connectWaits[name] ?? []);
    // A process whose pool of this name served nothing (the supervisor's) does not dilute the mean.
    const waiting = files.flatMap((f) => (f.connectWaits[name]?.length ? f.waitingSamples[name] ?? [] : []));
    if (waits.length === 0) continue;
    const opens = files.flatMap((f) => f.openWaits?.[name] ?? []);
    pools.push({
      pool: name, checkouts: waits.length, waitP50Ms: roundMs(percentile(waits, 50)), waitP99Ms: roundMs(percentile(waits, 99)),
      waitingMean: Math.round((waiting.reduce((s, n) => s + n, 0) / Math.max(waiting.length, 1)) * 100) / 100, waitingMax: Math.max(0, ...waiting),
      opened: opens.length, openWaitP50Ms: roundMs(percentile(opens.map((o) => o.ms), 50)),
      // Opened once the clients had started: a request waited for that backend.
      openedServing: opens.filter((o) => o.at >= servingSince).length,
    });
  }
  const locked = files.flatMap((f) => f.locked);
  const p = (pick: (l: ProbeFile['locked'][number]) => number, q: number) => roundMs(percentile(locked.map(pick), q));
  const byStatement = new Map<string, number[]>();
  for (const f of files) for (const [sql, ms] of Object.entries(f.heldStatements ?? {})) byStatement.set(sql, [...(byStatement.get(sql) ?? []), ...ms]);
  const heldStatements = [...byStatement].map(([statement, ms]) => ({
    statement, count: ms.length, p50Ms: roundMs(percentile(ms, 50)), meanMs: roundMs(ms.reduce((s, n) => s + n, 0) / ms.length),
  })).sort((a, b) => b.meanMs * b.count - a.meanMs * a.count);
  return {
    pools,
    heldStatements,
    locked: locked.length === 0 ? null : {
      count: locked.length, beforeP50Ms: p((l) => l.beforeMs, 50), lockWaitP50Ms: p((l) => l.lockWaitMs, 50), lockWaitP99Ms: p((l) => l.lockWaitMs, 99),
      holdP50Ms: p((l) => l.holdMs, 50), holdP99Ms: p((l) => l.holdMs, 99), holdStatementP50Ms: p((l) => l.holdStatementMs, 50),
      holdGapP50Ms: p((l) => l.holdGapMs, 50), statementsHeldP50: percentile(locked.map((l) => l.statementsHeld), 50),
    },
  };
}
