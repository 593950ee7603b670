import { createRoute, type AnyRoute } from '@tanstack/react-router';
import type { NavItem } from '../../lib/routing.ts';
import { SettingsPage } from './settings-page.tsx';
import { SignInRoute, parseSignInSearch } from './sign-in-page.tsx';
import { SignUpPage } from './sign-up-page.tsx';

export { ReauthDialog } from './reauth-dialog.tsx';
export { StepUpDialog } from './step-up-dialog.tsx';
export { MfaStep } from './mfa-step.tsx';

/** Signed-out routes (the shell sends a signed-in visitor on). */
export function identityGuestRoutes<P extends AnyRoute>(parent: P) {
  return [
    createRoute({ getParentRoute: () => parent, path: '/sign-in', validateSearch: parseSignInSearch, component: SignInRoute }),
    createRoute({ getParentRoute: () => parent, path: '/sign-up', component: SignUpPage }),
  ] as const;
}

/** Signed-in routes: the account's security settings (password, two-factor authentication). */
export function identityRoutes<P extends AnyRoute>(parent: P) {
  return [createRoute({ getParentRoute: () => parent, path: '/settings', component: SettingsPage })] as const;
}

export const identityNav: readonly NavItem[] = [{ to: '/settings', label: 'Settings' }];
