import { BillPayNav } from '../bill-pay-nav.tsx';

/** PLACEHOLDER (being built this session; replaced before the commit that lands it). */
export function BillInboxPage() {
  return (
    <div className="bills">
      <BillPayNav current="/bills/inbox" />
      <div className="page-header">
        <h1>Inbox</h1>
      </div>
    </div>
  );
}
