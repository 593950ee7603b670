/** Issue 32: Settings → Integrations → SCIM provisioning. */
export function ScimPage() {
  return <h1>SCIM provisioning</h1>;
}
