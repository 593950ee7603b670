/** Issue 32: Settings → Feature flags (business-level overrides). */
export function FeatureFlagsPage() {
  return <h1>Feature flags</h1>;
}
