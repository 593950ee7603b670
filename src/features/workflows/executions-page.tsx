import { getRouteApi, Link } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import type { WorkflowExecution } from '../../../schema/workflow.ts';
import { ACTION_LABELS, TRIGGER_LABELS } from '../../../schema/workflow.ts';
import { Button } from '../../components/button.tsx';
import { EmptyState } from '../../components/empty-state.tsx';
import { useAppState, useDataClient } from '../../data-access/data-context.tsx';
import { Pager } from '../../components/pager.tsx';
import { usePagedQuery } from '../../lib/use-paged-query.ts';
import { formatLocalDateTime } from '../../lib/format.ts';
import { ACTION_STATUS_WORDS, EXECUTION_STATUS, executionSubject } from './execution-words.ts';
import './workflows.css';

const routeApi = getRouteApi('/_app/workflows/$workflowId/log');

/** The page sizes offered (the server's default page is 25 runs). */
const PAGE_SIZES = [25, 50, 100] as const;

/**
 * Issue 29, a workflow's execution log (/workflows/$workflowId/log; the server's
 * /blank-canvas/executions?workflow_id=), newest first, a page at a time (`usePagedQuery`,
 * Previous/Next): when, the object, which rule matched, each condition met or not with its
 * reason, each action with its status and detail, and the run's error. Server-only: offline it says so.
 */
export function ExecutionsPage() {
  const { workflowId } = routeApi.useParams();
  const client = useDataClient();
  const online = useAppState((s) => s.online && (s.status?.online ?? true));
  const [name, setName] = useState<string | null>(null);
  const paged = usePagedQuery<WorkflowExecution>({
    search: { workflow_id: workflowId },
    pageSize: PAGE_SIZES[0],
    online,
    load: async ({ workflow_id, start, page_size }) => {
      const r = await client.workflowExecutions({ workflow_id, ...(start ? { start } : {}), page_size: Number(page_size) });
      return r.ok ? { ok: true, rows: r.executions, next: r.next } : r;
    },
  });
  const log = paged.list;

  useEffect(() => {
    if (!online) return;
    let live = true;
    void client.workflowCanvas(workflowId).then((r) => live && r.ok && setName(r.workflow.name));
    return () => {
      live = false;
    };
  }, [client, workflowId, online]);

  return (
    <div className="page wf-page">
      <div className="wf-log-page">
        <div className="page-header">
          <h1>Execution log{name ? <span className="muted wf-log-name"> · {name}</span> : null}</h1>
          <span className="spacer" />
          <Link to="/workflows/$workflowId" params={{ workflowId }} className="btn btn-ghost btn-sm">Edit workflow</Link>
        </div>
        {log.state === 'offline' && (
          <EmptyState title="The log needs a connection">
            Executions are recorded on the server, not on this device. Connect to read them.
          </EmptyState>
        )}
        {log.state === 'loading' && <p className="muted" role="status">Loading the log…</p>}
        {log.state === 'error' && (
          <div className="notice notice-error" role="alert">
            <span>The log could not be read: {log.message}</span>
            <span><Button size="sm" onClick={paged.reload}>Try again</Button></span>
          </div>
        )}
        {log.state === 'ready' && log.rows.length === 0 && paged.pageIndex === 0 && (
          <EmptyState title="It has not run yet">Each time its trigger happens while it is on, the run is recorded here: what it checked and what it did.</EmptyState>
        )}
        {log.state === 'ready' && log.rows.length === 0 && paged.pageIndex > 0 && <p className="muted">No runs on this page any more. Go back with Previous.</p>}
        {log.state === 'ready' && log.rows.length > 0 && (
          <ol className="wf-runs" aria-label="Runs, newest first">
            {log.rows.map((x) => <ExecutionItem key={x.id} x={x} />)}
          </ol>
        )}
        <Pager paged={paged} what="Runs" pageSizes={PAGE_SIZES} disabled={!online} />
      </div>
    </div>
  );
}

function ExecutionItem({ x }: { x: WorkflowExecution }) {
  const status = EXECUTION_STATUS[x.status];
  const matched = x.rule_id ? x.rules.findIndex((r) => r.rule_id === x.rule_id) + 1 : 0;
  return (
    <li className="wf-run">
      <div className="wf-run-head">
        <span className={`pill pill-${status.tone}`}>{status.label}</span>
        <strong>{executionSubject(x)}</strong>
        <span className="spacer" />
        <time className="muted" dateTime={x.created_at}>{formatLocalDateTime(x.created_at)}</time>
      </div>
      <p className="muted wf-run-meta">
        {TRIGGER_LABELS[x.trigger]} · version {x.workflow_version}{x.depth > 1 ? ` · started by another workflow (depth ${x.depth})` : ''} · {matched ? `rule ${matched} matched` : 'no rule matched'}
      </p>
      <details className="wf-run-details">
        <summary>Conditions and actions</summary>
        {x.rules.map((r, i) => (
          <div key={r.rule_id} className="wf-run-rule">
            <p>Rule {i + 1}: {r.matched ? 'matched' : 'did not match'}</p>
            {r.conditions.length === 0 ? <p className="muted">No conditions (always).</p> : (
              <ul>
                {r.conditions.map((c) => <li key={c.index}><span aria-hidden="true">{c.met ? '✓' : '✗'}</span> <span className="sr-only">{c.met ? 'Met' : 'Not met'}:</span> {c.reason}</li>)}
              </ul>
            )}
          </div>
        ))}
      </details>
      {x.actions.length > 0 && (
        <ul className="wf-run-actions" aria-label="Actions">
          {x.actions.map((a, i) => (
            <li key={i} className={`wf-run-action wf-run-action-${a.status.toLowerCase()}`}>
              <strong>{ACTION_LABELS[a.kind]}</strong>: {ACTION_STATUS_WORDS[a.status]} — {a.detail}
            </li>
          ))}
        </ul>
      )}
      {x.error && <p className="field-error">Error: {x.error}</p>}
    </li>
  );
}
