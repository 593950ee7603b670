/**
 * The spec's call list (§7 "The calls it makes"), read from the spec's own text so the coverage
 * matrix (docs/coverage.md) cannot drift from it. Pure: the caller reads the file.
 *
 * §7 is prose: per section, sentences of the form `METHOD a, b, c` (or `POST and PATCH …`, a
 * `context: a, b` list, or items with no method at all). Each comma-separated item (commas
 * inside parentheses kept) is one spec call, labelled as the spec words it: `PATCH /bill-pay/{bill_uuid}`,
 * `DELETE vendors: contracts`, `GET card details`, `/travel/trips`.
 */

export type HttpVerb = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface SpecCall {
  /** The §7 subsection title, e.g. "Bill pay". */
  section: string;
  /** The call as the spec words it (methods, context, item): the key of the coverage data. */
  label: string;
  /** The methods the spec names for it (empty: none named). */
  methods: HttpVerb[];
  /**
   * The catalogue paths it may name, most literal first, when the item is a path: `/v1/auth/...`
   * with every placeholder `:`. A relative item (`/mileage` after `/reimbursements/out_of_pocket`,
   * `due-date` under `/bill-pay/bulk-actions/`) is tried under each prefix of its clause's first path.
   */
  paths: string[];
}

const VERB = '(?:GET|POST|PUT|PATCH|DELETE)';
const LEADING_VERBS = new RegExp(`^(${VERB}(?:\\s*(?:,|and)\\s*${VERB})*)\\b:?\\s*`);

/** Splits on `sep` outside parentheses. */
function splitOutside(text: string, sep: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let current = '';
  for (const ch of text) {
    if (ch === '(' || ch === '{') depth += 1;
    if (ch === ')' || ch === '}') depth = Math.max(0, depth - 1);
    if (ch === sep && depth === 0) {
      parts.push(current);
      current = '';
    } else {
      current += ch;
    }
  }
  parts.push(current);
  return parts.map((p) => p.trim()).filter((p) => p.length > 0);
}

/** The §7 subsections: title → paragraph text. Throws when the spec has no §7 call list. */
function specCallSections(specText: string): { title: string; text: string }[] {
  const start = specText.search(/^## 7\. /m);
  if (start < 0) throw new Error('The spec has no "## 7." section (the call list)');
  const rest = specText.slice(start);
  const end = rest.slice(3).search(/^## /m);
  const body = end < 0 ? rest : rest.slice(0, end + 3);
  const sections = body.split(/^### /m).slice(1).map((chunk) => {
    const newline = chunk.indexOf('\n');
    return { title: chunk.slice(0, newline).trim(), text: chunk.slice(newline + 1).replace(/\s+/g, ' ').trim() };
  });
  if (sections.length === 0) throw new Error('The spec\'s §7 has no "###" sections');
  return sections;
}

/** The path an item names (`/bill-pay/{bill_uuid}`, `mark-bill-as-paid/{bill_uuid}`), note stripped; null for prose. */
function itemPath(item: string): string | null {
  const bare = item.replace(/\s*\([^/()]*\)$/, '').trim();
  return /^\/?[a-z0-9_{}\-/]+$/i.test(bare) && !bare.includes('...') ? bare : null;
}

/** `/bill-pay/{bill_uuid}` → `/v1/auth/bill-pay/:` (every placeholder `:`, no trailing slash). */
const specShape = (path: string) =>
  `/v1/auth/${path.replace(/^\//, '')}`.replace(/\{[^}]+\}/g, ':').replace(/\/$/, '');

/** Normalises a catalogue path the same way (`:name` → `:`). */
export const pathShape = (path: string) => path.replace(/:[a-z_]+/gi, ':');

/** `/a/b/c` → [`/a/b/c`, `/a/b`, `/a`]. */
const prefixes = (path: string) =>
  path.split('/').filter(Boolean).map((_, i, parts) => `/${parts.slice(0, parts.length - i).join('/')}`);

function candidates(path: string, bases: string[]): string[] {
  const relative = bases.map((b) => `${b.replace(/\/$/, '')}/${path.replace(/^\//, '')}`);
  const own = path.startsWith('/') || bases.length === 0 ? [path] : [];
  return [...new Set([...own, ...relative].map(specShape))];
}

function clauseCalls(section: string, clause: string, contextPath: string): SpecCall[] {
  let rest = clause.replace(/^(Also|plus)\s+/i, '');
  const verbs = LEADING_VERBS.exec(rest);
  const methods = verbs ? ((verbs[1]!.match(new RegExp(VERB, 'g')) ?? []) as HttpVerb[]) : [];
  if (verbs) rest = rest.slice(verbs[0].length);
  const context = /^([^,(){}/]+?):\s+/.exec(rest);
  if (context) rest = rest.slice(context[0].length);
  const head = [methods.join(' and '), context ? `${context[1]}:` : ''].filter(Boolean).join(' ');
  const items = splitOutside(rest, ',').map((raw) => raw.replace(/^(plus|and)\s+/i, ''));
  const first = items.map(itemPath).find((p) => p?.startsWith('/'));
  const bases = contextPath ? [contextPath] : first ? prefixes(itemPath(first)!.replace(/\{[^}]+\}/g, ':')) : [];
  return items.map((item) => {
    const path = context ? null : itemPath(item);
    return { section, label: head ? `${head} ${item}` : item, methods, paths: path ? candidates(path, bases) : [] };
  });
}

/** Every spec call of §7, in the spec's order. */
export function parseSpecCalls(specText: string): SpecCall[] {
  const calls: SpecCall[] = [];
  for (const { title, text } of specCallSections(specText)) {
    for (const sentence of text.split(/\.\s+(?=[A-Z])|\.$/)) {
      let clauses = sentence.trim();
      if (!clauses) continue;
      // "Bulk actions under /bill-pay/bulk-actions/: PATCH a, b; POST c": the path is the items' context.
      const under = /^[^:]*?\s(\/[^\s:]+\/?):\s+/.exec(clauses);
      const contextPath = under ? under[1]! : '';
      if (under) clauses = clauses.slice(under[0].length);
      for (const clause of splitOutside(clauses, ';')) calls.push(...clauseCalls(title, clause, contextPath));
    }
  }
  return calls;
}
