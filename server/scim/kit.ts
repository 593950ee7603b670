import type { Context } from 'hono';
import type { AppDeps } from '../core/deps.ts';
import { mailOrigin } from '../http/mail-links.ts';
import { ScimError, scimErrorResponse, scimJson } from './errors.ts';
import { checkFilter, matches } from './evaluate.ts';
import { parseFilter } from './filter.ts';
import type { ScimCaller } from './integrations.ts';
import { listResponse, readPage } from './paging.ts';
import { projector } from './request.ts';
import type { ResourceKind } from './schemas.ts';

export type ScimEnv = { Variables: { caller: ScimCaller } };

/** The base every `location` and `$ref` is built on: PUBLIC_URL when set, else the request's own origin. */
export function scimBase(c: Context, deps: AppDeps): string {
  const origin = deps.sso.publicUrl ? mailOrigin(deps.sso.publicUrl, { url: c.req.url }) : new URL(c.req.url).origin;
  return `${origin}/scim/v2`;
}

/** A handler whose refusals answer in SCIM's error format (an unexpected error still reaches app.onError). */
export function scimHandler(fn: (c: Context<ScimEnv>) => Promise<Response> | Response) {
  return async (c: Context<ScimEnv>): Promise<Response> => {
    try {
      return await fn(c);
    } catch (e) {
      if (e instanceof ScimError) return scimErrorResponse(c, e);
      throw e;
    }
  };
}

/** GET of a collection: filter (checked before any row is read), then the 1-based page, then the projection. */
export async function listAnswer(c: Context, kind: ResourceKind, load: () => Promise<Record<string, unknown>[]>): Promise<Response> {
  const raw = c.req.query('filter');
  const filter = raw === undefined ? null : parseFilter(raw);
  if (filter) checkFilter(kind, filter);
  const page = readPage((n) => c.req.query(n));
  const all = (await load()).filter((r) => !filter || matches(kind, r, filter));
  const answer = listResponse(all, page);
  return scimJson(c, { ...answer, Resources: answer.Resources.map(projector(c)) });
}


/** The `:id` of a resource route (the handlers are typed for any path). */
export const idOf = (c: Context): string => c.req.param('id') ?? '';
