/**
 * Issue 31, §7 "External firm (advisor)": the advisor console's calls (surface ADVISOR_CONSOLE
 * unless noted) and the client business's side of proposals and authorizations (BUSINESS).
 * Contract: docs/design/issue-31-surfaces.md §2.4. The calls live in the files spread here.
 */
import { FIRM_CONSOLE_CALLS } from './calls-external-firm-console.ts';
import { FIRM_CLIENT_CALLS, FIRM_PROPOSAL_CALLS } from './calls-external-firm-proposals.ts';
import { FIRM_LOGO_CALLS } from './calls-external-firm-logo.ts';
import { FIRM_REFERRAL_CALLS } from './calls-external-firm-referrals.ts';

/** The served calls of this file (a call enters with its handler, server/routes/external-firm.ts). */
export const EXTERNAL_FIRM_CALLS = [...FIRM_CONSOLE_CALLS, ...FIRM_PROPOSAL_CALLS, ...FIRM_CLIENT_CALLS, ...FIRM_REFERRAL_CALLS, ...FIRM_LOGO_CALLS] as const;
