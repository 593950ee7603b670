/** Issue 32: Settings → Integrations → API clients. */
export function ApiClientsPage() {
  return <h1>API clients</h1>;
}
