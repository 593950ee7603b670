export const HOME_PATH = '/transactions';

/**
 * Where to go after sign-in: only a same-origin path from our own redirect parameter, never
 * an absolute or protocol-relative URL (an open redirect would let a link phish the session).
 */
export function safeRedirect(redirect: string | undefined): string {
  if (!redirect || !redirect.startsWith('/') || redirect.startsWith('//') || redirect.startsWith('/\\')) return HOME_PATH;
  if (redirect.startsWith('/sign-in')) return HOME_PATH;
  return redirect;
}
