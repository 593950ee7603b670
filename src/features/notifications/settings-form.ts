import type { NotificationPreferences, NotifyThreshold } from '../../../schema/api/calls-notifications.ts';
import type { NotificationKind } from '../../../schema/entities/notification.ts';
import { formatMoney, minorToDecimal, toMinorUnits } from '../../../schema/money.ts';

type Threshold = NotifyThreshold['threshold'];
/** The contract's most (schema/api/calls-notifications.ts `notifyThresholdSchema`). */
const MAX_MINOR = 1_000_000_000;

/** The threshold form's amount → what PATCH sends, or why it cannot (a positive amount in the currency's units). */
export function thresholdFromForm(amount: string, currency: string): { ok: true; threshold: NonNullable<Threshold> } | { ok: false; error: string } {
  if (!amount.trim()) return { ok: false, error: 'Enter an amount, or switch it off.' };
  const minor = toMinorUnits(amount, currency);
  if (minor === null) return { ok: false, error: `Enter an amount in ${currency}, like 5000 or 5000.00.` };
  if (minor <= 0) return { ok: false, error: 'The amount must be more than zero.' };
  if (minor > MAX_MINOR) return { ok: false, error: `At most ${formatMoney(MAX_MINOR, currency)}.` };
  return { ok: true, threshold: { amount: minor, currency } };
}

/** The form's amount for a saved threshold ("5000.00"), empty when off. */
export const thresholdAmountText = (t: Threshold): string => (t ? minorToDecimal(t.amount, t.currency) : '');

/** What the threshold does now, in words. */
export function thresholdText(t: Threshold): string {
  return t
    ? `On: admins are notified of each card transaction of ${formatMoney(t.amount, t.currency)} or more in ${t.currency}.`
    : 'Off: no notification for large card transactions.';
}

/**
 * The switches as shown: the server's answer with the person's changes not yet saved on top
 * (made offline or while a save failed: kept, sent when the connection is back).
 */
export function shownPreferences(saved: NotificationPreferences['email'], unsaved: Partial<Record<NotificationKind, boolean>>): NotificationPreferences['email'] {
  return { ...saved, ...unsaved };
}

/** The unsaved changes that still differ from what the server holds (a switch put back is no change). */
export function stillUnsaved(saved: NotificationPreferences['email'], unsaved: Partial<Record<NotificationKind, boolean>>): Partial<Record<NotificationKind, boolean>> {
  const out: Partial<Record<NotificationKind, boolean>> = {};
  for (const [k, v] of Object.entries(unsaved) as [NotificationKind, boolean][]) if (saved[k] !== v) out[k] = v;
  return out;
}
