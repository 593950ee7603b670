import { randomUUID } from 'node:crypto';
import {
  MAX_SFTP_DESTINATIONS, type SftpCredentials, type SftpDestination, type SftpDestinationBody, type SftpUpload,
} from '../../../schema/api/calls-sftp.ts';
import { ApiError, validationError } from '../../core/errors.ts';
import type { Queryable } from '../../db/db.ts';
import { sealCredentials } from './credentials.ts';
import { checkedSftpAddress, fingerprintOf, type SftpNet } from './transfer.ts';

/** Issue 32: a business's SFTP destinations and their upload history (docs/design/issue-32-sftp.md). */

/** NOTIFYed when an upload is queued, so the uploader hears of it at commit. */
export const SFTP_CHANNEL = 'ledgerline_sftp_uploads';

type Schedule = { schedule: 'daily' | 'weekly'; weekday: number | null; hour_utc: number };

/** The first run strictly after `after`: at `hour_utc`:00 UTC, on the ISO weekday when weekly. */
export function nextRunAt(s: Schedule, after: Date): Date {
  const t = new Date(Date.UTC(after.getUTCFullYear(), after.getUTCMonth(), after.getUTCDate(), s.hour_utc));
  while (t <= after || (s.schedule === 'weekly' && ((t.getUTCDay() + 6) % 7) + 1 !== s.weekday)) t.setUTCDate(t.getUTCDate() + 1);
  return t;
}

/** The wire doc of an upload row `u`; `running` is a queued row under a live lease at $NOW. */
const UPLOAD_DOC = `jsonb_build_object(
  'id', u.id, 'file_name', u.file_name, 'trigger', u.trigger,
  'state', CASE WHEN u.state = 'queued' AND u.leased_until > $NOW::timestamptz THEN 'running' ELSE u.state END,
  'row_count', u.row_count, 'error', u.last_error, 'attempts', u.attempts,
  'created_at', ll_iso(u.created_at), 'finished_at', ll_iso(u.finished_at))`;

type DestinationRow = Omit<SftpDestination, 'host_key_fingerprint'> & { host_key_sha256: string | null };

const DESTINATION_SQL = `SELECT d.id::text, d.name, d.host, d.port, d.username, d.auth_method, true AS credentials_set, d.folder,
       d.schedule, d.weekday, d.hour_utc, to_char(d.start_date, 'YYYY-MM-DD') AS start_date, ll_iso(d.next_run_at) AS next_run_at,
       d.host_key_sha256, ll_iso(d.created_at) AS created_at,
       jsonb_build_object('id', u.id, 'name', trim(u.first_name || ' ' || u.last_name)) AS created_by,
       (SELECT ${UPLOAD_DOC.replaceAll('$NOW', '$2')} FROM sftp_uploads u WHERE u.destination_id = d.id ORDER BY u.created_at DESC, u.id DESC LIMIT 1) AS last_upload
  FROM sftp_destinations d JOIN spend_users u ON u.id = d.created_by
 WHERE d.business_id = $1 AND d.deleted_at IS NULL`;

const toDto = ({ host_key_sha256, ...d }: DestinationRow): SftpDestination =>
  ({ ...d, host_key_fingerprint: host_key_sha256 ? fingerprintOf(host_key_sha256) : null });

const notFound = () => new ApiError('REQUEST_7004', 'No such SFTP destination.');

export async function listDestinations(db: Queryable, businessId: string, now: Date): Promise<SftpDestination[]> {
  const rows = await db.query<DestinationRow>(`${DESTINATION_SQL} ORDER BY d.created_at, d.id`, [businessId, now.toISOString()]);
  return rows.map(toDto);
}

/** The business's destination, else 404 (another business's id is not found). */
export async function findDestination(db: Queryable, businessId: string, id: string, now: Date): Promise<SftpDestination> {
  const rows = await db.query<DestinationRow>(`${DESTINATION_SQL} AND d.id = $3`, [businessId, now.toISOString(), id]);
  if (!rows[0]) throw notFound();
  return toDto(rows[0]);
}

