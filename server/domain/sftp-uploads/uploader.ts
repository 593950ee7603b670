import Papa from 'papaparse';
import type { RowOf } from '../../../schema/collections.ts';
import { exportHeader, exportRow } from '../../../schema/exports.ts';
import { claimDue, completeLeased, doublingBackoff, failLeased, type LeasedQueue } from '../../core/leased-queue.ts';
import { startPeriodicJob, type PeriodicJob } from '../../core/periodic-job.ts';
import type { Db, Queryable } from '../../db/db.ts';
import { COLLECTIONS } from '../collections.ts';
import { businessNames } from '../reporting/export.ts';
import { openCredentials, type StoredCredentials } from './credentials.ts';
import { nextRunAt, queueUpload, SFTP_CHANNEL } from './destinations.ts';
import { SftpRefused, uploadFile, type SftpNet } from './transfer.ts';

/**
 * Issue 32: the SFTP uploads run as leased rows (server/core/leased-queue.ts): a claim commits
 * before the work, so two processes never run one upload while its lease lasts, and an upload
 * whose process died is taken again when the lease ends. Exactly-once content rests on
 * `sftp_upload_items` (PRIMARY KEY destination + transaction): the first attempt records which
 * cleared transactions the upload carries (those no earlier upload of the destination carries);
 * every attempt writes the same file from that record under the same name (replacing what a
 * crashed attempt left), and a failed upload releases its rows for the next one (no gaps).
 */
export const SFTP_UPLOADS: LeasedQueue = {
  table: 'sftp_uploads',
  // Longer than the transfer's own 120 s limit, so a live attempt never loses its lease.
  leaseMs: 300_000,
  maxAttempts: 3,
  backoffMs: doublingBackoff(60_000, 30 * 60_000),
};

type UploadRow = { id: string; attempts: number; business_id: string; destination_id: string; file_name: string; selected_at: string | null };
type DestinationRow = StoredCredentials & {
  id: string; host: string; port: number; username: string; folder: string; start_date: string; host_key_sha256: string | null; deleted: boolean;
};

const CRLF = '\r\n';

/** Records (first attempt only) which transactions the upload carries; answers how many. */
async function selectTransactions(db: Db, row: UploadRow, startDate: string, now: Date): Promise<void> {
  await db.transaction(async (tx) => {
    const fresh = await tx.query('UPDATE sftp_uploads SET selected_at = $2 WHERE id = $1 AND selected_at IS NULL RETURNING id', [row.id, now.toISOString()]);
    if (!fresh[0]) return;
    await tx.query(
      `INSERT INTO sftp_upload_items (destination_id, transaction_id, upload_id)
       SELECT $1, t.id, $2 FROM transactions t
        WHERE t.business_id = $3 AND t.state = 'CLEARED' AND NOT t.deleted AND t.occurred_at >= $4::date
          AND NOT EXISTS (SELECT 1 FROM sftp_upload_items i WHERE i.destination_id = $1 AND i.transaction_id = t.id)
       ON CONFLICT DO NOTHING`,
      [row.destination_id, row.id, row.business_id, startDate],
    );
    await tx.query('UPDATE sftp_uploads SET row_count = (SELECT count(*)::int FROM sftp_upload_items WHERE upload_id = $1) WHERE id = $1', [row.id]);
  });
}

/** The upload's file: the transactions CSV export's columns, oldest first. */
export async function uploadCsv(db: Queryable, uploadId: string, businessId: string): Promise<{ bytes: Uint8Array; rows: number }> {
  const docs = await db.query<{ doc: RowOf<'transactions'> }>(
    `SELECT ${COLLECTIONS.transactions.docSql} AS doc FROM sftp_upload_items i JOIN transactions r ON r.id = i.transaction_id
      WHERE i.upload_id = $1 ORDER BY r.occurred_at, r.id`,
    [uploadId],
  );
  const names = await businessNames(db, businessId);
  const lines = Papa.unparse([exportHeader('transactions'), ...docs.map((d) => exportRow('transactions', d.doc, names))], { newline: CRLF });
  return { bytes: new TextEncoder().encode(lines + CRLF), rows: docs.length };
}

/**
 * One attempt's outside work: choose the transactions (first attempt), write the CSV and put it on
 * the server. Nothing is completed here: a process that dies after this leaves the row to be
 * taken again, which writes the same file under the same name.
 */
export async function sendUpload(db: Db, row: UploadRow, net: SftpNet, now: Date): Promise<{ rows: number; hostKeySha256: string } | 'deleted'> {
  const [dest] = await db.query<DestinationRow>(
    `SELECT id::text, host, port, username, folder, to_char(start_date, 'YYYY-MM-DD') AS start_date, host_key_sha256,
            auth_method, secret_enc, passphrase_enc, deleted_at IS NOT NULL AS deleted
       FROM sftp_destinations WHERE id = $1`,
    [row.destination_id],
  );
  if (!dest || dest.deleted) return 'deleted';
  await selectTransactions(db, row, dest.start_date, now);
  const file = await uploadCsv(db, row.id, row.business_id);
  const credentials = await openCredentials(db, dest.id, dest);
  const sent = await uploadFile({ ...dest, credentials, hostKeySha256: dest.host_key_sha256 }, row.file_name, file.bytes, net);
  return { rows: file.rows, hostKeySha256: sent.hostKeySha256 };
}

