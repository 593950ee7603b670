/** Issue 32: Settings → Integrations → HRIS. */
export function HrisPage() {
  return <h1>HRIS</h1>;
}
