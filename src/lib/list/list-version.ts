/** A number per list identity (`useRows`' data version: it re-reads when the list is a new one). */
const versions = new WeakMap<readonly unknown[], number>();
let nextVersion = 0;

export function listVersion(list: readonly unknown[]): number {
  let v = versions.get(list);
  if (v === undefined) versions.set(list, (v = ++nextVersion));
  return v;
}
