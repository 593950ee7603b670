/**
 * One catalogue call with a token the test did not sign in for over HTTP (e.g. the business token a
 * firm user's browser got from `firm.clients.open`), answering the status and, for a refusal, its
 * catalogue code: for asserting what the server refuses (tests/support/api.ts throws on refusals
 * and signs in with a password, which a firm user signed up by mailed code does not have).
 */
import { randomUUID } from 'node:crypto';
import { buildPath, type CallDef } from '../../schema/api/define-call.ts';
import { ID_TOKEN_HEADER, IDEMPOTENCY_HEADER } from '../../schema/api/scopes.ts';

export interface TokenCallAnswer {
  status: number;
  /** The `error_v2.error_code` of a refusal; undefined for a success. */
  code: string | undefined;
}

export async function callWithToken(
  baseUrl: string,
  token: string,
  def: CallDef,
  input: { params?: Record<string, string>; body?: unknown } = {},
): Promise<TokenCallAnswer> {
  const headers: Record<string, string> = { accept: 'application/json', [ID_TOKEN_HEADER]: token };
  if (def.idempotent) headers[IDEMPOTENCY_HEADER] = randomUUID();
  if (input.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(new URL(buildPath(def.path, input.params), baseUrl), {
    method: def.method,
    headers,
    body: input.body === undefined ? undefined : JSON.stringify(input.body),
  });
  const body = (await res.json().catch(() => null)) as { error_v2?: { error_code?: string } } | null;
  return { status: res.status, code: body?.error_v2?.error_code };
}
