import type { BillView } from './use-bills.ts';
import type { DataClient } from '../../data-access/types.ts';
import { BillCardMatch } from './bill-card-match.tsx';
import { BillFlex } from './bill-flex.tsx';

export interface BillPayOptionsProps {
  bill: BillView;
  vendor: string;
  client: DataClient;
  online: boolean;
  version: number;
}

/**
 * The bill drawer's ways to settle a bill besides Bill pay's own payment (issue 30): paying with
 * flex, and closing it against the company card charge that already paid it. One element in the
 * drawer (bill-drawer.tsx is at its size limit), each part self-contained.
 */
export function BillPayOptions({ bill, vendor, client, online, version }: BillPayOptionsProps) {
  return (
    <>
      <BillFlex bill={bill} vendor={vendor} client={client} online={online} />
      <BillCardMatch bill={bill} vendor={vendor} client={client} online={online} version={version} />
    </>
  );
}
