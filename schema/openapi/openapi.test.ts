import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { API_DOCS_DIR, generateApiDocs } from '../../scripts/openapi-docs.ts';
import { CATALOGUE } from '../api/calls.ts';
import { defineCall, uploadBodySchema } from '../api/define-call.ts';
import { buildOpenApi, openApiPath, summaryOf } from './generate.ts';
import { ledgerlineOpenApi } from './document.ts';

const doc = ledgerlineOpenApi('0.0.0-test', (call) => (call.id.startsWith('transactions.') ? ['transactions:read'] : undefined));

describe('the OpenAPI 3.1 document', () => {
  it('is valid by an independent validator (@seriousme/openapi-schema-validator, the OAI 3.1 schema)', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(doc) as never);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('has every catalogue call at its path and method, with its id as operationId', () => {
    for (const call of CATALOGUE) {
      const operation = doc.paths[openApiPath(call.path)]?.[call.method.toLowerCase()];
      expect(operation?.operationId, `${call.method} ${call.path}`).toBe(call.id);
    }
    const operations = Object.values(doc.paths).flatMap((item) => Object.values(item));
    expect(operations).toHaveLength(CATALOGUE.length + 1);
    expect(new Set(operations.map((o) => o.operationId)).size).toBe(operations.length);
  });

  it('describes the token endpoint by hand (RFC 6749 §4.4 form body, §5.2 errors)', () => {
    const token = doc.paths['/v1/public/token']!.post as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
    expect(Object.keys(token.requestBody.content)).toEqual(['application/x-www-form-urlencoded']);
    expect(token.responses['200'].content['application/json'].schema.required).toEqual(['access_token', 'token_type', 'expires_in', 'scope']);
    expect(token.responses['400'].content['application/json'].schema.properties.error.enum).toContain('invalid_scope');
    expect(doc.components.securitySchemes!.api_client).toMatchObject({ type: 'oauth2', flows: { clientCredentials: { tokenUrl: '/v1/public/token' } } });
  });

  it('takes the API scopes from scopeOf, and the token scopes from the call', () => {
    const list = doc.paths['/v1/auth/transactions']!.get!;
    expect(list.security).toEqual([{ ramp_id_token: ['default', 'low-risk'] }, { api_client: ['transactions:read'] }]);
    expect(doc.paths['/v1/auth/billing/subscriptions']!.get!.security).toEqual([{ ramp_id_token: ['default'] }]);
    expect(doc.paths['/v1/public/sign-in']!.post!.security).toEqual([]);
  });

  it('turns path and query parameters into parameters, comma-joined lists as form/explode false', () => {
    const get = doc.paths['/v1/auth/billing/subscription/{product}']!.put!;
    expect(get.parameters).toEqual([{ name: 'product', in: 'path', required: true, schema: { type: 'string', enum: ['PLUS', 'TRAVEL', 'PROCUREMENT', 'BILL_PAY_PLUS'] } }]);
    const cancel = doc.paths['/v1/auth/billing/subscription/{product}']!.delete! as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
    expect(cancel.requestBody.content['application/json'].schema).toMatchObject({ required: ['reason'], additionalProperties: false });
    expect(cancel.responses['503']).toEqual({ $ref: '#/components/responses/ServiceUnavailable' });
    expect(cancel.responses['422']).toEqual({ $ref: '#/components/responses/UnprocessableEntity' });
  });

  it('describes what JSON Schema cannot say (uploads, custom checks, transforms) instead of failing', () => {
    const upload = defineCall({
      id: 'probe.upload', method: 'POST', path: '/v1/auth/probe/:id', auth: { scopes: ['default'] },
      upload: { contentTypes: ['image/png'], maxBytes: 10 }, body: uploadBodySchema,
      params: z.object({ id: z.uuid() }),
      query: z.object({ at: z.string().transform((s) => new Date(s)), ids: z.array(z.string()).optional() }),
      response: z.object({ doc: z.custom<object>(() => true), when: z.date() }),
    });
    const built = buildOpenApi([upload], { version: '1' });
    const op = built.paths['/v1/auth/probe/{id}']!.post! as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
    expect(op.requestBody.content).toEqual({ 'image/png': { schema: { contentMediaType: 'image/png' } } });
    expect(op.parameters.find((p: { name: string }) => p.name === 'ids')).toMatchObject({ in: 'query', required: false, style: 'form', explode: false });
    expect(op.parameters.find((p: { name: string }) => p.name === 'at')).toMatchObject({ required: true, schema: { type: 'string' } });
    expect(op.responses['2XX'].content['application/json'].schema.properties.doc.description).toMatch(/checks by code/);
  });

  it('summarises an operation from its id', () => {
    expect(summaryOf({ id: 'bills.vendorCredits.delete' })).toBe('Bills › vendor credits › delete');
  });
});

describe('docs/api', () => {
  it('is current (run npm run openapi)', () => {
    const { json, readme } = generateApiDocs();
    const stale = 'docs/api differs from what the catalogue gives: run npm run openapi';
    expect(readFileSync(resolve(API_DOCS_DIR, 'openapi.json'), 'utf8') === json, stale).toBe(true);
    expect(readFileSync(resolve(API_DOCS_DIR, 'README.md'), 'utf8') === readme, stale).toBe(true);
  });
});
