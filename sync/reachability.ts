import type { Transport } from './ports.ts';

/**
 * Whether Ledgerline's server answers, from evidence rather than `navigator.onLine` (which says
 * only that an interface is up: a captive portal or a LAN without internet is "online" too;
 * `false` is reliable, as "no interface"). Every request the worker makes is evidence:
 *
 * - it failed without an answer (the fetch rejected, not aborted by us): the server is silent;
 * - an answer came: it answered, unless the answer is a web page (`text/html`, or a redirect to
 *   another origin), which the API never sends, so someone else answered (a captive portal's
 *   sign-in page): silent too.
 *
 * When the interface comes back (the `online` event) nothing is assumed: `probeServer` asks.
 */
export type ServerReach = 'answered' | 'silent';

/** Whether an answer is the API's own (not a captive portal's page or a redirect away from the origin). */
function isServerAnswer(res: Response, url: string): boolean {
  if ((res.headers.get('content-type') ?? '').includes('text/html')) return false;
  if (res.type === 'opaqueredirect') return false;
  if (res.redirected && res.url && url) {
    try {
      if (new URL(res.url).origin !== new URL(url).origin) return false;
    } catch {
      return false;
    }
  }
  return true;
}

const urlOf = (input: Parameters<Transport>[0]) =>
  typeof input === 'string' ? input : input instanceof URL ? input.href : (input as Request).url;

/** `transport`, telling `report` what each request says about the server (aborts say nothing). */
export function reportingTransport(transport: Transport, report: (reach: ServerReach) => void): Transport {
  return async (input, init) => {
    try {
      const res = await transport(input, init);
      report(isServerAnswer(res, urlOf(input)) ? 'answered' : 'silent');
      return res;
    } catch (error) {
      const aborted = init?.signal?.aborted || (error as { name?: string } | null)?.name === 'AbortError';
      if (!aborted) report('silent');
      throw error;
    }
  };
}

/**
 * A path every API answers without a session: no call lives at the bare prefix, so the server
 * answers its JSON 404 (`REQUEST_7004`), cheap and never cached (the service worker leaves `/v1/`
 * to the network).
 */
export const PROBE_PATH = '/v1/';

/** Asks the server once; through a `reportingTransport`, the answer (or its absence) is reported. */
export async function probeServer(transport: Transport, baseUrl: string): Promise<ServerReach> {
  const url = `${baseUrl}${PROBE_PATH}`;
  try {
    const res = await transport(url, { method: 'GET', cache: 'no-store', headers: { accept: 'application/json' } });
    return isServerAnswer(res, url) ? 'answered' : 'silent';
  } catch {
    return 'silent';
  }
}
