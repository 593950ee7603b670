/**
 * A thin client of our provider API for tests and the benchmark: signs in over HTTP and calls
 * the catalogue's routes, validating answers with the catalogue's own response schemas, so a
 * server that drifts from the contract fails here rather than passing silently.
 */
import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import { buildPath, type CallDef } from '../../schema/api/define-call.ts';
import { signIn as signInCall, searchTransactions } from '../../schema/api/calls.ts';
import { ID_TOKEN_HEADER, IDEMPOTENCY_HEADER } from '../../schema/api/scopes.ts';
import type { TransactionFilter, TransactionSort } from '../../schema/transaction-query.ts';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: string,
    call: string,
  ) {
    super(`${call} answered ${status}: ${body.slice(0, 300)}`);
  }
}

export interface ApiClient {
  token: string;
  call<C extends CallDef>(
    def: C,
    input?: { params?: Record<string, string>; query?: Record<string, string>; body?: unknown },
  ): Promise<z.output<C['response']>>;
}

/** Calls one catalogue entry; POST/PATCH get a fresh Idempotency-Key (as every client must send). */
async function callApi<C extends CallDef>(
  baseUrl: string,
  token: string | null,
  def: C,
  input: { params?: Record<string, string>; query?: Record<string, string>; body?: unknown } = {},
): Promise<z.output<C['response']>> {
  const url = new URL(buildPath(def.path, input.params), baseUrl);
  for (const [k, v] of Object.entries(input.query ?? {})) url.searchParams.set(k, v);
  const headers: Record<string, string> = { accept: 'application/json' };
  if (token) headers[ID_TOKEN_HEADER] = token;
  if (def.idempotent) headers[IDEMPOTENCY_HEADER] = randomUUID();
  if (input.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(url, {
    method: def.method,
    headers,
    body: input.body === undefined ? undefined : JSON.stringify(input.body),
  });
  const text = await res.text();
  if (!res.ok) throw new ApiError(res.status, text, def.id);
  return def.response.parse(JSON.parse(text)) as z.output<C['response']>;
}

export async function apiSignIn(baseUrl: string, email: string, password: string): Promise<ApiClient> {
  const { id_token } = await callApi(baseUrl, null, signInCall, { body: { email, password } });
  return {
    token: id_token,
    call: (def, input) => callApi(baseUrl, id_token, def, input),
  };
}

/** One page of `POST /v1/auth/transactions/search`. */
export function apiSearch(
  api: ApiClient,
  opts: { filters?: TransactionFilter; sort?: TransactionSort; pageSize?: number; start?: string; includeCount?: boolean },
) {
  return api.call(searchTransactions, {
    body: {
      filters: opts.filters ?? {},
      sort: opts.sort ?? 'occurred_desc',
      paging: { page_size: opts.pageSize ?? 50, ...(opts.start ? { start: opts.start } : {}) },
      include_count: opts.includeCount ?? false,
    },
  });
}
