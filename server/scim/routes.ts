import type { Hono } from 'hono';
import { Hono as HonoApp } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { AppDeps } from '../core/deps.ts';
import { resourceTypes, schemaResources, serviceProviderConfig, listOf } from './discovery.ts';
import { ScimError, scimErrorResponse, scimJson } from './errors.ts';
import { integrationOfToken, touchIntegration } from './integrations.ts';
import { idOf, scimBase, scimHandler, type ScimEnv } from './kit.ts';
import { MAX_SCIM_BODY_BYTES } from './request.ts';
import { registerGroupRoutes } from './group-routes.ts';
import { registerUserRoutes } from './user-routes.ts';

/**
 * Issue 32: the SCIM 2.0 service provider at /scim/v2 (RFC 7643/7644), outside the JSON call
 * catalogue: its own media type, errors and bearer tokens (one per SCIM integration). The token
 * is checked before the body is read; bodies past 1 MB are refused (the /v1 limit does not
 * reach here).
 */
export function registerScimRoutes(app: Hono, deps: AppDeps): void {
  const scim = new HonoApp<ScimEnv>();
  scim.use('*', async (c, next) => {
    const header = c.req.header('authorization') ?? '';
    const token = /^Bearer\s+(\S+)$/i.exec(header.trim())?.[1];
    const caller = token ? await integrationOfToken(deps.db, token) : null;
    if (!caller) {
      const res = scimErrorResponse(c, new ScimError(401, null, 'A valid SCIM bearer token is required.'));
      res.headers.set('www-authenticate', 'Bearer realm="scim"');
      return res;
    }
    await touchIntegration(deps.db, caller.integrationId);
    c.set('caller', caller);
    await next();
  });
  scim.use('*', bodyLimit({
    maxSize: MAX_SCIM_BODY_BYTES,
    onError: (c) => scimErrorResponse(c, new ScimError(413, null, 'The body is larger than 1 MB.')),
  }));

  scim.get('/ServiceProviderConfig', (c) => scimJson(c, serviceProviderConfig(scimBase(c, deps))));
  scim.get('/Schemas', (c) => scimJson(c, listOf(schemaResources(scimBase(c, deps)))));
  scim.get('/Schemas/:id', scimHandler((c) => {
    const found = schemaResources(scimBase(c, deps)).find((s) => s.id.toLowerCase() === idOf(c).toLowerCase());
    if (!found) throw new ScimError(404, null, 'Schema not found.');
    return scimJson(c, found);
  }));
  scim.get('/ResourceTypes', (c) => scimJson(c, listOf(resourceTypes(scimBase(c, deps)))));
  scim.get('/ResourceTypes/:id', scimHandler((c) => {
    const found = resourceTypes(scimBase(c, deps)).find((r) => r.id === idOf(c));
    if (!found) throw new ScimError(404, null, 'Resource type not found.');
    return scimJson(c, found);
  }));
  registerUserRoutes(scim, deps);
  registerGroupRoutes(scim, deps);
  scim.all('*', (c) => scimErrorResponse(c, new ScimError(404, null, `No SCIM endpoint at ${c.req.path}.`)));
  app.route('/scim/v2', scim);
}

