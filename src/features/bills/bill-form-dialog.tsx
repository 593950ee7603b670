import type { RowView } from '../../../workers/api.ts';
import type { DataClient } from '../../data-access/types.ts';
import type { ReferenceView } from '../../lib/reference-data.ts';

/**
 * The contract between the Bills page and the bill form (issue 11). The page opens the dialog
 * for a new bill (`bill` absent) or to edit one (a DRAFT or REJECTED bill); the form runs the
 * bill commands through the worker (offline-safe) and calls `onSaved` with the bill's id once
 * the command is durable on this device.
 *
 * Placeholder body: the form itself lands with the bill-form work of this session.
 */
export interface BillFormDialogProps {
  /** Editing this bill; creating a new one without it. */
  bill?: RowView<'bills'>;
  client: DataClient;
  reference: ReferenceView;
  /** The business's currency: a new bill's default. */
  currency: string;
  onClose(): void;
  onSaved(id: string): void;
  returnFocus?: () => HTMLElement | null | undefined;
}

export function BillFormDialog(props: BillFormDialogProps) {
  void props;
  return null;
}
