import type { ReactNode } from 'react';
import { EmptyState } from '../../components/empty-state.tsx';
import { useAppState } from '../../data-access/data-context.tsx';
import { downloadingEmptyText } from '../sync-status-text.ts';

export interface ListEmptyProps {
  /** The list's own words once everything is on the device ("No transactions match."). */
  text: string;
  hint?: ReactNode;
  /** The data version the list's empty answer was read at (`useRows`), when the list knows it. */
  answeredVersion?: number | null;
}

/**
 * Every list's empty state (issue 25): while the first mirror is still downloading, an empty
 * result says so with the share arrived, never "No … match"; the list's own words only once the
 * mirror is complete. Inside a grid, so the title is text, not a heading. An empty answer read
 * before the first mirror completed (older than `completedVersion`) says nothing until the list's
 * new answer comes (issue 33: "No transactions match" showed for a moment after the download).
 */
export function ListEmpty({ text, hint, answeredVersion }: ListEmptyProps) {
  const downloading = downloadingEmptyText(useAppState((s) => s.status));
  const completedVersion = useAppState((s) => s.completedVersion);
  if (!downloading && answeredVersion != null && answeredVersion < completedVersion) return null;
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
