import { MAX_MENTIONS } from '../../schema/api/calls-comments.ts';

/**
 * Issue 29, mentions in a comment (the composer's @ picker and the thread's highlighting), pure.
 * A mention is written into the text as "@First Last" and its person's id is kept beside the text
 * (`mention_ids`): the text alone cannot say which of two people with one name was meant, and a
 * mention the writer deleted from the text must not notify anyone.
 */

export interface Mentionable {
  id: string;
  name: string;
  email?: string;
}

/** The "@…" being typed at the caret: where it starts (the "@") and what follows it. */
export interface MentionQuery {
  start: number;
  query: string;
}

/** Longest query the picker follows: past it the "@" was not a mention. */
const MAX_QUERY = 40;
/** What may stand before "@" for it to open the picker (not a letter or digit: "ana@acme.com" is an address). */
const BEFORE_AT = /[\s([{"'“‘,;:]/;

/**
 * The mention being typed at `caret`, or null: an "@" at the start or after a space or opening
 * punctuation, then up to two words on the same line ("@Maya", "@Maya Ch"), no second "@".
 */
export function mentionQueryAt(text: string, caret: number): MentionQuery | null {
  const before = text.slice(0, caret);
  const start = before.lastIndexOf('@');
  if (start < 0) return null;
  if (start > 0 && !BEFORE_AT.test(before[start - 1]!)) return null;
  const query = before.slice(start + 1);
  if (query.length > MAX_QUERY || /[\n@]/.test(query) || /^\s/.test(query)) return null;
  if (query.split(' ').length > 3) return null;
  return { start, query };
}

const words = (s: string) => s.toLocaleLowerCase().split(/\s+/).filter(Boolean);

/**
 * The people whose name matches what was typed: each typed word the start of one of their name's
 * words, in order of typing ("ma ch" → Maya Chen), or the start of their email. Names that start
 * with the query first, then by name; at most `limit`.
 */
export function filterPeople<P extends Mentionable>(people: readonly P[], query: string, limit = 8): P[] {
  const typed = words(query);
  const q = query.trim().toLocaleLowerCase();
  const matches = people.filter((p) => {
    if (typed.length === 0) return true;
    const name = words(p.name);
    if (typed.every((t) => name.some((w) => w.startsWith(t)))) return true;
    return !!p.email && !q.includes(' ') && p.email.toLocaleLowerCase().startsWith(q);
  });
  const starts = (p: P) => (p.name.toLocaleLowerCase().startsWith(q) ? 0 : 1);
  return matches.sort((a, b) => starts(a) - starts(b) || a.name.localeCompare(b.name)).slice(0, limit);
}

/** Whether the picker stays open: something matches, or the query is still one word (the first space ends a miss). */
export function pickerOpen(query: MentionQuery | null, matches: number): boolean {
  if (!query) return false;
  return matches > 0 || !query.query.includes(' ');
}

/** The text with the typed "@query" replaced by "@First Last " and where the caret goes after it. */
export function insertMention(text: string, at: MentionQuery, person: Mentionable): { text: string; caret: number } {
  const end = at.start + 1 + at.query.length;
  const inserted = `@${person.name} `;
  const rest = text.slice(end).replace(/^ /, '');
  return { text: text.slice(0, at.start) + inserted + rest, caret: at.start + inserted.length };
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** "@Name" standing as a whole mention: not followed by a letter or digit ("@Ana" is not in "@Anat"). */
const mentionPattern = (name: string) => new RegExp(`@${escape(name)}(?![\\p{L}\\p{N}])`, 'u');

/**
 * The ids to send as `mention_ids`: the people picked whose "@Name" is still in the text, each
 * once, at most MAX_MENTIONS (the server refuses more).
 */
export function mentionIdsIn(text: string, picked: readonly Mentionable[]): string[] {
  const ids: string[] = [];
  for (const p of picked) {
    if (!ids.includes(p.id) && mentionPattern(p.name).test(text)) ids.push(p.id);
  }
  return ids.slice(0, MAX_MENTIONS);
}

/** A piece of a comment's text: plain, or a mention to highlight. */
export type BodySegment = { text: string; mention: boolean };

/**
 * A comment's text cut into plain pieces and the "@Name" of each person it mentions (the server's
 * `mentions`), longest names first so "@Ana Lima" wins over "@Ana". An "@" naming no one mentioned stays plain.
 */
export function bodySegments(body: string, mentions: readonly { name: string }[]): BodySegment[] {
  const names = [...new Set(mentions.map((m) => m.name).filter(Boolean))].sort((a, b) => b.length - a.length);
  if (names.length === 0) return [{ text: body, mention: false }];
  const any = new RegExp(`@(?:${names.map(escape).join('|')})(?![\\p{L}\\p{N}])`, 'gu');
  const out: BodySegment[] = [];
  let last = 0;
  for (const m of body.matchAll(any)) {
    if (m.index > last) out.push({ text: body.slice(last, m.index), mention: false });
    out.push({ text: m[0], mention: true });
    last = m.index + m[0].length;
  }
  if (last < body.length) out.push({ text: body.slice(last), mention: false });
  return out;
}
