import { z } from 'zod';

/** §3 web config: what the page reads before sign-in, with its defaults. */
export const webConfigSchema = z.object({
  isLoginDown: z.boolean().default(false),
  isMfaDown: z.boolean().default(false),
  enabledNewConsoleFtux: z.boolean().default(true),
  customLoginDownMessage: z.string().nullable().default(null),
  customMfaDownMessage: z.string().nullable().default(null),
  /** Whether this server has a Google client configured (GOOGLE_CLIENT_ID): the sign-in page offers "Continue with Google". */
  googleSignIn: z.boolean().default(false),
  percentageRollout: z.object({ test: z.boolean().default(false) }).default({ test: false }),
});
export type WebConfig = z.infer<typeof webConfigSchema>;

export const DEFAULT_LOGIN_DOWN_MESSAGE = 'Sign-in is temporarily unavailable. Please try again shortly.';
export const DEFAULT_MFA_DOWN_MESSAGE =
  'Multi-factor authentication is temporarily unavailable. Please try again shortly.';

export const loginDownMessage = (c: WebConfig) => c.customLoginDownMessage || DEFAULT_LOGIN_DOWN_MESSAGE;
export const mfaDownMessage = (c: WebConfig) => c.customMfaDownMessage || DEFAULT_MFA_DOWN_MESSAGE;
