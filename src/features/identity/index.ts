import { createRoute, type AnyRoute } from '@tanstack/react-router';
import type { NavItem } from '../../lib/routing.ts';
import { SignInRoute, parseSignInSearch } from './sign-in-page.tsx';
import { SignUpPage } from './sign-up-page.tsx';
import { InviteRoute } from './invite-page.tsx';
import { PasswordlessRoute, parsePasswordlessSearch } from './passwordless-page.tsx';
import { SsoCompleteRoute, parseSsoCompleteSearch } from './sso-complete-page.tsx';

export { ReauthDialog } from './reauth-dialog.tsx';
export { StepUpDialog } from '../../components/step-up-dialog.tsx';
export { MfaStep } from './mfa-step.tsx';
export { EmailVerificationBanner } from './email-verification-banner.tsx';

/** Signed-out routes (the shell sends a signed-in visitor on). */
export function identityGuestRoutes<P extends AnyRoute>(parent: P) {
  return [
    createRoute({ getParentRoute: () => parent, path: '/sign-in', validateSearch: parseSignInSearch, component: SignInRoute }),
    createRoute({ getParentRoute: () => parent, path: '/sign-up', component: SignUpPage }),
    // The links the server mails (issue 14): an invite, and a passwordless sign-in.
    createRoute({ getParentRoute: () => parent, path: '/invites/$token', component: InviteRoute }),
    createRoute({ getParentRoute: () => parent, path: '/passwordless', validateSearch: parsePasswordlessSearch, component: PasswordlessRoute }),
    // Where single sign-on lands (issue 14): the server's callback sends the browser here with a one-time code.
    createRoute({ getParentRoute: () => parent, path: '/sso/complete', validateSearch: parseSsoCompleteSearch, component: SsoCompleteRoute }),
  ] as const;
}

/**
 * Identity has no signed-in page of its own: its settings (SecuritySettings) are a section of the
 * shell's Settings page, which composes every feature's sections (features cannot import each other).
 */
export const identityNav: readonly NavItem[] = [{ to: '/settings', label: 'Settings' }];