/** The 50 newest uploads of a destination, newest first. */
export async function listUploads(db: Queryable, destinationId: string, now: Date): Promise<SftpUpload[]> {
  const rows = await db.query<{ doc: SftpUpload }>(
    `SELECT ${UPLOAD_DOC.replaceAll('$NOW', '$2')} AS doc FROM sftp_uploads u WHERE u.destination_id = $1 ORDER BY u.created_at DESC, u.id DESC LIMIT 50`,
    [destinationId, now.toISOString()],
  );
  return rows.map((r) => r.doc);
}

/** Refuses (422 on `host`) a host that does not resolve, or resolves to any address that is not public. */
export async function requirePublicHost(host: string, net: SftpNet): Promise<void> {
  if (!(await checkedSftpAddress(host, net))) {
    throw validationError({ host: 'host must be a public internet address that resolves (private, loopback and link-local addresses are refused)' });
  }
}

function scheduleOf(body: Pick<SftpDestinationBody, 'schedule' | 'weekday' | 'hour_utc'>): Schedule {
  if (body.schedule === 'weekly' && (body.weekday === null || body.weekday === undefined)) throw validationError({ weekday: 'weekday is required for a weekly schedule' });
  return { schedule: body.schedule, weekday: body.schedule === 'weekly' ? body.weekday! : null, hour_utc: body.hour_utc };
}

export async function createDestination(
  tx: Queryable, input: { businessId: string; userId: string; body: SftpDestinationBody; net: SftpNet; now: Date },
): Promise<SftpDestination> {
  const { body, now } = input;
  const schedule = scheduleOf(body);
  await requirePublicHost(body.host, input.net);
  const [{ n } = { n: 0 }] = await tx.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM sftp_destinations WHERE business_id = $1 AND deleted_at IS NULL', [input.businessId]);
  if (n >= MAX_SFTP_DESTINATIONS) throw validationError({ name: `A business can have at most ${MAX_SFTP_DESTINATIONS} SFTP destinations` });
  const id = randomUUID();
  const sealed = await sealCredentials(tx, id, body.credentials as SftpCredentials);
  await tx.query(
    `INSERT INTO sftp_destinations (id, business_id, name, host, port, username, auth_method, secret_enc, passphrase_enc, folder,
       schedule, weekday, hour_utc, start_date, next_run_at, created_by, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14::date, $15, $16, $17, $17)`,
    [id, input.businessId, body.name, body.host, body.port ?? 22, body.username, sealed.auth_method, sealed.secret_enc, sealed.passphrase_enc,
      body.folder, schedule.schedule, schedule.weekday, schedule.hour_utc, body.start_date ?? now.toISOString().slice(0, 10),
      nextRunAt(schedule, now).toISOString(), input.userId, now.toISOString()],
  );
  return findDestination(tx, input.businessId, id, now);
}

export type DestinationUpdate = Omit<SftpDestinationBody, 'credentials' | 'start_date'> & { credentials?: SftpCredentials | undefined };

