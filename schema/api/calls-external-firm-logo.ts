import { z } from 'zod';
import { firmSchema } from '../entities/external-firm.ts';
import { defineCall, uploadBodySchema } from './define-call.ts';

/** Issue 31: a firm's logo (PNG or JPEG ≤ 512 KB; SVG and markup refused by schema/file-content.ts). */
export const FIRM_LOGO_CONTENT_TYPES = ['image/png', 'image/jpeg'] as const;
export const FIRM_LOGO_MAX_BYTES = 512 * 1024;
const auth = { scopes: ['default'] } as const;
const CONSOLE = ['ADVISOR_CONSOLE'] as const;

export const logoPut = defineCall({
  id: 'firm.logo.put', method: 'PUT', path: '/v1/auth/external-firm/logo', auth, surfaces: CONSOLE,
  body: uploadBodySchema, upload: { contentTypes: FIRM_LOGO_CONTENT_TYPES, maxBytes: FIRM_LOGO_MAX_BYTES }, response: firmSchema,
});
export const logoDelete = defineCall({
  id: 'firm.logo.delete', method: 'DELETE', path: '/v1/auth/external-firm/logo', auth, surfaces: CONSOLE, response: firmSchema,
});
/** The logo's bytes for any member of the firm (404 without one). */
export const logoGet = defineCall({
  id: 'firm.logo.get', method: 'GET', path: '/v1/auth/external-firm/logo', auth, surfaces: CONSOLE, response: z.string(),
});

export const FIRM_LOGO_CALLS = [logoPut, logoDelete, logoGet] as const;
