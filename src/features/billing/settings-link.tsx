/** Settings' entry to Billing (issue 32). */
export function BillingLink() {
  return null;
}
