import type { Context, MiddlewareHandler } from 'hono';
import type { AppDeps } from '../../core/deps.ts';
import type { Queryable } from '../../db/db.ts';

/**
 * Each call an API client makes is recorded (issue 32): authentication marks the request once it
 * knows the client, and a middleware around every /v1 route writes the row when the answer is
 * ready, so refusals (403 scope, 429 rate limit) and errors are logged with their real status.
 */
type Mark = { clientId: string; businessId: string; callId: string };
const marks = new WeakMap<Request, Mark>();

export const markClientCall = (c: Context, mark: Mark) => marks.set(c.req.raw, mark);

/** Rows older than this are pruned as new ones come in. */
const KEEP_MS = 30 * 24 * 60 * 60 * 1000;
const PRUNE_EVERY = 200;

export async function recordClientCall(
  db: Queryable, mark: Mark, request: { method: string; path: string; status: number; durationMs: number }, nowMs: number,
): Promise<void> {
  const [row] = await db.query<{ id: number }>(
    `INSERT INTO api_client_requests (client_id, business_id, call_id, method, path, status, duration_ms, at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id`,
    [mark.clientId, mark.businessId, mark.callId, request.method, request.path.slice(0, 500), request.status, Math.round(request.durationMs), new Date(nowMs)],
  );
  // Pruning on every insert would cost a scan per call; every 200th row keeps the table bounded.
  if (row && Number(row.id) % PRUNE_EVERY === 0) {
    await db.query('DELETE FROM api_client_requests WHERE at < $1', [new Date(nowMs - KEEP_MS)]);
  }
}

/** The middleware (mounted on /v1/* before the catalogue): writes the marked request's row. */
export function clientCallLog(deps: AppDeps): MiddlewareHandler {
  return async (c, next) => {
    const started = performance.now();
    await next();
    const mark = marks.get(c.req.raw);
    if (!mark) return;
    try {
      await recordClientCall(deps.db, mark, { method: c.req.method, path: c.req.path, status: c.res.status, durationMs: performance.now() - started }, deps.now());
    } catch (err) {
      // The log is a record, not the answer: a failed insert must not turn a done call into an error.
      console.error('[ledgerline] API client request log failed', err);
    }
  };
}
