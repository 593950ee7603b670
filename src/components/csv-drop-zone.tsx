import { useRef, useState, type DragEvent, type ReactNode } from 'react';
import { Button } from './button.tsx';
import { FormError } from './form-error.tsx';
import './csv-drop-zone.css';

export interface CsvDropZoneProps {
  /** The words before the button: "Drop your people export (CSV) here, or". */
  prompt: string;
  online: boolean;
  /** The file input's accessible name. */
  inputLabel?: string;
  /** Sends the file; answers the refusal in words, or null when it was taken. */
  onFile(file: File): Promise<string | null>;
  /** Above the prompt (a currency choice); below it the format's words go in `detail`. */
  before?: ReactNode;
  detail: ReactNode;
}

/** A CSV upload as a drop target and a button (HRIS imports, card statements): busy while it sends, the refusal under it. */
export function CsvDropZone({ prompt, online, inputLabel, onFile, before, detail }: CsvDropZoneProps) {
  const input = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const [over, setOver] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const send = async (file: File | undefined) => {
    if (!file) return;
    setBusy(true);
    setError(null);
    setError(await onFile(file).finally(() => setBusy(false)));
  };
  const drop = (e: DragEvent) => { e.preventDefault(); setOver(false); if (online) void send(e.dataTransfer.files[0]); };
  return (
    <div className={`csv-drop${over ? ' is-over' : ''}`} onDragOver={(e) => { e.preventDefault(); setOver(true); }} onDragLeave={() => setOver(false)} onDrop={drop}>
      {before}
      <p>{prompt}</p>
      <Button variant="primary" loading={busy} disabled={!online} onClick={() => input.current?.click()}>Choose a CSV file</Button>
      <input ref={input} type="file" accept=".csv,text/csv" hidden aria-label={inputLabel} onChange={(e) => { void send(e.target.files?.[0]); e.target.value = ''; }} />
      <p className="muted csv-drop-detail">{detail}</p>
      <FormError message={error} />
    </div>
  );
}
