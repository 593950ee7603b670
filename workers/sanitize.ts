/**
 * Removes keys that could reach an object's prototype (`__proto__`, `constructor`,
 * `prototype`) at any depth. JSON.parse turns `"__proto__"` into an own property, and a zod
 * record would copy it with a plain assignment, i.e. set the prototype of the result.
 * Returns a fresh structure; primitives pass through.
 */
const UNSAFE = new Set(['__proto__', 'constructor', 'prototype']);

export function dropUnsafeKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(dropUnsafeKeys);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    if (UNSAFE.has(key)) continue;
    out[key] = dropUnsafeKeys((value as Record<string, unknown>)[key]);
  }
  return out;
}
