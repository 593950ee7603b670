import type { Clock, Transport } from './ports.ts';

/**
 * Test doubles for OUR ports (never for the server): a clock that only moves when told, and a
 * transport that answers from a script and records what was sent. Exported so the worker's
 * tests can drive the engine the same way.
 */
export interface FakeClock extends Clock {
  /** Moves time forward, firing due sleeps in order and letting their continuations run. */
  advance(ms: number): Promise<void>;
  /** Sleeps not yet due. */
  pending(): number[];
}

export function createFakeClock(start = Date.UTC(2026, 0, 1)): FakeClock {
  let now = start;
  let timers: { at: number; seq: number; fire: () => void }[] = [];
  let seq = 0;
  return {
    now: () => now,
    sleep(ms, signal) {
      return new Promise<void>((resolve, reject) => {
        if (signal?.aborted) return reject(signal.reason);
        const timer = { at: now + Math.max(0, ms), seq: seq++, fire: () => resolve() };
        timers.push(timer);
        signal?.addEventListener(
          'abort',
          () => {
            timers = timers.filter((t) => t !== timer);
            reject(signal.reason);
          },
          { once: true },
        );
      });
    },
    async advance(ms) {
      const target = now + ms;
      await flush();
      for (;;) {
        const due = timers.filter((t) => t.at <= target).sort((a, b) => a.at - b.at || a.seq - b.seq)[0];
        if (!due) break;
        timers = timers.filter((t) => t !== due);
        now = due.at;
        due.fire();
        await flush();
      }
      now = target;
      await flush();
    },
    pending: () => timers.map((t) => t.at - now).sort((a, b) => a - b),
  };
}

/** Lets every queued promise continuation run (several macrotask turns, no real waiting). */
export async function flush(turns = 5): Promise<void> {
  for (let i = 0; i < turns; i++) await new Promise((r) => setTimeout(r, 0));
}

export interface RecordedRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: unknown;
}

export type ScriptStep = Response | Error | ((req: RecordedRequest, signal: AbortSignal | undefined) => Promise<Response>);

/** A transport answering each request with the next scripted step (an Error rejects like fetch). */
export function scriptedTransport(steps: ScriptStep[]): Transport & { requests: RecordedRequest[] } {
  const requests: RecordedRequest[] = [];
  const fn = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const headers: Record<string, string> = {};
    new Headers(init?.headers).forEach((v, k) => (headers[k] = v));
    const req: RecordedRequest = {
      url: String(input),
      method: init?.method ?? 'GET',
      headers,
      body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined,
    };
    requests.push(req);
    const step = steps.shift();
    if (!step) throw new Error(`unscripted request ${req.method} ${req.url}`);
    if (step instanceof Error) throw step;
    if (typeof step === 'function') return step(req, init?.signal ?? undefined);
    return step;
  };
  return Object.assign(fn as Transport, { requests });
}

export function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json', ...headers },
  });
}

/** A response that never arrives until the signal aborts (for timeouts and aborts). */
export function hangingStep(): ScriptStep {
  return (_req, signal) =>
    new Promise<Response>((_resolve, reject) => {
      signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
    });
}

/** An unsigned JWT carrying the given scopes (the client never verifies signatures). */
export function fakeToken(scopes: string[], extra: Record<string, unknown> = {}): string {
  const enc = (o: unknown) =>
    btoa(JSON.stringify(o)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  return `${enc({ alg: 'none', typ: 'JWT' })}.${enc({ ramp_access_scopes: scopes, ...extra })}.sig`;
}
