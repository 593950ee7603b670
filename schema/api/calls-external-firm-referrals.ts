import { z } from 'zod';
import { firmReferralSchema } from '../entities/external-firm.ts';
import { uuid } from '../entities/common.ts';
import { defineCall } from './define-call.ts';

/**
 * Issue 31: a firm's referral codes (a business applying with one is `referred_by_firm_id`), and a
 * business's view of who referred it, §6 "referrals are viewable by non-firm users".
 */
const auth = { scopes: ['default'] } as const;
const CONSOLE = ['ADVISOR_CONSOLE'] as const;
const base = '/v1/auth/external-firm/referrals';

export const referralsList = defineCall({
  id: 'firm.referrals.list', method: 'GET', path: base, auth, surfaces: CONSOLE, response: z.object({ data: z.array(firmReferralSchema) }),
});
export const referralsCreate = defineCall({
  id: 'firm.referrals.create', method: 'POST', path: base, auth, surfaces: CONSOLE,
  body: z.object({ label: z.string().trim().min(1).max(100) }), response: firmReferralSchema,
});
export const referralsDelete = defineCall({
  id: 'firm.referrals.delete', method: 'DELETE', path: `${base}/:referral_id`, auth, surfaces: CONSOLE,
  params: z.object({ referral_id: z.uuid() }), response: firmReferralSchema,
});
/** The business's referral: the firm whose code it applied with (null when none). Not for a firm's own users. */
export const businessReferrals = defineCall({
  id: 'referrals.list', method: 'GET', path: '/v1/auth/businesses/referrals', auth,
  response: z.object({ referred_by_firm: z.object({ id: uuid, name: z.string() }).nullable() }),
});

export const FIRM_REFERRAL_CALLS = [referralsList, referralsCreate, referralsDelete, businessReferrals] as const;
