import type { MiddlewareHandler } from 'hono';
import { resolveWholeSettings } from '../core/env-settings.ts';
import { ApiError } from '../core/errors.ts';

/**
 * How long a client may take to send a request (issue 24: a slow client must not hold a
 * connection). Node's HTTP server enforces the first three (serve.ts), the app the body's idle
 * time (bodyIdleTimeout below, so the answer is still an error_v2 408 TIMEOUT).
 */
export type RequestTimeouts = {
  /** The request line and headers must arrive within this (Node `headersTimeout`). */
  headersMs: number;
  /** The whole request, body included (Node `requestTimeout`): a 10 MB receipt on a slow phone link fits. */
  requestMs: number;
  /** An idle kept-alive connection is closed after this (Node `keepAliveTimeout`). */
  keepAliveMs: number;
  /** A body that sends nothing for this long is answered 408 TIMEOUT and its connection closed. */
  bodyIdleMs: number;
};

export const DEFAULT_TIMEOUTS: RequestTimeouts = { headersMs: 15_000, requestMs: 120_000, keepAliveMs: 5_000, bodyIdleMs: 15_000 };

export const TIMEOUT_ENV: Record<keyof RequestTimeouts, string> = {
  headersMs: 'LEDGERLINE_HEADERS_TIMEOUT_MS',
  requestMs: 'LEDGERLINE_REQUEST_TIMEOUT_MS',
  keepAliveMs: 'LEDGERLINE_KEEP_ALIVE_TIMEOUT_MS',
  bodyIdleMs: 'LEDGERLINE_BODY_IDLE_TIMEOUT_MS',
};

/** createApp / listen options first, then the environment, then the defaults; nonsense stops the start. */
export function resolveTimeouts(overrides: Partial<RequestTimeouts> = {}, env: Record<string, string | undefined> = process.env): RequestTimeouts {
  const out = resolveWholeSettings({ defaults: DEFAULT_TIMEOUTS, envNames: TIMEOUT_ENV, overrides, env, mustBe: 'must be a whole number of milliseconds' });
  // Node refuses a headers timeout longer than the request's; say which settings disagree.
  if (out.headersMs > out.requestMs) throw new Error(`${TIMEOUT_ENV.headersMs} (${out.headersMs}) must not exceed ${TIMEOUT_ENV.requestMs} (${out.requestMs}).`);
  return out;
}

/** The request body stalled: nothing arrived for bodyIdleMs. */
class BodyTimeoutError extends ApiError {
  constructor() {
    super('TIMEOUT', 'The request body stopped arriving. Check the connection and send it again.');
  }
}

/**
 * Wraps the request body so that each read waits at most `ms` for the next chunk; past it the
 * read fails with BodyTimeoutError (408 TIMEOUT, app.ts closes the connection with the answer).
 * The underlying stream is left alone rather than cancelled: cancelling it destroys the socket,
 * and the 408 could not be sent.
 */
export function bodyIdleTimeout(ms: number): MiddlewareHandler {
  return async (c, next) => {
    const body = c.req.method === 'GET' || c.req.method === 'HEAD' ? null : c.req.raw.body;
    if (!body) return next();
    const reader = body.getReader();
    const guarded = new ReadableStream<Uint8Array>({
      async pull(controller) {
        let timer: ReturnType<typeof setTimeout> | undefined;
        const stalled = new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new BodyTimeoutError()), ms);
        });
        try {
          const chunk = await Promise.race([reader.read(), stalled]);
          if (chunk.done) controller.close();
          else controller.enqueue(chunk.value);
        } catch (err) {
          controller.error(err);
        } finally {
          clearTimeout(timer);
        }
      },
      cancel: (reason) => reader.cancel(reason),
    });
    c.req.raw = new Request(c.req.raw, { body: guarded, duplex: 'half' } as RequestInit);
    return next();
  };
}
