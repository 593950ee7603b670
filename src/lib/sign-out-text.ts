/** The question asked before signing out with edits that have not reached the server. */
export function unsyncedQuestion(count: number): string {
  return `${count} ${count === 1 ? "change hasn't" : "changes haven't"} synced. Sign out anyway?`;
}
