/** Settings' entry to the business's feature flags (issue 32). */
export function FeatureFlagsLink() {
  return null;
}
