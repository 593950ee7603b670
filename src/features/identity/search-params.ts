/**
 * The URL parsers of identity's mailed-link pages, apart from the pages: the routes (index.ts,
 * in the first load) validate the search while the pages themselves are lazy chunks (issue 33).
 */

/** `/passwordless?token=`: a sign-in link's token, kept only when it has the token's shape. */
export const parsePasswordlessSearch = (raw: Record<string, unknown>): { token?: string } =>
  typeof raw.token === 'string' && /^[A-Za-z0-9_-]{20,100}$/.test(raw.token) ? { token: raw.token } : {};

/** `/sso/complete?code=`: the single sign-on callback's one-time code. */
export const parseSsoCompleteSearch = (raw: Record<string, unknown>): { code?: string } =>
  typeof raw.code === 'string' && raw.code ? { code: raw.code.slice(0, 200) } : {};
