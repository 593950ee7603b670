import { errorText } from './error-text.ts';
import { DISPLAY_LOCALE, formatLocalDateTime, joinList } from './format.ts';
import type { Mentionable } from './comment-mentions.ts';

/** Issue 29, a comment thread's words (components/comment-thread.tsx), pure. */

export { COMMENTS_OFFLINE } from './comment-offline.ts';
export const COMPOSER_OFFLINE = 'You’re offline: comments are sent and read on the server. What you typed stays here.';

const WORKFLOW_PREFIX = 'Workflow:';

/** A comment a workflow wrote (no author): shown as the system's, not a person's. */
export const isSystemComment = (c: { author_id: string | null; author_name: string }): boolean =>
  c.author_id === null || c.author_name.startsWith(WORKFLOW_PREFIX);

/** "Maya Chen" → "MC", "cher" → "C"; nothing usable → "?". */
export function initials(name: string): string {
  const parts = name.trim().split(/\s+/).filter(Boolean);
  const letters = parts.length > 1 ? [parts[0]!, parts[parts.length - 1]!] : parts;
  const out = letters.map((p) => [...p][0] ?? '').join('').toLocaleUpperCase();
  return out || '?';
}

const relative = new Intl.RelativeTimeFormat(DISPLAY_LOCALE, { numeric: 'auto' });
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * When, said the way a thread says it: "just now", "5 minutes ago", "3 hours ago", "yesterday",
 * "4 days ago", then the date and time (the full time is always the element's title).
 */
export function relativeTime(iso: string, now: number): string {
  const at = Date.parse(iso);
  const ago = now - at;
  if (!Number.isFinite(at)) return '';
  if (ago < MINUTE) return 'just now';
  if (ago < HOUR) return relative.format(-Math.floor(ago / MINUTE), 'minute');
  if (ago < DAY) return relative.format(-Math.floor(ago / HOUR), 'hour');
  if (ago < 7 * DAY) return relative.format(-Math.floor(ago / DAY), 'day');
  return formatLocalDateTime(at);
}

/** "Comments", "Comments (3)", "Comments (500 of 612)". */
export function commentsHeading(shown: number | null, total: number | null): string {
  if (shown === null || total === null || total === 0) return 'Comments';
  return total > shown ? `Comments (${shown} of ${total})` : `Comments (${total})`;
}

type Refusal = { error_code?: string; message?: string; errors?: Record<string, string> } | null | undefined;

/**
 * A refused send in words. COMMENT_7002 (someone mentioned cannot see the item) names them: the
 * server's message when it names them already, else its field messages that do, else the people
 * its fields point at (by id, or by position in `mention_ids`).
 */
export function sendRefusalText(error: Refusal, mentioned: readonly Mentionable[]): string {
  const text = errorText(error);
  if (error?.error_code !== 'COMMENT_7002' || mentioned.some((m) => text.includes(m.name))) return text;
  const fields = Object.entries(error.errors ?? {});
  const sentences = fields.map(([, v]) => v).filter((v) => mentioned.some((m) => v.includes(m.name)));
  if (sentences.length > 0) return `${text} ${sentences.join(' ')}`;
  const named = mentioned.filter((m, i) => fields.some(([k, v]) => k.includes(m.id) || v.includes(m.id) || k === `mention_ids.${i}`));
  if (named.length === 0) return text;
  return `${text} ${joinList(named.map((m) => m.name))} cannot see this item.`;
}
