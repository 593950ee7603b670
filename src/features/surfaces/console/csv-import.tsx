import { useState, type FormEvent } from 'react';
import { useDataClient } from '../../../data-access/data-context.tsx';
import { Button } from '../../../components/button.tsx';
import { FormError } from '../../../components/form-error.tsx';
import { Modal } from '../../../components/modal.tsx';
import { errorText } from '../../../lib/error-text.ts';
import type { FirmView } from '../../../../workers/api.ts';
import { rightsText } from './console-words.ts';

type Parsed = { line: number; body?: { client_email: string; client_name: string; rights: ('READ' | 'CODE' | 'CLOSE_BOOKS')[] }; errors?: Record<string, string> };

/**
 * Many clients from a CSV (`client_email,client_name,rights`): the server checks every line
 * (`firm.proposals.csvParse`); errors are listed by line and nothing is created until every line
 * is right; then each line becomes a draft proposal assigned to the caller.
 */
export function CsvImport({ firm, onClose, onCreated }: { firm: FirmView | null; onClose(): void; onCreated(): void }) {
  const client = useDataClient();
  const [csv, setCsv] = useState('');
  const [parsed, setParsed] = useState<Parsed[] | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const bad = parsed?.filter((r) => r.errors) ?? [];

  async function check(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    const r = await client.consoleParseCsv(csv);
    setBusy(false);
    if (r.ok) setParsed(r.rows);
    else setError(errorText(r.error));
  }

  async function create() {
    if (!parsed) return;
    setBusy(true);
    setError(null);
    let made = 0;
    for (const row of parsed) {
      if (!row.body) continue;
      const r = await client.consoleCreateProposal({ ...row.body, firm_user_ids: firm ? [firm.me.id] : [] });
      if (!r.ok) {
        setError(`Line ${row.line}: ${errorText(r.error)} (${made} created before it).`);
        setBusy(false);
        onCreated();
        return;
      }
      made++;
    }
    setBusy(false);
    onCreated();
    onClose();
  }

  async function readFile(file: File | undefined) {
    if (file) setCsv(await file.text());
  }

  return (
    <Modal title="Import clients from a CSV" description="One client a line: email, business name, rights (READ, CODE, CLOSE_BOOKS separated by |). Each becomes a draft." onClose={onClose} onSubmit={check} size="lg">
      <FormError message={error} />
      {!parsed ? (
        <>
          <label className="field">
            <span className="field-label">CSV file</span>
            <input type="file" accept=".csv,text/csv" onChange={(e) => void readFile(e.target.files?.[0])} />
          </label>
          <label className="field">
            <span className="field-label">Or paste the CSV</span>
            <textarea rows={6} value={csv} onChange={(e) => setCsv(e.target.value)} />
          </label>
          <div className="modal-actions">
            <Button variant="ghost" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" variant="primary" loading={busy} disabled={!csv.trim()}>
              Check lines
            </Button>
          </div>
        </>
      ) : (
        <>
          {bad.length > 0 ? (
            <div role="alert">
              <p>{bad.length} line{bad.length === 1 ? '' : 's'} to fix before anything is created:</p>
              <ul>
                {bad.map((r) => (
                  <li key={r.line}>
                    Line {r.line}: {Object.entries(r.errors ?? {}).map(([k, v]) => `${k} — ${v}`).join('; ')}
                  </li>
                ))}
              </ul>
            </div>
          ) : (
            <ul aria-label="Clients to propose to">
              {parsed.map((r) => r.body && (
                <li key={r.line}>
                  {r.body.client_name} ({r.body.client_email}) — {rightsText(r.body.rights)}
                </li>
              ))}
            </ul>
          )}
          <div className="modal-actions">
            <Button variant="ghost" onClick={() => setParsed(null)}>
              Back to the CSV
            </Button>
            <Button variant="primary" loading={busy} disabled={bad.length > 0 || parsed.length === 0} onClick={() => void create()}>
              Create {parsed.length - bad.length} draft{parsed.length - bad.length === 1 ? '' : 's'}
            </Button>
          </div>
        </>
      )}
    </Modal>
  );
}
