import { BillPayNav } from '../bill-pay-nav.tsx';

/** PLACEHOLDER (being built this session; replaced before the commit that lands it). */
export function RecurringBillsPage() {
  return (
    <div className="bills">
      <BillPayNav current="/bills/recurring" />
      <div className="page-header">
        <h1>Recurring bills</h1>
      </div>
    </div>
  );
}
