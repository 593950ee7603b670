import type { ReactNode } from 'react';
import type { OnlineList } from '../lib/use-online-list.ts';
import { Button } from './button.tsx';
import { EmptyState } from './empty-state.tsx';
import { Skeleton } from './skeleton.tsx';

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

