import type { HrisImportSummary } from '../../../schema/api/calls-hris.ts';
import { EmptyState } from '../../components/empty-state.tsx';

const STATUS: Record<HrisImportSummary['status'], string> = { invalid: 'Has errors', ready: 'Waiting for review', applied: 'Applied', stale: 'Out of date' };

/** The newest imports, each opening its review. */
export function HrisHistory({ imports, onOpen }: { imports: HrisImportSummary[]; onOpen(i: HrisImportSummary): void }) {
  if (imports.length === 0) return <EmptyState title="No imports yet">Upload your people export above; it shows what would change before anything happens.</EmptyState>;
  return (
    <ul className="hris-history">
      {imports.map((i) => (
        <li key={i.id}>
          <button type="button" className="hris-history-row" onClick={() => onOpen(i)}>
            <span className="hris-history-name">{i.file_name}</span>
            <span className={`hris-status hris-status-${i.status}`}>{STATUS[i.status]}</span>
            <span className="muted">
              {new Date(i.created_at).toLocaleString()} · {i.source === 'drop' ? 'dropped' : 'uploaded'} · {i.row_count} people
              {i.error_count > 0 && ` · ${i.error_count} errors`}
              {i.counts && ` · ${i.counts.new_hires} new, ${i.counts.changes} changed, ${i.counts.leavers} leaving`}
            </span>
          </button>
        </li>
      ))}
    </ul>
  );
}
