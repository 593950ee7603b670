import { applicationSubmit } from '../../schema/api/calls-application-steps.ts';
import { submitApplication } from '../domain/applications/submit.ts';
import { ok, type DomainHandlers } from '../http/handler.ts';
import { applicationIdOf } from './application-access.ts';

/** Issue 31: submitting the application (exactly once; server/domain/applications/submit.ts). */
export const applicationSubmitHandlers = {
  [applicationSubmit.id]: async (ctx) => ok(await submitApplication(ctx.db, applicationIdOf(ctx), new Date(ctx.deps.now()))),
} satisfies DomainHandlers;
