import { Link } from '@tanstack/react-router';
import { useCallback, useMemo, useState } from 'react';
import type { Workflow } from '../../../schema/workflow.ts';
import { TRIGGER_LABELS } from '../../../schema/workflow.ts';
import { buttonClass } from '../../components/button.tsx';
import { EmptyState } from '../../components/empty-state.tsx';
import { ListStatus } from '../../components/online-list-status.tsx';
import { useAppState, useDataClient } from '../../data-access/data-context.tsx';
import { errorText } from '../../lib/error-text.ts';
import { formatLocalDateTime } from '../../lib/format.ts';
import { toastError, toastInfo } from '../../lib/toast-store.ts';
import { useOnlineList } from '../../lib/use-online-list.ts';
import { useWorkflowReference } from './use-workflow-reference.ts';
import { workflowText } from './workflow-text.ts';
import './workflows.css';

const OFFLINE_BODY = 'Workflows run on the server and are kept there, not on this device, so they cannot be shown or changed while you’re offline.';

/**
 * Issue 29, /workflows (admins): every workflow with its trigger and rules in words, on/off (a
 * switch, saved at once), when it last ran, and links to edit it and read its log; "New workflow".
 * Server-only: offline the page says so and shows nothing as if current.
 */
export function WorkflowsPage() {
  const client = useDataClient();
  const online = useAppState((s) => s.online && (s.status?.online ?? true));
  const { names } = useWorkflowReference();
  const { list, reload } = useOnlineList(online, 'workflows', useCallback(async () => {
    const r = await client.workflows();
    return r.ok ? { ok: true as const, rows: r.workflows } : r;
  }, [client]));
  // A switch's answer shows at once, until the list read after it arrives.
  const [changed, setChanged] = useState<{ base: Workflow[] | null; rows: Record<string, Workflow> }>({ base: null, rows: {} });
  const [busy, setBusy] = useState<string | null>(null);
  const listed = list.state === 'ready' ? list.rows : null;
  const rows = useMemo(() => (listed ?? []).map((w) => (changed.base === listed ? (changed.rows[w.id] ?? w) : w)), [listed, changed]);
  const toggle = async (w: Workflow) => {
    setBusy(w.id);
    try {
      const r = await client.setWorkflowEnabled(w.id, !w.enabled);
      if (!r.ok) return toastError(`“${w.name}” was not changed: ${errorText(r.error)}`);
      setChanged((c) => ({ base: listed, rows: { ...(c.base === listed ? c.rows : {}), [w.id]: r.workflow } }));
      toastInfo(r.workflow.enabled ? `“${w.name}” is on: it runs on new events.` : `“${w.name}” is off.`);
      reload();
    } finally {
      setBusy(null);
    }
  };

  const newButton = <Link to="/workflows/new" className={buttonClass({ variant: 'primary' })} aria-disabled={!online || undefined}>New workflow</Link>;
  return (
    <div className="page wf-page">
      <div className="wf-list-page">
        <div className="page-header">
          <h1>Workflows</h1>
          <span className="spacer" />
          {online && list.state === 'ready' && rows.length > 0 && newButton}
        </div>
        <p className="muted wf-lead">
          Automations that run when something happens: approve small claims, ask for receipts, route big bills, lock a card. Each run is logged.
        </p>
        <ListStatus list={list} what="Workflows" offlineBody={OFFLINE_BODY} online={online} onRetry={reload} />
        {list.state === 'ready' && rows.length === 0 && (
          <EmptyState title="No workflows yet" action={newButton}>
            Start with one rule — for example, approve claims under $25.00 automatically — and try it on the last 30 days before switching it on.
          </EmptyState>
        )}
        {rows.length > 0 && (
          <ul className="wf-list" aria-label="Workflows" aria-busy={list.state === 'ready' && list.refreshing ? true : undefined}>
            {rows.map((w) => (
              <li key={w.id} className="wf-card">
                <div className="wf-card-main">
                  <h2 className="wf-card-title"><Link to="/workflows/$workflowId" params={{ workflowId: w.id }}>{w.name}</Link></h2>
                  <p className="wf-card-trigger">{TRIGGER_LABELS[w.trigger]}</p>
                  <p className="muted wf-card-rules">{workflowText(w.trigger, w.rules, names).slice(TRIGGER_LABELS[w.trigger].length + 2)}</p>
                  <p className="muted wf-card-meta">
                    {w.last_run_at ? `Last ran ${formatLocalDateTime(w.last_run_at)}` : 'Has not run yet'} · version {w.version}
                    {' · '}<Link to="/workflows/$workflowId/log" params={{ workflowId: w.id }}>Execution log<span className="sr-only"> of {w.name}</span></Link>
                  </p>
                </div>
                <label className="wf-switch">
                  <input type="checkbox" role="switch" checked={w.enabled} disabled={!online || busy === w.id} onChange={() => void toggle(w)} />
                  <span>{w.enabled ? 'On' : 'Off'}<span className="sr-only"> — {w.name}</span></span>
                </label>
              </li>
            ))}
          </ul>
        )}
      </div>
    </div>
  );
}