export async function updateDestination(
  tx: Queryable, input: { businessId: string; id: string; body: DestinationUpdate; net: SftpNet; now: Date },
): Promise<SftpDestination> {
  const { body, now } = input;
  const rows = await tx.query<{ host: string; port: number }>(
    'SELECT host, port FROM sftp_destinations WHERE business_id = $1 AND id = $2 AND deleted_at IS NULL FOR UPDATE', [input.businessId, input.id]);
  const current = rows[0];
  if (!current) throw notFound();
  const schedule = scheduleOf(body);
  await requirePublicHost(body.host, input.net);
  const port = body.port ?? 22;
  const sealed = body.credentials ? await sealCredentials(tx, input.id, body.credentials) : null;
  await tx.query(
    `UPDATE sftp_destinations SET name = $3, host = $4, port = $5, username = $6, folder = $7, schedule = $8, weekday = $9, hour_utc = $10,
            next_run_at = $11, updated_at = $12,
            host_key_sha256 = CASE WHEN $13 THEN NULL ELSE host_key_sha256 END,
            auth_method = coalesce($14, auth_method), secret_enc = coalesce($15, secret_enc),
            passphrase_enc = CASE WHEN $14::text IS NULL THEN passphrase_enc ELSE $16 END
      WHERE business_id = $1 AND id = $2`,
    [input.businessId, input.id, body.name, body.host, port, body.username, body.folder, schedule.schedule, schedule.weekday, schedule.hour_utc,
      nextRunAt(schedule, now).toISOString(), now.toISOString(), current.host.toLowerCase() !== body.host.toLowerCase() || current.port !== port,
      sealed?.auth_method ?? null, sealed?.secret_enc ?? null, sealed?.passphrase_enc ?? null],
  );
  return findDestination(tx, input.businessId, input.id, now);
}

/** Soft delete (the history stays); a waiting upload is canceled, a running one stops before it completes. */
export async function deleteDestination(tx: Queryable, businessId: string, id: string, now: Date): Promise<void> {
  const rows = await tx.query<{ id: string }>(
    'UPDATE sftp_destinations SET deleted_at = $3, updated_at = $3 WHERE business_id = $1 AND id = $2 AND deleted_at IS NULL RETURNING id',
    [businessId, id, now.toISOString()],
  );
  if (!rows[0]) throw notFound();
  await tx.query(
    `UPDATE sftp_uploads SET state = 'canceled', finished_at = $2, leased_until = NULL, last_error = 'The destination was deleted.'
      WHERE destination_id = $1 AND state = 'queued'`,
    [id, now.toISOString()],
  );
}

/**
 * Queues an upload of the destination (in `tx`, announced at commit), or answers the one already
 * waiting or running: one open upload per destination (sftp_uploads_one_open). Its file is
 * `transactions-YYYY-MM-DD.csv` for the day it is queued, `-2`, `-3`… for a second one that day.
 */
export async function queueUpload(
  tx: Queryable, d: { businessId: string; destinationId: string }, trigger: 'schedule' | 'manual', requestedBy: string | null, now: Date,
): Promise<{ id: string; created: boolean }> {
  const open = async () => (await tx.query<{ id: string }>(
    "SELECT id::text FROM sftp_uploads WHERE destination_id = $1 AND state = 'queued'", [d.destinationId]))[0];
  const existing = await open();
  if (existing) return { id: existing.id, created: false };
  const day = now.toISOString().slice(0, 10);
  const [{ n } = { n: 0 }] = await tx.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM sftp_uploads WHERE destination_id = $1 AND file_name LIKE $2', [d.destinationId, `transactions-${day}%`]);
  const fileName = n === 0 ? `transactions-${day}.csv` : `transactions-${day}-${n + 1}.csv`;
  const id = randomUUID();
  const inserted = await tx.query<{ id: string }>(
    `INSERT INTO sftp_uploads (id, business_id, destination_id, trigger, requested_by, file_name, run_after, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $7) ON CONFLICT DO NOTHING RETURNING id::text`,
    [id, d.businessId, d.destinationId, trigger, requestedBy, fileName, now.toISOString()],
  );
  if (!inserted[0]) {
    const raced = await open();
    if (raced) return { id: raced.id, created: false };
    throw new ApiError('IDEMPOTENCY_7010', 'Another upload of this destination was being queued. Try again.');
  }
  await tx.query('SELECT pg_notify($1, $2)', [SFTP_CHANNEL, id]);
  return { id, created: true };
}

export async function readUpload(db: Queryable, id: string, now: Date): Promise<SftpUpload> {
  const rows = await db.query<{ doc: SftpUpload }>(`SELECT ${UPLOAD_DOC.replaceAll('$NOW', '$2')} AS doc FROM sftp_uploads u WHERE u.id = $1`, [id, now.toISOString()]);
  return rows[0]!.doc;
}
