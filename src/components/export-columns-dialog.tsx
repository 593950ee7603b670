import { useEffect, useState } from 'react';
import type { ExportTable } from '../../schema/export-settings.ts';
import { useAppState, useDataClient } from '../data-access/data-context.tsx';
import { errorText } from '../lib/error-text.ts';
import { toastInfo } from '../lib/toast-store.ts';
import { Button } from './button.tsx';
import { chosenKeys, columnLines, moveLine, type ColumnLine } from './export-columns.ts';
import { FormError } from './form-error.tsx';
import { Modal } from './modal.tsx';
import { Skeleton } from './skeleton.tsx';
import '../styles/export-columns.css';

export interface ExportColumnsDialogProps {
  table: ExportTable;
  /** "transactions", "primary cards": the words of the title and the saved message. */
  noun: string;
  onClose(): void;
}

/** The person's columns of one table, read from the server (or the device's copy offline). */
function useColumnLines(table: ExportTable) {
  const client = useDataClient();
  const [lines, setLines] = useState<ColumnLine[] | null>(null);
  const [customized, setCustomized] = useState(false);
  const [loadError, setLoadError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    void client.exportSettings(table).then((r) => {
      if (!live) return;
      if (!r.ok) return setLoadError(errorText(r.error));
      setLines(columnLines(r.settings));
      setCustomized(r.settings.customized);
    });
    return () => {
      live = false;
    };
  }, [client, table]);
  return { lines, setLines, customized, loadError };
}

/**
 * "Columns…" beside an Export button (issue 32, export table user-settings): which columns the
 * table's CSV holds and in which order, saved on the server for this person (every device and the
 * server's exports use it). Each line is a checkbox and Move up / Move down buttons (touch-sized,
 * no dragging needed); Reset goes back to every column in the default order.
 */
export function ExportColumnsDialog({ table, noun, onClose }: ExportColumnsDialogProps) {
  const client = useDataClient();
  const online = useAppState((s) => s.online && (s.status?.online ?? true));
  const { lines, setLines, customized, loadError } = useColumnLines(table);
  const [busy, setBusy] = useState<'save' | 'reset' | null>(null);
  const [error, setError] = useState<string | null>(null);

  const finish = (r: Awaited<ReturnType<typeof client.saveExportSettings>>, message: string) => {
    if (!r.ok) return setError(errorText(r.error));
    toastInfo(message);
    onClose();
  };
  const save = async () => {
    if (!lines) return;
    const keys = chosenKeys(lines);
    if (keys.length === 0) return setError('Choose at least one column.');
    setBusy('save');
    try {
      finish(await client.saveExportSettings(table, keys), `Saved: ${noun} exports now have ${keys.length} ${keys.length === 1 ? 'column' : 'columns'}.`);
    } finally {
      setBusy(null);
    }
  };
  const reset = async () => {
    setBusy('reset');
    try {
      finish(await client.resetExportSettings(table), `${noun[0]!.toUpperCase()}${noun.slice(1)} exports have every column again.`);
    } finally {
      setBusy(null);
    }
  };
  const count = lines ? chosenKeys(lines).length : 0;

  return (
    <Modal
      title={`Columns for ${noun} exports`}
      description="Pick the columns and their order. Saved to your account, for every export of this table."
      onClose={onClose}
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      {loadError ? <FormError message={loadError} /> : !lines ? (
        <div className="export-columns" aria-busy="true">
          {Array.from({ length: 6 }, (_, i) => <Skeleton key={i} height={36} />)}
        </div>
      ) : (
        <ol className="export-columns" aria-label="Columns, in export order">
          {lines.map((line, i) => (
            <li key={line.key} className={line.on ? 'export-column' : 'export-column is-off'}>
              <label className="export-column-check">
                <input
                  type="checkbox"
                  checked={line.on}
                  onChange={(e) => setLines(lines.map((l) => (l.key === line.key ? { ...l, on: e.target.checked } : l)))}
                />
                <span>{line.header}</span>
              </label>
              <span className="export-column-moves">
                <Button size="sm" variant="ghost" icon aria-label={`Move ${line.header} up`} disabled={i === 0} onClick={() => setLines(moveLine(lines, i, -1))}>
                  ↑
                </Button>
                <Button size="sm" variant="ghost" icon aria-label={`Move ${line.header} down`} disabled={i === lines.length - 1} onClick={() => setLines(moveLine(lines, i, 1))}>
                  ↓
                </Button>
              </span>
            </li>
          ))}
        </ol>
      )}
      {!online && <p className="export-columns-note" role="status">You’re offline. Your columns can be changed once you’re back online.</p>}
      <FormError message={error} />
      <div className="modal-actions export-columns-actions">
        {customized && (
          <Button variant="ghost" onClick={() => void reset()} loading={busy === 'reset'} disabled={!online || busy !== null}>
            Reset to all columns
          </Button>
        )}
        <Button variant="ghost" onClick={onClose}>
          Cancel
        </Button>
        <Button type="submit" variant="primary" loading={busy === 'save'} disabled={!online || !lines || busy !== null || count === 0}>
          {count === 0 ? 'Choose a column' : `Save ${count} ${count === 1 ? 'column' : 'columns'}`}
        </Button>
      </div>
    </Modal>
  );
}
