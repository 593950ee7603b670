/**
 * The OpenAPI 3.1 document, generated from the call catalogue (issue 32): every entry's path,
 * method, parameters, body and answer come from its zod schemas (z.toJSONSchema, draft 2020-12,
 * the dialect OpenAPI 3.1 uses), every refusal is the one `error_v2` shape. Pure: the server
 * serves it (GET /v1/openapi.json) and `npm run openapi` writes it to docs/api/.
 */
import type { z } from 'zod';
import type { CallDef } from '../api/define-call.ts';
import { IDEMPOTENCY_HEADER } from '../api/scopes.ts';
import { errorV2Schema } from '../errors.ts';
import { SchemaComponents, objectProperties } from './json-schema.ts';
import { TOKEN_PATH, tokenPathItem } from './token-endpoint.ts';

export type OpenApiDocument = {
  openapi: '3.1.0';
  info: Record<string, unknown>;
  paths: Record<string, Record<string, Operation>>;
  components: Record<string, Record<string, unknown>>;
  tags: { name: string; description?: string }[];
  [key: string]: unknown;
};
export type Operation = Record<string, unknown> & { operationId: string; tags: string[]; summary: string };

export type OpenApiOptions = {
  /** The product's version (package.json). */
  version: string;
  /**
   * The API scopes (e.g. `transactions:read`) an API client's token needs for a call, or
   * undefined when no API client may make it. Written elsewhere (schema/api/api-scopes.ts) and
   * passed in, so this file does not depend on it.
   */
  scopeOf?: (call: CallDef) => readonly string[] | undefined;
  /** Shared schemas written once under components/schemas (see SchemaComponents). */
  named?: Readonly<Record<string, z.ZodType>>;
};

/** Every refusal the register layer can answer, with when it does. */
const ERROR_RESPONSES = {
  '400': ['BadRequest', 'The body has a structure the server does not accept (nesting, key counts, prototype keys) or is malformed.'],
  '401': ['Unauthorized', 'No token, or an expired or revoked one (AUTH_7002, AUTH_7003).'],
  '403': ['Forbidden', 'The token lacks a scope the call needs (AUTH_7016: step up for `sensitive`), or the role does not allow it.'],
  '404': ['NotFound', 'Nothing with that id in the caller\'s business (another business\'s ids answer 404 too).'],
  '409': ['Conflict', 'The row changed since your If-Match (CONFLICT), an Idempotency-Key reused with another body, or the state does not allow it.'],
  '412': ['PreconditionFailed', 'A precondition of the request failed.'],
  '413': ['PayloadTooLarge', 'The body or file is too large.'],
  '415': ['UnsupportedMediaType', 'The body is not application/json (or not one of an upload\'s types).'],
  '422': ['UnprocessableEntity', 'Validation failed (REQUEST_7001 with `errors`: path → message), or a business rule refused it.'],
  '429': ['TooManyRequests', 'A rate limit or quota: wait for Retry-After seconds.'],
  '503': ['ServiceUnavailable', 'Scheduled maintenance (INFRA_7001): writes pause until Retry-After; reads keep working.'],
} as const;
type ErrorStatus = keyof typeof ERROR_RESPONSES;

/** Which refusals a call can meet: public calls never ask for a token, reads never pause for maintenance. */
function errorStatusesOf(call: CallDef): ErrorStatus[] {
  const statuses: ErrorStatus[] = ['400', '404', '409', '412', '422', '429'];
  if (call.auth.kind !== 'public') statuses.push('401', '403');
  if (call.body) statuses.push('413', '415');
  if (call.method !== 'GET' && call.path.startsWith('/v1/auth/')) statuses.push('503');
  return statuses.sort();
}

/** Hono's `:param` → OpenAPI's `{param}`. */
export const openApiPath = (honoPath: string) => honoPath.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

/** The tag of a call: its area, the first part of its id (`bills.templates.delete` → `bills`). */
export const tagOf = (call: { id: string }) => call.id.split('.')[0]!;

/** A one-line summary from the id: `bills.templates.delete` → `Bills › templates › delete`. */
export function summaryOf(call: { id: string }): string {
  const words = call.id.split('.').map((part) => part.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase());
  const text = words.join(' › ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function parametersOf(call: CallDef, components: SchemaComponents): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  const add = (where: 'path' | 'query', schema: z.ZodType) => {
    const { properties, required } = objectProperties(components.convert(schema, `${call.id}.${where}`));
    for (const [name, property] of Object.entries(properties)) {
      const isArray = property.type === 'array';
      out.push({
        name,
        in: where,
        required: where === 'path' || required.has(name),
        schema: property,
        // §5: a list goes as one comma-joined value (`status=OPEN,PAID`).
        ...(isArray && { style: 'form', explode: false }),
      });
    }
  };
  if (call.params) add('path', call.params);
  if (call.query) add('query', call.query);
  // A path parameter the schema does not name is still part of the path (always a string).
  for (const match of call.path.matchAll(/:([A-Za-z0-9_]+)/g)) {
    if (!out.some((p) => p.in === 'path' && p.name === match[1])) out.push({ name: match[1], in: 'path', required: true, schema: { type: 'string' } });
  }
  if (call.idempotent) {
    out.push({
      name: IDEMPOTENCY_HEADER, in: 'header', required: false, schema: { type: 'string', maxLength: 255 },
      description: 'A key of your choice: a retry with the same key and body answers the first answer again, never a second write.',
    });
  }
  return out;
}

