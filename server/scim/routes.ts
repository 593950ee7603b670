import type { Hono } from 'hono';
import type { AppDeps } from '../core/deps.ts';

/**
 * Issue 32: the SCIM 2.0 service provider at /scim/v2 (RFC 7643/7644), outside the JSON call
 * catalogue: its own media type, errors and bearer tokens (one per SCIM integration).
 */
export function registerScimRoutes(_app: Hono, _deps: AppDeps): void {}
