/** Issue 31: the handlers of schema/api/calls-surfaces.ts (docs/design/issue-31-surfaces.md). */
import type { DomainHandlers } from '../http/handler.ts';

export const surfaceHandlers = {} satisfies DomainHandlers;
