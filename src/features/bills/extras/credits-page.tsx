import { BillPayNav } from '../bill-pay-nav.tsx';

/** PLACEHOLDER (being built this session; replaced before the commit that lands it). */
export function VendorCreditsPage() {
  return (
    <div className="bills">
      <BillPayNav current="/bills/credits" />
      <div className="page-header">
        <h1>Vendor credits</h1>
      </div>
    </div>
  );
}
