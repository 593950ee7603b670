/** Issue 32: monthly statements per card and per business. */
export function StatementsPage() {
  return <h1>Statements</h1>;
}
