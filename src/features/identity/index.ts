import { createRoute, type AnyRoute } from '@tanstack/react-router';
import type { NavItem } from '../../lib/routing.ts';
import { SignInRoute, parseSignInSearch } from './sign-in-page.tsx';
import { lazyPage } from '../../lib/lazy-page.tsx';
import { parsePasswordlessSearch, parseSsoCompleteSearch } from './search-params.ts';

export { ReauthDialog } from './reauth-dialog.tsx';
export { StepUpDialog } from '../../components/step-up-dialog.tsx';
export { MfaStep } from './mfa-step.tsx';
export { EmailVerificationBanner } from './email-verification-banner.tsx';

/** A signed-out page in its own chunk; its skeleton sits where the page's card will. */
const guestPage = <M extends Record<string, unknown>, K extends keyof M & string>(load: () => Promise<M>, name: K, title: string) =>
  lazyPage(load, name, { title, className: 'sign-in' });

/**
 * Signed-out routes (the shell sends a signed-in visitor on). Sign-in, a first visit's page, is in
 * the first load; the others are lazy chunks (issue 33: the first load is what sign-in parses).
 */
export function identityGuestRoutes<P extends AnyRoute>(parent: P) {
  return [
    createRoute({ getParentRoute: () => parent, path: '/sign-in', validateSearch: parseSignInSearch, component: SignInRoute }),
    createRoute({ getParentRoute: () => parent, path: '/sign-up', ...guestPage(() => import('./sign-up-page.tsx'), 'SignUpPage', 'Create your account') }),
    // The links the server mails (issue 14): an invite, and a passwordless sign-in.
    createRoute({ getParentRoute: () => parent, path: '/invites/$token', ...guestPage(() => import('./invite-page.tsx'), 'InviteRoute', 'Your invite') }),
    createRoute({ getParentRoute: () => parent, path: '/passwordless', validateSearch: parsePasswordlessSearch, ...guestPage(() => import('./passwordless-page.tsx'), 'PasswordlessRoute', 'Sign-in link') }),
    // Where single sign-on lands (issue 14): the server's callback sends the browser here with a one-time code.
    createRoute({ getParentRoute: () => parent, path: '/sso/complete', validateSearch: parseSsoCompleteSearch, ...guestPage(() => import('./sso-complete-page.tsx'), 'SsoCompleteRoute', 'Signing you in') }),
  ] as const;
}

/**
 * Identity has no signed-in page of its own: its settings (SecuritySettings) are a section of the
 * shell's Settings page, which composes every feature's sections (features cannot import each other).
 */
export const identityNav: readonly NavItem[] = [{ to: '/settings', label: 'Settings' }];