function errorText(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  if (/authentication methods failed/i.test(message)) return 'The server refused the username and password or key.';
  if (/ECONNREFUSED/.test(message)) return 'Nothing answered at that host and port (connection refused).';
  if (/Timed out while waiting for handshake/i.test(message)) return 'The server did not answer in time.';
  if (/No such file|code 2\b/i.test(message) || (err as { code?: number }).code === 2) return 'The folder does not exist on the server.';
  if ((err as { code?: number }).code === 3) return 'The server refused to write in that folder (permission denied).';
  return message;
}

/** Claims and runs one due upload; false when none is due. */
export async function runOneUpload(db: Db, net: SftpNet, now: () => Date): Promise<boolean> {
  const [row] = await claimDue<UploadRow>(db, SFTP_UPLOADS, now(), 1);
  if (!row) return false;
  await db.query('UPDATE sftp_uploads SET started_at = coalesce(started_at, $2) WHERE id = $1', [row.id, now().toISOString()]);
  try {
    const sent = await sendUpload(db, row, net, now());
    await db.transaction(async (tx) => {
      if (sent === 'deleted') {
        await completeLeased(tx, SFTP_UPLOADS, row, now(), 'canceled');
        return;
      }
      if (!(await completeLeased(tx, SFTP_UPLOADS, row, now()))) return; // the lease was lost: the other run completes it
      await tx.query('UPDATE sftp_uploads SET row_count = $2 WHERE id = $1', [row.id, sent.rows]);
      await tx.query('UPDATE sftp_destinations SET host_key_sha256 = coalesce(host_key_sha256, $2) WHERE id = $1', [row.destination_id, sent.hostKeySha256]);
    });
  } catch (err) {
    await db.transaction(async (tx) => {
      const state = await failLeased(tx, SFTP_UPLOADS, row, now(), errorText(err), { final: err instanceof SftpRefused });
      // Given up: its transactions go to the next upload (no gaps).
      if (state === 'failed') await tx.query('DELETE FROM sftp_upload_items WHERE upload_id = $1', [row.id]);
    });
  }
  return true;
}

/** Queues the scheduled uploads that are due and moves each destination's next run on. */
export async function queueScheduled(db: Db, now: Date): Promise<number> {
  const due = await db.query<{ id: string }>(
    'SELECT id::text FROM sftp_destinations WHERE deleted_at IS NULL AND next_run_at <= $1 ORDER BY next_run_at LIMIT 100', [now.toISOString()]);
  let queued = 0;
  for (const { id } of due) {
    await db.transaction(async (tx) => {
      const [d] = await tx.query<{ business_id: string; schedule: 'daily' | 'weekly'; weekday: number | null; hour_utc: number }>(
        `SELECT business_id::text, schedule, weekday, hour_utc FROM sftp_destinations
          WHERE id = $1 AND deleted_at IS NULL AND next_run_at <= $2 FOR UPDATE SKIP LOCKED`, [id, now.toISOString()]);
      if (!d) return;
      if ((await queueUpload(tx, { businessId: d.business_id, destinationId: id }, 'schedule', null, now)).created) queued++;
      await tx.query('UPDATE sftp_destinations SET next_run_at = $2 WHERE id = $1', [id, nextRunAt(d, now).toISOString()]);
    });
  }
  return queued;
}

export type SftpUploader = { runNow(): Promise<number>; stop(): Promise<void> | void };

/**
 * Queues what the schedule says and drains due uploads (at most `max` a pass), never two passes at
 * once in one process. `npm start` runs it every `everyMs` and on every queued upload's NOTIFY.
 */
export function createSftpUploader(db: Db, opts: { now: () => number; net: SftpNet; onError?: (err: unknown) => void }): SftpUploader {
  const now = () => new Date(opts.now());
  let running: Promise<number> | null = null;
  let again = false;
  async function pass(): Promise<number> {
    let n = 0;
    do {
      again = false;
      await queueScheduled(db, now());
      while (n < 50 && (await runOneUpload(db, opts.net, now))) n++;
    } while (again && n < 50);
    return n;
  }
  const runNow = (): Promise<number> => {
    if (running) { again = true; return running; }
    running = pass().finally(() => { running = null; });
    return running;
  };
  return { runNow, stop: () => undefined };
}

/** `npm start`'s uploader: listens for queued uploads and sweeps every `everyMs` (schedule, retries, leftovers). */
export async function startSftpUploads(
  db: Db, opts: { now: () => number; everyMs: number; net: SftpNet; onError: (err: unknown) => void },
): Promise<SftpUploader> {
  const uploader = createSftpUploader(db, opts);
  const job: PeriodicJob = startPeriodicJob(() => uploader.runNow(), { now: opts.now, everyMs: opts.everyMs, onError: opts.onError });
  const unlisten = await db.listen(SFTP_CHANNEL, () => void uploader.runNow().catch(opts.onError));
  return { runNow: uploader.runNow, stop: async () => { await job.stop(); await unlisten().catch(() => undefined); } };
}
