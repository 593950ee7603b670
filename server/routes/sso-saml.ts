import type { Hono } from 'hono';
import { createSamlProvider, deleteSamlProvider } from '../../schema/api/calls-sso.ts';
import type { ProviderRow } from '../auth/sso/providers.ts';
import type { AppDeps } from '../core/deps.ts';
import { ApiError } from '../core/errors.ts';
import type { Queryable } from '../db/db.ts';
import type { DomainHandlers } from '../http/handler.ts';

// Until h-saml (server/auth/saml) is merged: SAML configuration is refused as not yet supported.
const unavailable = () => new ApiError('BUSINESS_7014', 'SAML providers are not available on this server yet.');

export async function samlProviderFields(_body: { metadata_url?: string; metadata_xml?: string }, _allowLoopbackHttp: boolean): Promise<{ fields: Partial<ProviderRow>; metadataXml: string | null }> {
  throw unavailable();
}
export async function samlStartUrl(_db: Queryable, _p: ProviderRow, _origin: string, _redirect: string | null, _now: number): Promise<string> {
  throw unavailable();
}
export function registerSamlBrowserRoutes(_app: Hono, _deps: AppDeps): void {}

export const ssoSamlHandlers = {
  [createSamlProvider.id]: async () => { throw unavailable(); },
  [deleteSamlProvider.id]: async () => { throw unavailable(); },
} satisfies DomainHandlers;
