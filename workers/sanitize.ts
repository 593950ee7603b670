/**
 * Removes keys that could reach an object's prototype (`__proto__`, `constructor`,
 * `prototype`) at any depth. JSON.parse turns `"__proto__"` into an own property, and a zod
 * record would copy it with a plain assignment, i.e. set the prototype of the result.
 * Returns the value itself when it holds no such key (the feed's rows, every one: the copy cost
 * ~14 ms a 2,000-row page, and the entity schema copies each row anyway), else a fresh structure
 * without them; primitives pass through.
 */
const UNSAFE = new Set(['__proto__', 'constructor', 'prototype']);

export function dropUnsafeKeys(value: unknown): unknown {
  return hasUnsafeKeys(value) ? withoutUnsafeKeys(value) : value;
}

function hasUnsafeKeys(value: unknown): boolean {
  if (value === null || typeof value !== 'object') return false;
  if (Array.isArray(value)) return value.some(hasUnsafeKeys);
  for (const key of Object.keys(value)) {
    if (UNSAFE.has(key) || hasUnsafeKeys((value as Record<string, unknown>)[key])) return true;
  }
  return false;
}

function withoutUnsafeKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutUnsafeKeys);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    if (UNSAFE.has(key)) continue;
    out[key] = withoutUnsafeKeys((value as Record<string, unknown>)[key]);
  }
  return out;
}
