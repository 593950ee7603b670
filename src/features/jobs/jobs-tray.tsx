import { useCallback, useEffect, useState } from 'react';
import { isJobActive, type AsyncJob } from '../../../schema/jobs.ts';
import { useAppState, useDataClient } from '../../data-access/data-context.tsx';
import { saveFile } from '../../lib/save-file.ts';
import { JOBS_CHANGED } from './jobs-events.ts';

const POLL_MS = 1500;

/**
 * Issue 32: the signed-in person's jobs started in this page session (statements today), with
 * progress, Download when done and the reason when one failed. Polls only while a job runs; hidden
 * when there is nothing to show. Tiny on purpose: it is in the first load.
 */
export function JobsTray() {
  const client = useDataClient();
  const online = useAppState((s) => s.online);
  const [jobs, setJobs] = useState<AsyncJob[]>([]);
  const [since] = useState(() => Date.now() - 60_000);
  const [hidden, setHidden] = useState<ReadonlySet<string>>(new Set());

  const read = useCallback(async () => {
    const r = await client.asyncJobs();
    if (r.ok) setJobs(r.jobs.filter((j) => Date.parse(j.created_at) >= since));
  }, [client, since]);

  useEffect(() => {
    const onChange = () => void read();
    window.addEventListener(JOBS_CHANGED, onChange);
    return () => window.removeEventListener(JOBS_CHANGED, onChange);
  }, [read]);

  const shown = jobs.filter((j) => !hidden.has(j.id));
  const active = online && shown.some(isJobActive);
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => void read(), POLL_MS);
    return () => clearInterval(timer);
  }, [active, read]);

  if (shown.length === 0) return null;
  async function download(job: AsyncJob) {
    const r = await client.asyncJobFile(job.id);
    if (r.ok && job.file) saveFile(r.file, job.file.name);
  }
  return (
    <section className="jobs-tray" aria-label="Background jobs">
      <ul>
        {shown.map((j) => (
          <li key={j.id}>
            <span className="jobs-tray-title">{j.title}</span>
            {isJobActive(j) ? (
              <progress max={100} value={j.progress} aria-label={`${j.title}: ${j.progress_text}`} />
            ) : null}
            <span role="status">{j.state === 'failed' ? `Failed: ${j.error ?? 'unknown reason'}` : j.progress_text}</span>
            {j.state === 'done' && j.file ? <button type="button" onClick={() => void download(j)}>Download</button> : null}
            {!isJobActive(j) ? (
              <button type="button" aria-label={`Dismiss ${j.title}`} onClick={() => setHidden((h) => new Set([...h, j.id]))}>×</button>
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  );
}
