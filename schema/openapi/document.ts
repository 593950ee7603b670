/**
 * Ledgerline's own OpenAPI document: the whole catalogue, the mirrored entities as shared
 * components. The server serves it and `npm run openapi` writes it, from this one function.
 */
import type { CallDef } from '../api/define-call.ts';
import { CATALOGUE } from '../api/calls.ts';
import { ENTITIES } from '../collections.ts';
import { buildOpenApi, type OpenApiDocument } from './generate.ts';
import { apiScopeOf } from '../api/api-scopes.ts';

/** The API scope an API client's token needs for the call (none: API clients never reach it). */
const apiScopesOf = (call: CallDef): readonly string[] | undefined => {
  const scope = apiScopeOf(call);
  return scope ? [scope] : undefined;
};

const NAMED = Object.fromEntries(Object.values(ENTITIES).map((d) => [d.name, d.schema]));

/** `scopeOf`: the API scopes of a call for API clients (default schema/api/api-scopes.ts). */
export function ledgerlineOpenApi(version: string, scopeOf: (call: CallDef) => readonly string[] | undefined = apiScopesOf): OpenApiDocument {
  return buildOpenApi(CATALOGUE, { version, named: NAMED, scopeOf });
}
