import type { Context } from 'hono';
import type { AppDeps } from '../core/deps.ts';
import { ApiError, fromDatabaseError } from '../core/errors.ts';
import type { Queryable } from '../db/db.ts';
import { applyActing } from '../http/acting.ts';
import { parseJsonBody } from '../http/json-body.ts';
import { invalidValue, ScimError, SCIM_MEDIA_TYPE } from './errors.ts';
import type { ScimCaller } from './integrations.ts';

/** What every SCIM handler shares: the JSON body, the one write transaction, If-Match, errors, projections. */

export const MAX_SCIM_BODY_BYTES = 1024 * 1024;
const JSON_TYPES = /^application\/(scim\+)?json\s*(;|$)/i;

/** The request's JSON: `application/scim+json` or `application/json`, shape-checked before parsing. */
export async function readJson(c: Context): Promise<unknown> {
  if (!JSON_TYPES.test(c.req.header('content-type') ?? '')) {
    throw new ScimError(415, null, `Send the body as ${SCIM_MEDIA_TYPE}.`);
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(await c.req.arrayBuffer());
  } catch {
    throw new ScimError(400, 'invalidSyntax', 'The body is not UTF-8.');
  }
  try {
    return parseJsonBody(text, () => new ScimError(400, 'invalidSyntax', 'The body is not JSON.'));
  } catch (e) {
    if (e instanceof ApiError) throw new ScimError(400, 'invalidSyntax', e.message);
    throw e;
  }
}

/** Our domain's refusals in SCIM's words: 404 stays 404, permissions 403, a taken name 409, the rest 400 invalidValue. */
export function toScimError(err: unknown): unknown {
  if (err instanceof ScimError) return err;
  const api = err instanceof ApiError ? err : fromDatabaseError(err);
  if (!api) return err;
  const pgCode = typeof err === 'object' && err !== null && 'code' in err ? (err as { code: unknown }).code : null;
  if (pgCode === '23505') return new ScimError(409, 'uniqueness', 'This resource already exists.');
  const words = [api.message, ...Object.values(api.errors ?? {})].filter((w, i, all) => all.indexOf(w) === i).join(' ');
  if (api.status === 404) return new ScimError(404, null, words);
  if (api.status === 403) return new ScimError(403, null, words);
  if (api.errors?.name?.includes('already exists')) return new ScimError(409, 'uniqueness', api.errors.name);
  if (api.status === 409) return new ScimError(409, 'uniqueness', words);
  return invalidValue(words);
}

/** One transaction per write, marked as made by the integration (field-change history, D3). */
export async function inScimWrite<T>(deps: AppDeps, caller: ScimCaller, fn: (tx: Queryable) => Promise<T>): Promise<T> {
  try {
    return await deps.db.transaction(async (tx) => {
      await applyActing(tx, { userId: null, device: null, source: { kind: 'scim', id: caller.integrationId, label: `SCIM (${caller.name})` } });
      return fn(tx);
    });
  } catch (e) {
    throw toScimError(e);
  }
}

const bare = (tag: string) => tag.trim().replace(/^W\//, '');

/** RFC 7644 §3.14 / RFC 7232: If-Match `*` or a list of tags (weak compared); a mismatch is 412 and nothing is written. */
export function checkIfMatch(c: Context, current: string): void {
  const header = c.req.header('if-match');
  if (header === undefined || header.trim() === '*') return;
  if (!header.split(',').some((t) => bare(t) === bare(current))) {
    throw new ScimError(412, null, `The resource changed (now ${current}); read it again and retry.`);
  }
}

type Obj = Record<string, unknown>;

/** `attributes` / `excludedAttributes` (RFC 7644 §3.9), by top-level attribute; id and schemas always stay. */
export function projector(c: Context): (r: Obj) => Obj {
  const names = (raw: string | undefined) =>
    raw ? raw.split(',').map((a) => a.trim().toLowerCase()).filter(Boolean).map((a) => (a.startsWith('urn:') ? a : a.split('.')[0]!)) : null;
  const only = names(c.req.query('attributes'));
  const without = names(c.req.query('excludedAttributes'));
  if (!only && !without) return (r) => r;
  const always = new Set(['id', 'schemas']);
  const keep = (key: string) => {
    const k = key.toLowerCase();
    if (always.has(k)) return true;
    const named = (list: string[]) => list.some((a) => a === k || (a.startsWith(`${k}:`) && k.startsWith('urn:')));
    return only ? named(only) : !named(without!);
  };
  return (r) => Object.fromEntries(Object.entries(r).filter(([k]) => keep(k)));
}
