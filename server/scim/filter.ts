import { ScimError } from './errors.ts';

/**
 * RFC 7644 §3.4.2.2 filters: a tokenizer and a recursive-descent parser into a small AST, with
 * limits on length, comparisons and nesting (a filter is the caller's program: it must stay
 * cheap). Besides the RFC grammar, `emails[type eq "work"].value co "x"` is read as one valuePath
 * whose element must meet both conditions (Entra and Okta send it).
 */

export type AttrPath = { uri: string | null; attr: string; sub: string | null };
export type CompareOp = 'eq' | 'ne' | 'co' | 'sw' | 'ew' | 'gt' | 'ge' | 'lt' | 'le';
export type Literal = string | number | boolean | null;
export type Filter =
  | { op: 'and' | 'or'; left: Filter; right: Filter }
  | { op: 'not'; filter: Filter }
  | { op: 'pr'; path: AttrPath }
  | { op: CompareOp; path: AttrPath; value: Literal }
  | { op: 'valuePath'; path: AttrPath; filter: Filter };

export const FILTER_LIMITS = { maxLength: 2000, maxComparisons: 40, maxDepth: 12 } as const;

const COMPARE_OPS = new Set<string>(['eq', 'ne', 'co', 'sw', 'ew', 'gt', 'ge', 'lt', 'le']);

type Token = { kind: 'word' | 'string' | 'punct'; text: string; value?: Literal; at: number };

const invalid = (detail: string) => new ScimError(400, 'invalidFilter', detail);

function readString(src: string, start: number): { end: number; value: string } {
  let i = start + 1;
  while (i < src.length && src[i] !== '"') i += src[i] === '\\' ? 2 : 1;
  if (i >= src.length) throw invalid(`The filter has an unterminated string at position ${start + 1}.`);
  try {
    return { end: i + 1, value: JSON.parse(src.slice(start, i + 1)) as string };
  } catch {
    throw invalid(`The filter has a malformed string at position ${start + 1}.`);
  }
}

function tokenize(src: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < src.length) {
    const ch = src[i]!;
    if (/\s/.test(ch)) { i++; continue; }
    if ('()[]'.includes(ch)) { tokens.push({ kind: 'punct', text: ch, at: i }); i++; continue; }
    if (ch === '"') {
      const { end, value } = readString(src, i);
      tokens.push({ kind: 'string', text: src.slice(i, end), value, at: i });
      i = end;
      continue;
    }
    // A word runs to whitespace or a bracket: attribute paths (URNs hold ':' and '.'), operators, literals.
    const m = /^[^\s()[\]"]+/.exec(src.slice(i))!;
    tokens.push({ kind: 'word', text: m[0], at: i });
    i += m[0].length;
  }
  return tokens;
}

const ATTR = /^[A-Za-z][\w$-]*$/;

/** `name.familyName`, `urn:…:User:manager.value`, `emails`: the URN (up to its last ':'), attribute, sub-attribute. */
export function parseAttrPath(text: string): AttrPath | null {
  let uri: string | null = null;
  let rest = text;
  if (/^urn:/i.test(text)) {
    const cut = text.lastIndexOf(':');
    uri = text.slice(0, cut);
    rest = text.slice(cut + 1);
  }
  const parts = rest.split('.');
  if (parts.length > 2 || !parts.every((p) => ATTR.test(p))) return null;
  return { uri, attr: parts[0]!, sub: parts[1] ?? null };
}

function literalOf(tok: Token | undefined): Literal {
  if (!tok) throw invalid('The filter ends where a value was expected.');
  if (tok.kind === 'string') return tok.value as string;
  if (tok.kind === 'word') {
    const lower = tok.text.toLowerCase();
    if (lower === 'true') return true;
    if (lower === 'false') return false;
    if (lower === 'null') return null;
    if (/^-?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(tok.text)) return Number(tok.text);
  }
  throw invalid(`"${tok.text}" at position ${tok.at + 1} is not a value (strings are quoted).`);
}

class Parser {
  private pos = 0;
  private comparisons = 0;
  constructor(private readonly tokens: Token[]) {}

  parse(): Filter {
    const f = this.or(0);
    const extra = this.tokens[this.pos];
    if (extra) throw invalid(`Unexpected "${extra.text}" at position ${extra.at + 1}.`);
    return f;
  }

