import type { MissingItemView } from '../../../workers/api.ts';

/**
 * The missing-items wizard's walk, pure: a queue of items fixed when the walk starts (new items
 * that appear meanwhile join at the end), a position, and what was fixed or skipped. The live
 * list (the worker's, re-read on every data change) says what each item still misses; an item
 * fixed leaves the live list, and the walk counts it as fixed, once: it never comes back because
 * the queue only grows by keys it has not seen.
 */
export interface WizardState {
  queue: string[];
  /** The first-seen item of each key: its steps stay on screen (ticked) once fixed. */
  first: Record<string, MissingItemView>;
  at: number;
  skipped: string[];
}

export const itemKeyOf = (i: Pick<MissingItemView, 'object_type' | 'object_id'>) => `${i.object_type}:${i.object_id}`;

export const EMPTY_WIZARD: WizardState = { queue: [], first: {}, at: 0, skipped: [] };

/** The live list joins the walk: unseen keys at the end (the queue's order is the list's). */
export function withLive(s: WizardState, live: readonly MissingItemView[]): WizardState {
  const fresh = live.filter((i) => !(itemKeyOf(i) in s.first));
  if (fresh.length === 0) return s;
  const first = { ...s.first };
  for (const i of fresh) first[itemKeyOf(i)] = i;
  return { ...s, queue: [...s.queue, ...fresh.map(itemKeyOf)], first };
}

export const next = (s: WizardState): WizardState => ({ ...s, at: Math.min(s.at + 1, s.queue.length) });
export const back = (s: WizardState): WizardState => ({ ...s, at: Math.max(s.at - 1, 0) });
export function skip(s: WizardState): WizardState {
  const key = s.queue[s.at];
  return next(key && !s.skipped.includes(key) ? { ...s, skipped: [...s.skipped, key] } : s);
}

/** Start again over what is still missing (the skipped ones and any left): a new walk. */
export const restart = (live: readonly MissingItemView[]): WizardState => withLive(EMPTY_WIZARD, live);

export interface WizardView {
  /** The item on screen: live (what it still misses) or, once fixed, its first sight. */
  current: { key: string; item: MissingItemView; fixed: boolean } | null;
  /** 1-based, for "3 of 12". */
  position: number;
  total: number;
  fixed: number;
  /** Still missing something now (the nav badge's count). */
  remaining: number;
  done: boolean;
}

export function viewOf(s: WizardState, live: readonly MissingItemView[]): WizardView {
  const byKey = new Map(live.map((i) => [itemKeyOf(i), i]));
  const fixed = s.queue.filter((k) => !byKey.has(k)).length;
  const key = s.queue[s.at];
  const done = s.at >= s.queue.length;
  const current = key === undefined ? null : { key, item: byKey.get(key) ?? s.first[key]!, fixed: !byKey.has(key) };
  return { current, position: Math.min(s.at + 1, s.queue.length), total: s.queue.length, fixed, remaining: live.length, done };
}
