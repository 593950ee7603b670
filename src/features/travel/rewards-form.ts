import type { TravelSettings } from '../../../schema/travel-policy.ts';

/** The travel settings form's rewards fields as typed (the share as text). */
export type RewardsValues = { enabled: boolean; share_percent: string };

export const rewardsValues = (settings: Pick<TravelSettings, 'rewards'>): RewardsValues => ({
  enabled: settings.rewards.enabled, share_percent: String(settings.rewards.share_percent),
});

/** The settings' `rewards`, or the field's message (a whole percentage from 0 to 100). */
export function rewardsBody(v: RewardsValues): { ok: true; rewards: TravelSettings['rewards'] } | { ok: false; errors: Record<string, string> } {
  const text = v.share_percent.trim().replace(/%$/, '').trim();
  const share = Number(text);
  if (text === '' || !Number.isInteger(share) || share < 0 || share > 100) {
    return { ok: false, errors: { share_percent: 'Enter a whole percentage from 0 to 100.' } };
  }
  return { ok: true, rewards: { enabled: v.enabled, share_percent: share } };
}
