import { useMemo, useRef, useState, type Dispatch, type SetStateAction } from 'react';
import { useAppState, useDataClient } from '../../../data-access/data-context.tsx';
import type { DataClient } from '../../../data-access/types.ts';
import { useReferenceData, type ReferenceView } from '../../../lib/reference-data.ts';
import { toastInfo } from '../../../lib/toast-store.ts';
import type { ListColumn } from '../../../lib/list/list-spec.ts';
import { useOnlineList, type ListAnswer } from '../../../lib/use-online-list.ts';
import { useVendorChoices } from '../../../lib/vendor-choices.ts';
import type { BillFieldErrors, BillLineValues } from '../bill-form.ts';
import { BillLinesField } from '../bill-lines.tsx';

/**
 * What the Recurring, Templates and Vendor credits pages share: the connection, the business's
 * vendors (names, and the active ones to choose from) and the states of a server-only list
 * (loading, offline, refused) in the same words on every page.
 */
export function useExtrasPage() {
  const client = useDataClient();
  const online = useAppState((s) => s.online && (s.status?.online ?? true));
  const reference = useReferenceData(client, useAppState((s) => s.referenceVersion));
  const currency = useAppState((s) => s.session?.business.currency ?? 'USD');
  const { vendorName, vendorOptions } = useVendorChoices(reference.data.vendors, 'Unknown vendor');
  return { client, online, reference, currency, vendorName, vendorOptions };
}

/**
 * An extras page's server-only list (`load` once per `key`) with its dialog, and what the page
 * hands to `ExtrasPage` as is (`pageProps`: the list, its connection and reload, the columns, New,
 * whether a dialog is open).
 */
export function useExtrasList<T>(key: string, load: (client: DataClient) => Promise<ListAnswer<T>>, columnsOf: (vendorName: (id: string) => string) => ListColumn<T>[]) {
  const page = useExtrasPage();
  const { list, reload } = useOnlineList<T>(page.online, key, () => load(page.client));
  const dialog = useExtrasDialog<T>(reload);
  const columns = useMemo(() => columnsOf(page.vendorName), [columnsOf, page.vendorName]);
  const pageProps = { online: page.online, list, reload, columns, dialogOpen: dialog.open, onNew: () => dialog.setDialog({ kind: 'new' }) };
  return { page, list, reload, pageProps, ...dialog };
}

/** The page's data, handed to its form dialogs. */
export type ExtrasPageData = ReturnType<typeof useExtrasPage>;

/** The dialog an extras page shows: a new row's form, a row's (edit or delete), or none. */
export type ExtrasDialog<T> = { kind: 'new' } | { kind: 'edit' | 'delete'; row: T } | null;

/**
 * An extras page's dialog, and what follows a change: `said(text)` toasts it and reloads the list
 * (a delete dialog closes itself), `saved(text)` closes the form first.
 */
export function useExtrasDialog<T>(reload: () => void) {
  const [dialog, setDialog] = useState<ExtrasDialog<T>>(null);
  const close = () => setDialog(null);
  const said = (text: string) => {
    toastInfo(text);
    reload();
  };
  const saved = (text: string) => {
    close();
    said(text);
  };
  return { dialog, setDialog, close, said, saved, open: dialog !== null };
}

interface LinesValues {
  lines: BillLineValues[];
  currency: string;
  vendor_id: string;
}

export interface ExtrasLinesProps<V extends LinesValues> {
  values: V;
  setValues: Dispatch<SetStateAction<V>>;
  /** Clears these fields' messages (a change of the lines answers them). */
  clear(...keys: string[]): void;
  reference: ReferenceView;
  errors: BillFieldErrors;
  /** New lines' keys: `<prefix>-<n>`, counting on from `firstSeq`. */
  keyPrefix: string;
  firstSeq: number;
}

/** A recurring bill's or template's lines: the bill form's lines editor, full width. */
export function ExtrasLines<V extends LinesValues>({ values, setValues, clear, reference, errors, keyPrefix, firstSeq }: ExtrasLinesProps<V>) {
  const seq = useRef(firstSeq);
  return (
    <div className="bill-wide">
      <BillLinesField values={values} reference={reference} errors={errors} nextKey={() => `${keyPrefix}-${++seq.current}`}
        setLines={(update, cleared) => {
          setValues((v) => ({ ...v, lines: update(v.lines) }));
          clear('amount', 'line_items', ...cleared);
        }} />
    </div>
  );
}

/** The list states and the delete confirmation moved to src/components (accounting shows them too). */
export { ListStatus, type ListStatusProps } from '../../../components/online-list-status.tsx';
export { DeleteDialog, type DeleteDialogProps } from '../../../components/confirm-dialog.tsx';
