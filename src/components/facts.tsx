import type { ReactNode } from 'react';
import { SyncMark, type SyncMarkRow } from './sync-mark.tsx';

/** One labelled fact of a detail view. */
export type Fact = [label: string, value: ReactNode];

/** A detail view's facts as a description list (label, value), in order. */
export function Facts({ rows }: { rows: readonly Fact[] }) {
  return (
    <dl className="facts">
      {rows.map(([label, value]) => (
        <div key={label} className="facts-row">
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** The row's sync state as a fact: its mark while a change waits or failed, else "Synced". */
export function syncFact(row: SyncMarkRow): Fact {
  return ['Sync', row.pending ? <SyncMark row={row} key="s" /> : 'Synced'];
}
