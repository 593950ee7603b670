import { useRef, useState } from 'react';
import type { ReportCollection } from '../../schema/reports.ts';
import type { QueriedCollection } from '../../schema/collections.ts';
import type { FilterOf, SortOf } from '../../workers/collections/worker-collection.ts';
import { useDataClient } from '../data-access/data-context.tsx';
import { formatCount } from '../lib/format.ts';
import { saveFile } from '../lib/save-file.ts';
import { toastError, toastInfo } from '../lib/toast-store.ts';
import { Button } from './button.tsx';
import { ExportColumnsDialog } from './export-columns-dialog.tsx';
import { Modal } from './modal.tsx';

type Exportable = QueriedCollection & ReportCollection;

export interface ExportCsvButtonProps<C extends Exportable> {
  collection: C;
  filter: FilterOf<C>;
  sort: SortOf<C>;
  /** "transactions", "claims"…: the words of the progress line. */
  noun: string;
}

/**
 * "Export CSV" for a table (issue 12): the rows of its current filter, in its order, written by
 * the data worker on this device (offline too) with the columns every export uses, while a
 * progress bar counts the rows; the file is saved by the browser. "Columns…" beside it chooses
 * the person's columns and their order (issue 32, saved on the server).
 */
export function ExportCsvButton<C extends Exportable>({ collection, filter, sort, noun }: ExportCsvButtonProps<C>) {
  const client = useDataClient();
  const [progress, setProgress] = useState<{ done: number; total: number } | null>(null);
  const [choosing, setChoosing] = useState(false);
  const canceled = useRef(false);

  const run = async () => {
    canceled.current = false;
    setProgress({ done: 0, total: 0 });
    try {
      // The person's columns, read again so the device's copy is the server's (offline: the copy).
      await client.exportSettings(collection);
      const answer = await client.exportCsv(collection, filter as never, sort as never, (done, total) => {
        if (!canceled.current) setProgress({ done, total });
      });
      if (canceled.current) return;
      if (!answer.ok) return toastError(answer.message);
      saveFile(answer.file, answer.name);
      toastInfo(`Exported ${formatCount(answer.rows)} ${noun} to ${answer.name}.`);
    } catch (err) {
      if (!canceled.current) toastError(`The export failed: ${err instanceof Error ? err.message : String(err)}`);
    } finally {
      setProgress(null);
    }
  };

  const percent = progress && progress.total > 0 ? Math.min(100, Math.floor((progress.done / progress.total) * 100)) : 0;
  const text = progress && progress.total > 0 ? `${formatCount(progress.done)} of ${formatCount(progress.total)} ${noun}` : `Reading ${noun}…`;
  return (
    <>
      <span className="export-toolbar">
        <Button onClick={() => void run()} disabled={progress !== null}>
          Export CSV
        </Button>
        <Button variant="ghost" onClick={() => setChoosing(true)}>
          Columns…
        </Button>
      </span>
      {choosing && <ExportColumnsDialog table={collection} noun={noun} onClose={() => setChoosing(false)} />}
      {progress && (
        <Modal
          title="Exporting to CSV"
          description={`Every ${noun.replace(/s$/, '')} of the current view, written on this device.`}
          onClose={() => {
            canceled.current = true;
            setProgress(null);
          }}
        >
          <div className="export-progress">
            <div role="progressbar" aria-label="Export progress" aria-valuemin={0} aria-valuemax={100} aria-valuenow={percent} aria-valuetext={text} className="progress-track">
              <div className="progress-fill" style={{ width: `${percent}%` }} />
            </div>
            <span className="progress-label">{text}</span>
          </div>
          <div className="modal-actions">
            <Button
              onClick={() => {
                canceled.current = true;
                setProgress(null);
              }}
            >
              Cancel
            </Button>
          </div>
        </Modal>
      )}
    </>
  );
}
