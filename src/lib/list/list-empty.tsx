import type { ReactNode } from 'react';
import { EmptyState } from '../../components/empty-state.tsx';
import { useAppState } from '../../data-access/data-context.tsx';
import { downloadingEmptyText } from '../sync-status-text.ts';

export interface ListEmptyProps {
  /** The list's own words once everything is on the device ("No transactions match."). */
  text: string;
  hint?: ReactNode;
}

/**
 * Every list's empty state (issue 25): while the first mirror is still downloading, an empty
 * result says so with the share arrived, never "No … match"; the list's own words only once the
 * mirror is complete. Inside a grid, so the title is text, not a heading.
 */
export function ListEmpty({ text, hint }: ListEmptyProps) {
  const downloading = downloadingEmptyText(useAppState((s) => s.status));
  if (downloading) {
    return (
      <div role="status" data-testid="list-downloading">
        <EmptyState title={downloading.title} icon="↓" level="text">
          {downloading.body}
        </EmptyState>
      </div>
    );
  }
  return (
    <EmptyState title={text} icon="∅" level="text">
      {hint}
    </EmptyState>
  );
}
