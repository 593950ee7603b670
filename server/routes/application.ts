/** Issue 31: the handlers of schema/api/calls-application.ts (docs/design/issue-31-surfaces.md). */
import type { DomainHandlers } from '../http/handler.ts';
import { applicationBusinessHandlers } from './application-business.ts';
import { applicationDocumentHandlers } from './application-documents.ts';
import { applicationSignInHandlers } from './application-sign-in.ts';
import { applicationStepHandlers } from './application-steps.ts';
import { applicationSubmitHandlers } from './application-submit.ts';

export const applicationHandlers = {
  ...applicationSignInHandlers,
  ...applicationStepHandlers,
  ...applicationDocumentHandlers,
  ...applicationSubmitHandlers,
  ...applicationBusinessHandlers,
} satisfies DomainHandlers;
