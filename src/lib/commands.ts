/**
 * The command palette's commands (issue 8, ⌘K / Ctrl+K). Features contribute them through their
 * `index.ts` exports, as they do routes and nav entries (`transactionsCommands`), the shell adds
 * one per nav entry and its own ("Toggle theme"), and a mounted page adds what depends on its
 * state (`usePageCommands`: "Code selected" while rows are selected). The palette knows none of
 * them by name. Filtering is pure and tested.
 */
import type { ShortcutId } from './shortcuts.ts';

export interface CommandContext {
  /** Go to a signed-in path. */
  navigate(to: string): void;
}

export interface Command {
  /** Unique; a page's command replaces a contributed one with the same id (it knows more). */
  id: string;
  label: string;
  /** Shown beside the label ("Navigation", "Transactions"). */
  group: string;
  /** More words the filter matches ("go", "open"). */
  keywords?: readonly string[];
  /** The shortcut that does the same, shown as a hint. */
  shortcut?: ShortcutId;
  run(ctx: CommandContext): void;
}

/** Contributed commands, then the page's, a page's replacing a contributed one of the same id. */
export function mergeCommands(...lists: readonly (readonly Command[])[]): Command[] {
  const byId = new Map<string, Command>();
  for (const list of lists) for (const c of list) byId.set(c.id, c);
  return [...byId.values()];
}

/**
 * How well `query` matches `text` (lower is better), or null for no match: 0 the text starts
 * with it, 1 a word starts with it, 2 it is inside, 3 its letters appear in order (fuzzy).
 */
export function matchScore(text: string, query: string): number | null {
  const t = text.toLowerCase();
  const q = query.trim().toLowerCase();
  if (!q) return 0;
  if (t.startsWith(q)) return 0;
  if (t.split(/[\s/·-]+/).some((w) => w.startsWith(q))) return 1;
  if (t.includes(q)) return 2;
  let at = 0;
  for (const ch of q) {
    if (ch === ' ') continue;
    at = t.indexOf(ch, at);
    if (at < 0) return null;
    at++;
  }
  return 3;
}

/** The commands matching `query`, best first (stable: equal scores keep their order). */
export function filterCommands<C extends Pick<Command, 'label' | 'keywords'>>(commands: readonly C[], query: string): C[] {
  const scored: { c: C; score: number; i: number }[] = [];
  commands.forEach((c, i) => {
    const label = matchScore(c.label, query);
    // A keyword match ranks just after a label match of the same kind.
    const keyword = Math.min(...(c.keywords ?? []).map((k) => matchScore(k, query) ?? Infinity)) + 0.5;
    const score = Math.min(label ?? Infinity, keyword);
    if (score !== Infinity) scored.push({ c, score, i });
  });
  return scored.sort((a, b) => a.score - b.score || a.i - b.i).map((s) => s.c);
}

/** One "Go to X" command per main-navigation entry. */
export function navCommands(nav: readonly { to: string; label: string }[]): Command[] {
  return nav.map((item) => ({
    id: `nav:${item.to}`,
    label: `Go to ${item.label}`,
    group: 'Navigation',
    keywords: [item.label, 'open', 'navigate'],
    run: (ctx) => ctx.navigate(item.to),
  }));
}
