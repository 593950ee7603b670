import { BETA_PROGRAMMES, BUSINESS_SETTINGS, BUSINESS_SETTING_TYPES, type BetaProgrammeId, type BusinessSetting, type BusinessSettingType } from '../../../schema/business-settings.ts';
import { formatMoney } from '../../../schema/money.ts';
import type { MailDeps } from '../../auth/email-otp.ts';
import type { ActingUser } from '../../core/actor.ts';
import type { Queryable } from '../../db/db.ts';
import { readMerchantRestrictions, writeMerchantRestrictions } from '../merchant-restrictions.ts';
import { setNotifyThreshold, thresholdFor } from '../notifications/threshold.ts';
import { readBetaEnrollment, clearBetaEnrollment } from './beta.ts';
import { clearCardBranding, readCardBranding } from './branding.ts';
import { assertBusinessAdmin, clearSecurityContact, storedSecurityContact } from './contact.ts';

/**
 * Issue 32, §7 `DELETE setting/{type}`: the registry's settings (schema/business-settings.ts),
 * each read from and reset in its own store. Owners and admins only (the list shows security and
 * spend controls). A reset of a setting already at its default changes nothing and answers it.
 */
const ONLY_ADMINS = 'Only owners and administrators can see and reset the business settings.';

type Current = { summary: string | null; updated_at: string | null };

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

/** Each setting's current value in words (null: the default) and when it last changed, if known. */
const READ: Record<BusinessSettingType, (db: Queryable, businessId: string) => Promise<Current>> = {
  transaction_notify_threshold: async (db, id) => {
    const t = await thresholdFor(db, id);
    return { summary: t ? `${formatMoney(t.amount, t.currency)} and above` : null, updated_at: null };
  },
  merchant_restrictions: async (db, id) => {
    const r = await readMerchantRestrictions(db, id);
    const n = r.blocked_merchant_categories.length;
    return { summary: n ? `${plural(n, 'category')} blocked: ${r.blocked_merchant_categories.slice(0, 3).join(', ')}${n > 3 ? '…' : ''}` : null, updated_at: r.updated_at };
  },
  security_contact: async (db, id) => {
    const c = await storedSecurityContact(db, id);
    return { summary: c ? `${c.name} <${c.email}>` : null, updated_at: c?.updated_at ?? null };
  },
  card_branding: async (db, id) => {
    const b = await readCardBranding(db, id);
    const parts = [b.logo ? 'Logo' : null, b.color ? `colour ${b.color}` : null].filter(Boolean);
    return { summary: parts.length ? parts.join(' and ') : null, updated_at: b.updated_at };
  },
  beta_enrollment: async (db, id) => {
    const joined = (await readBetaEnrollment(db, id)).programmes.filter((p) => p.enrolled_at);
    return { summary: joined.length ? joined.map((p) => BETA_PROGRAMMES[p.id as BetaProgrammeId].name).join(', ') : null, updated_at: joined[0]?.enrolled_at ?? null };
  },
};

type ResetDeps = { mail: MailDeps; now: Date };
const RESET: Record<BusinessSettingType, (tx: Queryable, user: ActingUser, deps: ResetDeps) => Promise<unknown>> = {
  transaction_notify_threshold: (tx, user) => setNotifyThreshold(tx, user, { threshold: null }),
  merchant_restrictions: async (tx, user, { now }) => {
    const current = await readMerchantRestrictions(tx, user.business_id);
    if (current.blocked_merchant_categories.length > 0) await writeMerchantRestrictions(tx, user.business_id, [], now);
  },
  security_contact: (tx, user, { mail }) => clearSecurityContact(tx, mail, user.business_id),
  card_branding: (tx, user) => clearCardBranding(tx, user.business_id),
  beta_enrollment: (tx, user, { mail }) => clearBetaEnrollment(tx, mail, user.business_id),
};

async function settingOf(db: Queryable, businessId: string, type: BusinessSettingType): Promise<BusinessSetting> {
  const def = BUSINESS_SETTINGS[type];
  const current = await READ[type](db, businessId);
  return {
    type, label: def.label, description: def.description, is_default: current.summary === null,
    summary: current.summary ?? def.default_summary, default_summary: def.default_summary, edit_path: def.edit_path, updated_at: current.updated_at,
  };
}

export async function listBusinessSettings(db: Queryable, user: ActingUser): Promise<{ settings: BusinessSetting[] }> {
  assertBusinessAdmin(user, ONLY_ADMINS);
  const settings: BusinessSetting[] = [];
  for (const type of BUSINESS_SETTING_TYPES) settings.push(await settingOf(db, user.business_id, type));
  return { settings };
}

export async function resetBusinessSetting(tx: Queryable, user: ActingUser, type: BusinessSettingType, deps: ResetDeps): Promise<BusinessSetting> {
  assertBusinessAdmin(user, ONLY_ADMINS);
  await tx.query('SELECT 1 FROM businesses WHERE id = $1 FOR UPDATE', [user.business_id]);
  await RESET[type](tx, user, deps);
  return settingOf(tx, user.business_id, type);
}
