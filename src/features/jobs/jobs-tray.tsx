/** Issue 32: the signed-in person's running async jobs (exports, imports, statements), with progress. */
export function JobsTray() {
  return null;
}
