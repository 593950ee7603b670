import type { Context, Next } from 'hono';
import type { AppDeps } from '../core/deps.ts';
import { runInScope } from '../core/workflow-scope.ts';
import { mailLinks } from './mail-links.ts';

/** Every API request carries its mail port to the workflow runs its writes trigger (core/workflow-scope.ts). */
export const workflowRequestScope = (deps: AppDeps) => (c: Context, next: Next) =>
  runInScope({ depth: 1, mail: deps, link: mailLinks({ c, deps }) }, () => next());
