import type { z } from 'zod';
import { defineCall, type CallDef, type HttpMethod } from './define-call.ts';

type Schema = z.ZodType;
type CallSpec = Parameters<typeof defineCall>[0];
type Auth = CallSpec['auth'];

/** What one call of a group names besides its id, method and path: its schemas (and, rarely, another auth). */
export type GroupCallSpec<R extends Schema, P extends Schema | null, Q extends Schema | null, B extends Schema | null> =
  Omit<CallSpec, 'id' | 'method' | 'path' | 'auth' | 'params' | 'query' | 'body' | 'response'> & {
    auth?: Auth;
    params?: P;
    query?: Q;
    body?: B;
    response: R;
  };

/**
 * The calls of one resource: they share a path prefix and an auth rule, written once here; each
 * call names its id, method, the rest of its path (after `base`) and its schemas. What it makes
 * is `defineCall`'s definition, unchanged.
 */
export function callGroup(base: string, auth: Auth) {
  return <
    const Id extends string,
    R extends Schema,
    P extends Schema | null = null,
    Q extends Schema | null = null,
    B extends Schema | null = null,
  >(id: Id, method: HttpMethod, path: string, spec: GroupCallSpec<R, P, Q, B>): CallDef<P, Q, B, R, Id> =>
    defineCall<R, P, Q, B, Id>({ auth, ...spec, id, method, path: `${base}${path}` });
}
