import { redirect } from '@tanstack/react-router';
import type { SpendUser } from '../../schema/entities/spend-user.ts';
import type { AppStore } from '../data-access/app-state.ts';
import { HOME_PATH } from './redirect.ts';

/**
 * A route's `beforeLoad` that lets in only the signed-in people `allowed` says (§6 roles): anyone
 * else typing the address goes home (the server refuses their calls anyway).
 */
export function onlyFor(allowed: (user: SpendUser) => boolean) {
  return ({ context }: { context: unknown }) => {
    const user = (context as { store: AppStore }).store.get().session?.user;
    if (!user || !allowed(user)) throw redirect({ to: HOME_PATH, replace: true });
  };
}