function requestBodyOf(call: CallDef, components: SchemaComponents): Record<string, unknown> | undefined {
  if (call.upload) {
    const content = Object.fromEntries(call.upload.contentTypes.map((type) => [type, { schema: { contentMediaType: type } }]));
    return { required: true, description: `The file itself, at most ${call.upload.maxBytes} bytes.`, content };
  }
  if (!call.body) return undefined;
  const schema = components.convert(call.body, `${call.id}.body`);
  return { required: !call.body.safeParse(undefined).success, content: { 'application/json': { schema } } };
}

function operationOf(call: CallDef, components: SchemaComponents, options: OpenApiOptions): Operation {
  const response = components.convert(call.response, `${call.id}.response`);
  const responses: Record<string, unknown> = {
    '2XX': {
      description: call.retry === 'stream' ? 'An event stream (text/event-stream).' : 'Success: 200, or 201 when something is created.',
      content: call.retry === 'stream' ? { 'text/event-stream': { schema: { type: 'string' } } } : { 'application/json': { schema: response } },
    },
  };
  for (const status of errorStatusesOf(call)) responses[status] = { $ref: `#/components/responses/${ERROR_RESPONSES[status][0]}` };
  const requestBody = requestBodyOf(call, components);
  const parameters = parametersOf(call, components);
  return {
    operationId: call.id,
    tags: [tagOf(call)],
    summary: summaryOf(call),
    ...(parameters.length > 0 && { parameters }),
    ...(requestBody && { requestBody }),
    responses,
    security: securityOf(call, options),
    ...(call.auth.kind === 'scopes' && { 'x-token-scopes': call.auth.scopes }),
  };
}

/** Public calls need nothing; the rest take the app's token, or an API client's where scopeOf allows. */
function securityOf(call: CallDef, options: OpenApiOptions): Record<string, readonly string[]>[] {
  if (call.auth.kind === 'public') return [];
  const requirements: Record<string, readonly string[]>[] = [{ ramp_id_token: call.auth.kind === 'scopes' ? call.auth.scopes : [] }];
  const apiScopes = options.scopeOf?.(call);
  if (apiScopes) requirements.push({ api_client: apiScopes });
  return requirements;
}

function componentsOf(components: SchemaComponents): OpenApiDocument['components'] {
  // ErrorV2 is a named schema (buildOpenApi), so converting it writes the component.
  components.convert(errorV2Schema, 'ErrorV2');
  const responses = Object.fromEntries(Object.values(ERROR_RESPONSES).map(([name, description]) => [name, {
    description,
    ...(name === 'TooManyRequests' || name === 'ServiceUnavailable'
      ? { headers: { 'Retry-After': { description: 'Seconds to wait before trying again.', schema: { type: 'integer' } } } }
      : {}),
    content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorV2' } } },
  }]));
  return {
    schemas: components.schemas,
    responses,
    securitySchemes: {
      ramp_id_token: {
        type: 'apiKey', in: 'header', name: 'RAMP-ID-TOKEN',
        description: 'A token from sign-in (or an API client\'s access token). Listed scopes are the token scopes the call needs (§6).',
      },
      api_client: {
        type: 'oauth2',
        description: 'API clients: OAuth 2.0 client credentials. Send the access token in the RAMP-ID-TOKEN header.',
        flows: { clientCredentials: { tokenUrl: TOKEN_PATH, scopes: {} } },
      },
      client_basic: { type: 'http', scheme: 'basic', description: 'An API client\'s id and secret (token endpoint only).' },
    },
  };
}

/** The whole document. Deterministic: the same catalogue gives the same bytes. */
export function buildOpenApi(calls: readonly CallDef[], options: OpenApiOptions): OpenApiDocument {
  const components = new SchemaComponents({ ...options.named, ErrorV2: errorV2Schema });
  const paths: OpenApiDocument['paths'] = {};
  for (const call of calls) {
    const path = openApiPath(call.path);
    paths[path] ??= {};
    paths[path][call.method.toLowerCase()] = operationOf(call, components, options);
  }
  paths[TOKEN_PATH] = tokenPathItem() as Record<string, Operation>;
  const built = componentsOf(components);
  const apiScopes = new Set<string>();
  for (const call of calls) for (const s of options.scopeOf?.(call) ?? []) apiScopes.add(s);
  const flows = (built.securitySchemes!.api_client as { flows: { clientCredentials: { scopes: Record<string, string> } } }).flows;
  for (const s of [...apiScopes].sort()) flows.clientCredentials.scopes[s] = `API scope ${s}.`;
  const tags = [...new Set([...calls.map(tagOf), 'oauth'])].sort().map((name) => ({ name }));
  return {
    openapi: '3.1.0',
    info: {
      title: 'Ledgerline API',
      version: options.version,
      summary: 'Spend management: cards, transactions, bills, reimbursements, travel, treasury.',
      description: 'Generated from the call catalogue (schema/api/calls.ts). Every error answers `error_v2` with a catalogue code.',
    },
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    servers: [{ url: '/', description: 'This Ledgerline server' }],
    tags,
    paths: Object.fromEntries(Object.entries(paths).sort(([a], [b]) => a.localeCompare(b))),
    components: built,
  };
}
