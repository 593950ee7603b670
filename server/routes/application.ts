/** Issue 31: the handlers of schema/api/calls-application.ts (docs/design/issue-31-surfaces.md). */
import type { DomainHandlers } from '../http/handler.ts';

export const applicationHandlers = {} satisfies DomainHandlers;
