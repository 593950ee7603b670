import type { CallDef, CallResponse, HttpMethod, RetryClass } from '../schema/api/define-call.ts';
import {
  PAGED_MAX_RETRIES,
  RETRY_BASE_DELAY_MS,
  RETRY_METHODS,
  RETRY_STATUSES,
  STANDARD_MAX_RETRIES,
} from '../schema/constants.ts';
import type { Clock } from './ports.ts';
import type { CallOptions, HttpClient, HttpFailure, HttpResult } from './http.ts';

/**
 * The §7 retry rule as a pure decision, so every branch is a table row in a test:
 * - `standard`: GET/PUT/HEAD/DELETE/OPTIONS/TRACE retried up to 2 times on 408, 413, 429, 500,
 *   502, 503, 504 (and on network errors/timeouts: an idempotent method is safe to repeat);
 *   POST and PATCH never (the outbox re-sends them with the same key instead).
 * - any class, any method: 409 IDEMPOTENCY_7010 ("the first request with this key is still
 *   running") is retried like a 503 when the call carried its own Idempotency-Key, because the
 *   repeat then either waits its turn or gets the stored answer; never with a fresh key.
 * - `paged`: never on any 4xx (422 included), up to 5 times otherwise.
 * - `stream`: never here; the puller reconnects on its own schedule.
 * Delay: 0.3 s doubling per retry, or the server's Retry-After when it sends one.
 */
export type RetryDecision = { retry: false } | { retry: true; delayMs: number };

/** A Retry-After longer than this is not waited out inside one call: the caller gets the failure. */
export const MAX_RETRY_AFTER_MS = 60_000;

export interface RetryInput {
  method: HttpMethod;
  retryClass: RetryClass;
  /** Retries already made (0 after the first attempt). */
  retries: number;
  failure: HttpFailure;
  now: number;
  /** The call carries a fixed Idempotency-Key (the same on every attempt). */
  keyed?: boolean;
}

const RETRYABLE_METHODS: readonly string[] = RETRY_METHODS;
const RETRYABLE_STATUSES: readonly number[] = RETRY_STATUSES;

export function retryDecision(input: RetryInput): RetryDecision {
  const { failure, retries } = input;
  if (!isTransient(failure)) return { retry: false };
  if (input.retryClass === 'stream') return { retry: false };
  if (isKeyInFlight(failure)) {
    if (!input.keyed || retries >= STANDARD_MAX_RETRIES) return { retry: false };
  } else if (input.retryClass === 'paged') {
    if (failure.kind === 'http' && failure.status < 500) return { retry: false };
    if (retries >= PAGED_MAX_RETRIES) return { retry: false };
  } else {
    if (!RETRYABLE_METHODS.includes(input.method)) return { retry: false };
    if (failure.kind === 'http' && !RETRYABLE_STATUSES.includes(failure.status)) return { retry: false };
    if (retries >= STANDARD_MAX_RETRIES) return { retry: false };
  }
  const after = failure.kind === 'http' ? parseRetryAfter(failure.retryAfter, input.now) : null;
  if (after !== null && after > MAX_RETRY_AFTER_MS) return { retry: false };
  return { retry: true, delayMs: after ?? backoffDelay(retries) };
}

export const isKeyInFlight = (f: HttpFailure): boolean =>
  f.kind === 'http' && f.status === 409 && f.error.error_code === 'IDEMPOTENCY_7010';

/** Failures that another attempt might cure; local refusals and aborts never are. */
function isTransient(f: HttpFailure): boolean {
  return f.kind === 'http' || f.kind === 'network' || f.kind === 'timeout';
}

/** 0.3 s, 0.6 s, 1.2 s, … capped so that long outages poll at most once per `capMs`. */
export function backoffDelay(retries: number, capMs = 5 * 60_000): number {
  return Math.min(capMs, RETRY_BASE_DELAY_MS * 2 ** Math.max(0, retries));
}

/** Retry-After is delay-seconds or an HTTP date (RFC 9110 §10.2.3); null when absent or unreadable. */
export function parseRetryAfter(value: string | null | undefined, now: number): number | null {
  if (value === null || value === undefined) return null;
  const v = value.trim();
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  // An HTTP date always names its month; without this guard Date.parse reads '-1' as a year.
  if (!/[A-Za-z]{3}/.test(v)) return null;
  const at = Date.parse(v);
  if (Number.isNaN(at)) return null;
  return Math.max(0, at - now);
}

/** Runs one call under the retry rule, sleeping on the injected clock between attempts. */
export async function callWithRetry<C extends CallDef>(
  http: HttpClient,
  clock: Clock,
  def: C,
  opts: CallOptions<C> = {},
): Promise<HttpResult<CallResponse<C>>> {
  for (let retries = 0; ; retries++) {
    const result = await http.call(def, opts);
    if (result.ok) return result;
    const decision = retryDecision({
      method: def.method, retryClass: def.retry, retries, failure: result, now: clock.now(), keyed: opts.idempotencyKey !== undefined,
    });
    if (!decision.retry) return result;
    try {
      await clock.sleep(decision.delayMs, opts.signal);
    } catch {
      return { ok: false, kind: 'aborted', maybeSent: true, error: result.error };
    }
  }
}
