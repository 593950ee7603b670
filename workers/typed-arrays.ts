/** The typed arrays the engine keeps its columns in. */
export type TypedColumn = Float64Array | Int32Array | Uint32Array | Uint16Array | Uint8Array;

/** A typed array of the same kind and `size` (≥ from.length) holding `from` at its start, the rest zero. */
export function grownTo<T extends TypedColumn>(from: T, size: number): T {
  const to = new (from.constructor as new (n: number) => T)(size);
  (to as unknown as { set(a: ArrayLike<number>): void }).set(from);
  return to;
}
