import { mkdir, readdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { MAX_HRIS_FILE_BYTES } from '../../../schema/hris.ts';
import { startPeriodicJob, type PeriodicJob, type PeriodicJobOptions } from '../../core/periodic-job.ts';
import type { Db } from '../../db/db.ts';
import { applyImport, type HrisMail } from './apply.ts';
import type { ConnectionRow } from './connection.ts';
import { loadConnection } from './connection.ts';
import { createImport, loadImport, sha256Hex } from './imports.ts';

/**
 * The SFTP-style drop (docs/design/issue-32-hris.md): under HRIS_DROP_DIR each connection in drop
 * mode has a folder named by its random drop token (shown on the settings page; an SFTP server
 * chroots the HRIS's account there). New `*.csv` files become imports; the file then moves to
 * `processed/` (its diff waits for review, or was applied when the connection says so) or `failed/`
 * (the file had errors), each with a `.reason.txt` beside it. A file is taken once per business and
 * content even with two server processes: the import row is unique per (business, sha256).
 */
export const hrisDropWatching = (env: NodeJS.ProcessEnv = process.env) => Boolean(env.HRIS_DROP_DIR?.trim());

export type DropOptions = {
  dir: string; mail: HrisMail; now: () => number;
  /** A file still being written is left until it has not changed for this long (default 5 s). */
  settleMs?: number;
};
export type DropOutcome = { business_id: string; file: string; import_id: string | null; moved_to: 'processed' | 'failed' | null; reason: string };

async function moveWithReason(folder: string, name: string, to: 'processed' | 'failed', reason: string, now: number): Promise<boolean> {
  const target = join(folder, to, `${new Date(now).toISOString().replace(/[:.]/g, '-')}-${name}`);
  try {
    await rename(join(folder, name), target);
  } catch (err) {
    // Another process moved it first: it reports the outcome.
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw err;
  }
  await writeFile(`${target}.reason.txt`, `${reason}\n`);
  return true;
}

async function takeFile(db: Db, conn: ConnectionRow, folder: string, name: string, opts: DropOptions): Promise<DropOutcome | null> {
  const now = opts.now();
  const info = await stat(join(folder, name));
  if (now - info.mtimeMs < (opts.settleMs ?? 5000)) return null;
  const base = { business_id: conn.business_id, file: name };
  const move = async (to: 'processed' | 'failed', reason: string, importId: string | null) =>
    ({ ...base, import_id: importId, moved_to: (await moveWithReason(folder, name, to, reason, now)) ? to : null, reason });
  if (info.size > MAX_HRIS_FILE_BYTES) return move('failed', `The file is larger than ${MAX_HRIS_FILE_BYTES / 1024 / 1024} MB.`, null);
  const bytes = new Uint8Array(await readFile(join(folder, name)));
  const id = await db.transaction((tx) => createImport(tx, {
    businessId: conn.business_id, conn, source: 'drop', fileName: name, bytes, createdBy: null, actingUserId: conn.connected_by,
  }));
  if (!id) {
    const [earlier] = await db.query<{ id: string; created_at: string; fresh: boolean }>(
      `SELECT id::text, ll_iso(created_at) AS created_at, created_at > $3::timestamptz AS fresh FROM hris_imports
        WHERE business_id = $1 AND file_sha256 = $2 AND source = 'drop'`,
      [conn.business_id, sha256Hex(bytes), new Date(now - 60_000).toISOString()]);
    // Just taken by another process, which moves it; an old one is the same file dropped again.
    if (!earlier || earlier.fresh) return null;
    return move('processed', `The same file was imported at ${earlier.created_at} (import ${earlier.id}); nothing new to import.`, earlier.id);
  }
  const imp = await loadImport(db, conn.business_id, id);
  if (imp.status === 'invalid') {
    const lines = imp.errors.map((e) => `row ${e.row}${e.column ? ` (${e.column})` : ''}: ${e.message}`);
    return move('failed', [`Not imported: the file has ${lines.length} error(s); nothing was changed.`, ...lines].join('\n'), id);
  }
  if (!conn.auto_apply) return move('processed', `Imported (import ${id}): the diff waits for review in Settings → Integrations → HRIS.`, id);
  try {
    const applied = await db.transaction((tx) => applyImport(tx, { businessId: conn.business_id, importId: id, applierId: null, now, mail: opts.mail }));
    return move('processed', `Imported and applied (import ${id}, status ${applied.status}).`, id);
  } catch (err) {
    return move('processed', `Imported (import ${id}) but not applied: ${err instanceof Error ? err.message : String(err)} Review it in the app.`, id);
  }
}

/** One look at every drop folder: what was taken, where it went and why. */
export async function scanDropFolders(db: Db, opts: DropOptions): Promise<DropOutcome[]> {
  const businesses = await db.query<{ business_id: string }>(`SELECT business_id::text FROM hris_connections WHERE mode = 'drop' ORDER BY business_id`);
  const outcomes: DropOutcome[] = [];
  for (const { business_id } of businesses) {
    const conn = await loadConnection(db, business_id);
    if (!conn || conn.mode !== 'drop') continue;
    const folder = join(opts.dir, conn.drop_token);
    await mkdir(join(folder, 'processed'), { recursive: true });
    await mkdir(join(folder, 'failed'), { recursive: true });
    const entries = await readdir(folder, { withFileTypes: true });
    for (const e of entries.filter((x) => x.isFile() && x.name.toLowerCase().endsWith('.csv')).sort((a, b) => a.name.localeCompare(b.name))) {
      const outcome = await takeFile(db, conn, folder, e.name, opts);
      if (outcome) outcomes.push(outcome);
    }
  }
  return outcomes;
}

/** main.ts starts it when HRIS_DROP_DIR is set: a look every `everyMs` (HRIS_DROP_POLL_SECONDS). */
export function startHrisDropWatcher(db: Db, opts: DropOptions & PeriodicJobOptions): PeriodicJob {
  return startPeriodicJob(() => scanDropFolders(db, opts), opts);
}