  private peekWord(word: string): boolean {
    const t = this.tokens[this.pos];
    return t?.kind === 'word' && t.text.toLowerCase() === word;
  }

  private expect(punct: string): void {
    const t = this.tokens[this.pos];
    if (t?.kind !== 'punct' || t.text !== punct) {
      throw invalid(t ? `Expected "${punct}" at position ${t.at + 1}, found "${t.text}".` : `The filter ends where "${punct}" was expected.`);
    }
    this.pos++;
  }

  private or(depth: number): Filter {
    let left = this.and(depth);
    while (this.peekWord('or')) { this.pos++; left = { op: 'or', left, right: this.and(depth) }; }
    return left;
  }

  private and(depth: number): Filter {
    let left = this.unary(depth);
    while (this.peekWord('and')) { this.pos++; left = { op: 'and', left, right: this.unary(depth) }; }
    return left;
  }

  private unary(depth: number): Filter {
    if (depth > FILTER_LIMITS.maxDepth) throw invalid(`The filter nests deeper than ${FILTER_LIMITS.maxDepth} levels.`);
    if (this.peekWord('not')) {
      this.pos++;
      this.expect('(');
      const inner = this.or(depth + 1);
      this.expect(')');
      return { op: 'not', filter: inner };
    }
    const t = this.tokens[this.pos];
    if (t?.kind === 'punct' && t.text === '(') {
      this.pos++;
      const inner = this.or(depth + 1);
      this.expect(')');
      return inner;
    }
    return this.attrExpr(depth);
  }

  private attrExpr(depth: number): Filter {
    const t = this.tokens[this.pos];
    if (!t) throw invalid('The filter ends where an attribute was expected.');
    const path = t.kind === 'word' ? parseAttrPath(t.text) : null;
    if (!path) throw invalid(`"${t.text}" at position ${t.at + 1} is not an attribute path.`);
    this.pos++;
    const next = this.tokens[this.pos];
    if (next?.kind === 'punct' && next.text === '[') {
      if (path.sub) throw invalid(`"${t.text}[" : a value filter follows a multi-valued attribute, not a sub-attribute.`);
      this.pos++;
      const inner = this.or(depth + 1);
      this.expect(']');
      return { op: 'valuePath', path, filter: this.afterValuePath(inner, depth) };
    }
    return this.comparison(path);
  }

  /** `emails[type eq "work"].value co "x"`: the trailing `.sub op value` joins the element's filter. */
  private afterValuePath(inner: Filter, depth: number): Filter {
    const t = this.tokens[this.pos];
    if (t?.kind !== 'word' || !t.text.startsWith('.')) return inner;
    const sub = t.text.slice(1);
    if (!ATTR.test(sub)) throw invalid(`"${t.text}" at position ${t.at + 1} is not a sub-attribute.`);
    this.pos++;
    void depth;
    return { op: 'and', left: inner, right: this.comparison({ uri: null, attr: sub, sub: null }) };
  }

  private comparison(path: AttrPath): Filter {
    const opTok = this.tokens[this.pos];
    const op = opTok?.kind === 'word' ? opTok.text.toLowerCase() : '';
    if (++this.comparisons > FILTER_LIMITS.maxComparisons) {
      throw new ScimError(400, 'tooMany', `The filter has more than ${FILTER_LIMITS.maxComparisons} comparisons; split the query.`);
    }
    if (op === 'pr') { this.pos++; return { op: 'pr', path }; }
    if (!COMPARE_OPS.has(op)) {
      throw invalid(opTok ? `"${opTok.text}" at position ${opTok.at + 1} is not an operator (eq, ne, co, sw, ew, gt, ge, lt, le, pr).` : 'The filter ends where an operator was expected.');
    }
    this.pos++;
    const value = literalOf(this.tokens[this.pos]);
    this.pos++;
    return { op: op as CompareOp, path, value };
  }
}

/** Parses a filter; malformed → 400 invalidFilter, beyond the limits → 400 invalidFilter / tooMany. */
export function parseFilter(src: string): Filter {
  if (src.length > FILTER_LIMITS.maxLength) throw invalid(`The filter is longer than ${FILTER_LIMITS.maxLength} characters.`);
  if (src.trim() === '') throw invalid('The filter is empty.');
  return new Parser(tokenize(src)).parse();
}
