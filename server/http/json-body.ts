import { ApiError } from '../core/errors.ts';

/**
 * The limits a JSON request body must keep before it is parsed or validated (issue 24). Every
 * catalogue body is far inside them: the deepest is a handful of levels, the widest array is a
 * 10,000-id bulk call (BULK_CODE_MAX), the widest object a telemetry event's properties.
 */
export const JSON_LIMITS = {
  /** Nesting of arrays and objects. */
  maxDepth: 64,
  /** Keys in one object. */
  maxKeys: 1_000,
  /** Items in one array (10× the largest bulk call, so a schema's own cap answers first). */
  maxItems: 100_000,
  /** Values in the whole body (keys included). */
  maxValues: 200_000,
} as const;

/** Keys that mean something to JavaScript objects; a body never needs them and never gets them through. */
export const PROTOTYPE_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

const refuse = (message: string) => new ApiError('REQUEST_7017', message);

/**
 * Checks the raw text's shape in one pass, without recursion and without parsing: depth, keys per
 * object, items per array and values in all. It only counts brackets and commas outside strings,
 * so text that is not JSON passes through to JSON.parse, which refuses it. Runs before JSON.parse,
 * so nothing later (validation, field walks) ever meets a value deep enough to overflow the stack.
 */
export function checkJsonShape(text: string): void {
  // Per open container: true for an object; and its comma count so far.
  const isObject: boolean[] = [];
  const commas: number[] = [];
  let values = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (inString) {
      if (ch === 0x5c) i++; // backslash: the next character is escaped
      else if (ch === 0x22) inString = false;
      continue;
    }
    switch (ch) {
      case 0x22: // "
        inString = true;
        break;
      case 0x5b: // [
      case 0x7b: // {
        if (isObject.length >= JSON_LIMITS.maxDepth) throw refuse(`The request body is nested too deeply: at most ${JSON_LIMITS.maxDepth} levels of arrays and objects.`);
        isObject.push(ch === 0x7b);
        commas.push(0);
        values++;
        break;
      case 0x5d: // ]
      case 0x7d: // }
        isObject.pop();
        commas.pop();
        break;
      case 0x2c: {
        // , : one more key or item in the innermost container.
        const top = commas.length - 1;
        if (top < 0) break;
        const n = ++commas[top]! + 1;
        if (isObject[top] && n > JSON_LIMITS.maxKeys) throw refuse(`The request body has an object with too many keys: at most ${JSON_LIMITS.maxKeys}.`);
        if (!isObject[top] && n > JSON_LIMITS.maxItems) throw refuse(`The request body has a list with too many items: at most ${JSON_LIMITS.maxItems}.`);
        if (++values > JSON_LIMITS.maxValues) throw refuse(`The request body has too many values: at most ${JSON_LIMITS.maxValues}.`);
        break;
      }
      default:
        break;
    }
  }
}

/**
 * The dotted path of the first prototype key in a parsed body, or null. Recursive, which is safe
 * only after checkJsonShape bounded the depth.
 */
function prototypeKeyPath(value: unknown, path = ''): string | null {
  if (value === null || typeof value !== 'object') return null;
  for (const [key, inner] of Object.entries(value)) {
    const at = path ? `${path}.${key}` : key;
    if (PROTOTYPE_KEYS.has(key)) return at;
    const found = prototypeKeyPath(inner, at);
    if (found) return found;
  }
  return null;
}

export const prototypeKeyRefusal = (path: string) =>
  refuse(`The request may not use the key "${path.split('.').at(-1)}" (at ${path}): __proto__, constructor and prototype are reserved.`);

/**
 * A request body's JSON: shape checked first, then parsed, then refused if it uses a prototype
 * key anywhere. Text that is not JSON throws `invalid` (the caller's own refusal).
 */
export function parseJsonBody(text: string, invalid: () => Error): unknown {
  checkJsonShape(text);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw invalid();
  }
  const proto = prototypeKeyPath(value);
  if (proto) throw prototypeKeyRefusal(proto);
  return value;
}
