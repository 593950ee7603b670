import type { JsonSchema } from './json-schema.ts';

/** The token endpoint's path (D4): outside the JSON catalogue, described here by hand. */
export const TOKEN_PATH = '/v1/public/token';

/** RFC 6749 §5.1 successful answer. */
const tokenResponse: JsonSchema = {
  type: 'object',
  required: ['access_token', 'token_type', 'expires_in', 'scope'],
  properties: {
    access_token: { type: 'string', description: 'Send it as `Authorization: Bearer …` or in the RAMP-ID-TOKEN header.' },
    token_type: { type: 'string', const: 'Bearer' },
    expires_in: { type: 'integer', minimum: 1, description: 'Seconds until the token expires.' },
    scope: { type: 'string', description: 'The granted API scopes, separated by spaces.' },
    refresh_token: { type: 'string', description: 'Developer applications only (authorization_code, refresh_token): 30 days, one use; each refresh answers a new one.' },
  },
  additionalProperties: false,
};

/** RFC 6749 §5.2 error answer. */
const tokenError: JsonSchema = {
  type: 'object',
  required: ['error'],
  properties: {
    error: { type: 'string', enum: ['invalid_request', 'invalid_client', 'invalid_grant', 'unauthorized_client', 'unsupported_grant_type', 'invalid_scope'] },
    error_description: { type: 'string' },
    error_uri: { type: 'string', format: 'uri' },
  },
};

/**
 * RFC 6749 §4.4.2 access token request (form-encoded; credentials by HTTP Basic or in the body, §2.3.1);
 * issue 32's developer applications also send §4.1.3 (code + PKCE, RFC 7636) and §6 (refresh).
 */
const tokenRequest: JsonSchema = {
  type: 'object',
  required: ['grant_type'],
  properties: {
    grant_type: { type: 'string', enum: ['client_credentials', 'authorization_code', 'refresh_token'] },
    code: { type: 'string', description: 'authorization_code: the one-time code (60 s) from the redirect.' },
    redirect_uri: { type: 'string', description: 'authorization_code: exactly the redirect URI of the authorization request.' },
    code_verifier: { type: 'string', description: 'authorization_code: the PKCE verifier (S256).' },
    refresh_token: { type: 'string', description: 'refresh_token: the latest refresh token; a spent one revokes the connection.' },
    scope: { type: 'string', description: 'API scopes separated by spaces; at most the client\'s own. Absent: all of them.' },
    client_id: { type: 'string', description: 'Only when not sent by HTTP Basic authentication (a public developer application sends only this).' },
    client_secret: { type: 'string', description: 'Only when not sent by HTTP Basic authentication.' },
  },
};

const noStore = {
  'Cache-Control': { description: 'Always `no-store` (RFC 6749 §5.1).', schema: { type: 'string' } },
};

/** The path item of `POST /v1/public/token`. */
export function tokenPathItem(): Record<string, unknown> {
  return {
    post: {
      operationId: 'oauth.token',
      tags: ['oauth'],
      summary: 'Get an access token (OAuth 2.0: client credentials; authorization code and refresh for developer applications)',
      description: 'RFC 6749 §4.4. The client authenticates with HTTP Basic (client id and secret) or with `client_id` and `client_secret` in the form body, never both.',
      security: [{}, { client_basic: [] }],
      requestBody: {
        required: true,
        content: { 'application/x-www-form-urlencoded': { schema: tokenRequest } },
      },
      responses: {
        '200': { description: 'The access token.', headers: noStore, content: { 'application/json': { schema: tokenResponse } } },
        '400': { description: 'invalid_request, invalid_grant, unsupported_grant_type or invalid_scope (RFC 6749 §5.2).', content: { 'application/json': { schema: tokenError } } },
        '401': {
          description: 'invalid_client: unknown client, wrong, expired or revoked secret (RFC 6749 §5.2).',
          headers: { 'WWW-Authenticate': { description: 'Basic, when the client tried HTTP Basic.', schema: { type: 'string' } } },
          content: { 'application/json': { schema: tokenError } },
        },
        '429': {
          description: 'Too many token requests from this client.',
          headers: { 'Retry-After': { description: 'Seconds to wait.', schema: { type: 'integer' } } },
          content: { 'application/json': { schema: tokenError } },
        },
      },
    },
  };
}
