import { BillPayNav } from '../bill-pay-nav.tsx';

/** PLACEHOLDER (being built this session; replaced before the commit that lands it). */
export function BillTemplatesPage() {
  return (
    <div className="bills">
      <BillPayNav current="/bills/templates" />
      <div className="page-header">
        <h1>Bill templates</h1>
      </div>
    </div>
  );
}
