/**
 * Issue 27: flight search latency on the server, shared by the standalone bench/flight-search.ts
 * and the benchmark run (flight_search_p95_ms). N sequential `POST /v1/auth/booking/flights/search`
 * requests over a spread of routes and dates (one way and return, every cabin and one cabin),
 * after WARM_UP unmeasured ones (the JIT and the zones' formatters).
 */
import { searchFlights } from '../schema/api/calls-travel.ts';
import type { ApiClient } from '../tests/support/api.ts';
import { percentile, roundMs } from './stats.ts';

export const WARM_UP = 10;
const ROUTES = [['SFO', 'JFK'], ['LHR', 'SIN'], ['BOS', 'ORD'], ['CDG', 'NRT'], ['SYD', 'AKL'], ['GRU', 'MIA'], ['DXB', 'BOM'], ['YYZ', 'FRA']] as const;

/** One search: its status and the offers it answered. */
export type FlightSearch = (body: Record<string, string>) => Promise<{ status: number; offers: number; text: string }>;

export interface FlightSearchLoad { requests: number; p50Ms: number; p95Ms: number; maxMs: number; offersPerSearch: number }

export async function measureFlightSearch(search: FlightSearch, n: number): Promise<FlightSearchLoad> {
  const day = (d: number) => new Date(Date.now() + d * 86_400_000).toISOString().slice(0, 10);
  const samples: number[] = [];
  let offers = 0;
  for (let i = 0; i < n + WARM_UP; i++) {
    const [origin, destination] = ROUTES[i % ROUTES.length]!;
    const body = {
      origin, destination, depart_date: day(10 + (i % 40)), ...(i % 2 === 0 ? { return_date: day(14 + (i % 40)) } : {}),
      ...(i % 3 === 0 ? { cabin: 'ECONOMY' } : {}),
    };
    const t0 = performance.now();
    const res = await search(body);
    const ms = performance.now() - t0;
    if (res.status !== 200) throw new Error(`flight search failed: ${res.status} ${res.text}`);
    if (i >= WARM_UP) {
      samples.push(ms);
      offers += res.offers;
    }
  }
  return {
    requests: n, p50Ms: roundMs(percentile(samples, 50)), p95Ms: roundMs(percentile(samples, 95)), maxMs: roundMs(Math.max(...samples)),
    offersPerSearch: Math.round(offers / n),
  };
}

/** Searches through the catalogue's call over HTTP (the benchmark's running server); a failure throws ApiError. */
export function apiFlightSearch(api: ApiClient): FlightSearch {
  return async (body) => ({ status: 200, offers: (await api.call(searchFlights, { body })).data.length, text: '' });
}
