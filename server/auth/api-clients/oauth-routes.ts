import type { Hono } from 'hono';
import type { AppDeps } from '../../core/deps.ts';

/**
 * Issue 32: the OAuth 2.0 token endpoint of customer API clients (client credentials,
 * RFC 6749 §4.4), outside the JSON call catalogue when its form body and error format need it.
 */
export function registerOAuthRoutes(_app: Hono, _deps: AppDeps): void {}
