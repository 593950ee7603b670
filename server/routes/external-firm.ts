/** Issue 31: the handlers of schema/api/calls-external-firm.ts (docs/design/issue-31-surfaces.md). */
import type { DomainHandlers } from '../http/handler.ts';
import { firmProposalHandlers } from './external-firm-proposals.ts';
import { firmLogoHandlers, firmReferralHandlers } from './external-firm-referrals.ts';
import { firmTeamHandlers } from './external-firm-team.ts';

export const externalFirmHandlers = {
  ...firmTeamHandlers,
  ...firmProposalHandlers,
  ...firmReferralHandlers,
  ...firmLogoHandlers,
} satisfies DomainHandlers;
