import { useEffect, useState } from 'react';
import { isJobActive, type AsyncJob } from '../../../schema/jobs.ts';
import { monthLabel, type StatementFormat, type StatementList } from '../../../schema/statements.ts';
import { Button } from '../../components/button.tsx';
import { useAppState, useDataClient } from '../../data-access/data-context.tsx';
import { errorText } from '../../lib/error-text.ts';
import { saveFile } from '../../lib/save-file.ts';

const POLL_MS = 1000;
/** The jobs tray listens for this (src/features/jobs/jobs-events.ts); a feature does not import another. */
const announceJobsChanged = () => window.dispatchEvent(new Event('ledgerline:jobs-changed'));

/**
 * Issue 32: monthly statements per card and per business (§3). Pick a month, the business or a
 * card, PDF or CSV; Generate starts the job, whose progress shows here and in the jobs tray;
 * Download when it is ready. Online only: the statements are made on the server.
 */
export function StatementsPage() {
  const client = useDataClient();
  const online = useAppState((s) => s.online);
  const [month, setMonth] = useState<string | undefined>(undefined);
  const [list, setList] = useState<StatementList | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [choice, setChoice] = useState('');
  const [format, setFormat] = useState<StatementFormat>('pdf');
  const [job, setJob] = useState<AsyncJob | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!online) return;
    let live = true;
    void client.cardStatements(month).then((r) => {
      if (!live) return;
      if (!r.ok) return setLoadError(errorText(r.error));
      setLoadError(null);
      setList(r.list);
      setChoice((c) => (r.list.statements.some((s) => key(s) === c) ? c : r.list.statements[0] ? key(r.list.statements[0]) : ''));
    });
    return () => { live = false; };
  }, [client, month, online]);

  useEffect(() => {
    if (!job || !isJobActive(job) || !online) return;
    const timer = setInterval(() => void client.asyncJob(job.id).then((r) => r.ok && setJob(r.job)), POLL_MS);
    return () => clearInterval(timer);
  }, [client, job, online]);

  async function generate() {
    const picked = list?.statements.find((s) => key(s) === choice);
    if (!list || !picked) return;
    setBusy(true);
    setError(null);
    const body = picked.scope === 'business'
      ? { scope: 'business' as const, month: list.month, format }
      : { scope: 'card' as const, card_id: picked.card_id!, month: list.month, format };
    const r = await client.createCardStatement(body);
    setBusy(false);
    if (!r.ok) return setError(errorText(r.error));
    setJob(r.job);
    announceJobsChanged();
  }

  async function download() {
    if (!job?.file) return;
    const r = await client.asyncJobFile(job.id);
    if (!r.ok) return setError(errorText(r.error));
    saveFile(r.file, job.file.name);
  }

  const months = list ? Array.from(new Set([list.month, ...list.months])).sort().reverse() : [];
  return (
    <div className="page statements-page">
      <h1>Statements</h1>
      <p>Monthly statements of your cards{list?.statements.some((s) => s.scope === 'business') ? ' and of the business' : ''}, as a PDF or a CSV.</p>
      {!online ? <p role="status">You’re offline. Statements are made on the server: they need a connection.</p> : null}
      {loadError ? <p role="alert">{loadError}</p> : null}
      {online && !list && !loadError ? <p role="status">Loading statements…</p> : null}
      {list ? (
        <form className="statements-form" onSubmit={(e) => { e.preventDefault(); void generate(); }}>
          <label className="field">
            <span>Month</span>
            <select value={list.month} onChange={(e) => { setMonth(e.target.value); setJob(null); }}>
              {months.map((m) => <option key={m} value={m}>{monthLabel(m)}</option>)}
            </select>
          </label>
          {list.statements.length === 0 ? (
            <p role="status">No statement for {monthLabel(list.month)}: there were no settled card charges or payments that month.</p>
          ) : (
            <>
              <label className="field">
                <span>Statement of</span>
                <select value={choice} onChange={(e) => setChoice(e.target.value)}>
                  {list.statements.map((s) => (
                    <option key={key(s)} value={key(s)}>
                      {s.scope === 'business' ? `${s.name} (every card)` : `${s.name}${s.last_four ? ` ·· ${s.last_four}` : ''} · ${s.cardholder}`}
                    </option>
                  ))}
                </select>
              </label>
              <fieldset className="field">
                <legend>Format</legend>
                {(['pdf', 'csv'] as const).map((f) => (
                  <label key={f}>
                    <input type="radio" name="format" value={f} checked={format === f} onChange={() => setFormat(f)} /> {f.toUpperCase()}
                  </label>
                ))}
              </fieldset>
              <Button type="submit" variant="primary" loading={busy} disabled={!online}>Generate</Button>
            </>
          )}
          <p className="statements-includes">{list.includes}</p>
        </form>
      ) : null}
      {error ? <p role="alert">{error}</p> : null}
      {job ? (
        <section aria-label="Statement job" className="statements-job">
          <h2>{job.title}</h2>
          {isJobActive(job) ? <progress max={100} value={job.progress} aria-label="Statement progress" /> : null}
          <p role="status">{job.state === 'failed' ? `Failed: ${job.error ?? 'unknown reason'}` : `${job.progress_text} (${job.progress}%)`}</p>
          {job.state === 'done' && job.file ? <Button onClick={() => void download()}>Download {job.file.name}</Button> : null}
        </section>
      ) : null}
    </div>
  );
}

const key = (s: { scope: string; card_id: string | null }) => (s.scope === 'business' ? 'business' : `card:${s.card_id}`);
