import { useMemo, useState, type ReactNode } from 'react';
import { Button } from '../../../components/button.tsx';
import { EmptyState } from '../../../components/empty-state.tsx';
import { FormError } from '../../../components/form-error.tsx';
import { Skeleton } from '../../../components/skeleton.tsx';
import { useAppState, useDataClient } from '../../../data-access/data-context.tsx';
import { errorText } from '../../../lib/error-text.ts';
import { useReferenceData } from '../../../lib/reference-data.ts';
import { ConfirmDialog } from '../bill-dialogs.tsx';
import type { OnlineList } from './use-online-list.ts';

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
  const vendors = reference.data.vendors;
  const vendorName = useMemo(() => {
    const names = new Map(vendors.map((v) => [v.id, v.name]));
    return (id: string) => names.get(id) ?? 'Unknown vendor';
  }, [vendors]);
  const vendorOptions = useMemo(
    () => vendors.filter((v) => v.status === 'ACTIVE').map((v) => ({ value: v.id, label: v.name })).sort((a, b) => a.label.localeCompare(b.label)),
    [vendors],
  );
  return { client, online, reference, currency, vendorName, vendorOptions };
}

export interface ListStatusProps<T> {
  list: OnlineList<T>;
  /** "Recurring bills", "Bill templates", "Vendor credits": the subject of "… need a connection". */
  what: string;
  /** Why they cannot be shown offline, after the title. */
  offlineBody: ReactNode;
  /** The device's connection: offline there is nothing to retry until it is back (the list reloads then). */
  online: boolean;
  onRetry(): void;
}

/** The list's state when it is not rows: a skeleton, offline, or the server's refusal with Try again. */
export function ListStatus<T>({ list, what, offlineBody, online, onRetry }: ListStatusProps<T>) {
  if (list.state === 'loading') {
    return (
      <div className="claim-skeleton extras-skeleton" aria-busy="true">
        <span className="sr-only">Loading {what.toLowerCase()}…</span>
        {Array.from({ length: 5 }, (_, i) => (
          <Skeleton key={i} height={28} />
        ))}
      </div>
    );
  }
  if (list.state === 'offline') {
    return (
      <EmptyState title={`${what} need a connection`} action={online ? <Button onClick={onRetry}>Try again</Button> : undefined}>
        {offlineBody}
      </EmptyState>
    );
  }
  if (list.state === 'error') {
    return (
      <div className="notice notice-error extras-error" role="alert">
        <span>
          {what} could not be read: {list.message}
        </span>
        <span>
          <Button size="sm" onClick={onRetry}>
            Try again
          </Button>
        </span>
      </div>
    );
  }
  return null;
}

export interface DeleteDialogProps {
  title: string;
  description: ReactNode;
  confirmLabel: string;
  onClose(): void;
  /** The server's refusal (shown in the dialog, which stays open), or nothing once deleted. */
  onDelete(): Promise<{ error_code: string; message: string } | null>;
}

/** A delete confirmed first; a refusal is said in the server's words inside the dialog. */
export function DeleteDialog({ title, description, confirmLabel, onClose, onDelete }: DeleteDialogProps) {
  const [error, setError] = useState<string | null>(null);
  return (
    <ConfirmDialog
      title={title}
      description={description}
      confirmLabel={confirmLabel}
      tone="danger"
      onClose={onClose}
      onConfirm={async () => {
        setError(null);
        const failure = await onDelete();
        if (failure) setError(errorText(failure));
        return failure === null;
      }}
    >
      <FormError message={error} />
    </ConfirmDialog>
  );
}
