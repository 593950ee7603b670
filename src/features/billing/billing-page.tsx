/** Issue 32: Settings → Billing (the business's Ledgerline subscriptions). */
export function BillingPage() {
  return <h1>Billing</h1>;
}
