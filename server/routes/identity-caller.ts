import type { Caller } from '../core/actor.ts';
import { ApiError } from '../core/errors.ts';

/**
 * The caller of a call every signed-in token may make (`surfaces: ANY_SURFACE`, issue 31): the
 * business actor, or the surface actor of the advisor console, vendor portal or an application.
 * Register guarantees one of them on an authenticated call; this narrows the type.
 */
export function callerOf(ctx: { actor: Caller | null; surfaceActor: Caller | null }): Caller {
  const caller = ctx.actor ?? ctx.surfaceActor;
  if (!caller) throw new ApiError('AUTH_7002');
  return caller;
}
