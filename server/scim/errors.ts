import type { Context } from 'hono';

/** RFC 7644 §3.12 `scimType`s this server answers. */
export type ScimType =
  | 'invalidFilter' | 'tooMany' | 'uniqueness' | 'mutability' | 'invalidSyntax' | 'invalidPath' | 'noTarget' | 'invalidValue'
  | 'invalidVers' | 'sensitive';

export const SCIM_MEDIA_TYPE = 'application/scim+json';
export const ERROR_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:Error';

/** A refusal in SCIM's own error format (never error_v2: D5). */
export class ScimError extends Error {
  constructor(readonly status: number, readonly scimType: ScimType | null, detail: string) {
    super(detail);
  }

  get body() {
    return { schemas: [ERROR_SCHEMA], status: String(this.status), ...(this.scimType && { scimType: this.scimType }), detail: this.message };
  }
}

export const invalidValue = (detail: string) => new ScimError(400, 'invalidValue', detail);
export const notFound = (what: string) => new ScimError(404, null, `${what} not found.`);

/** A SCIM answer: `application/scim+json`, with headers such as ETag and Location. */
export function scimJson(c: Context, body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': SCIM_MEDIA_TYPE, ...headers } });
}

export const scimErrorResponse = (c: Context, err: ScimError) => scimJson(c, err.body, err.status);
