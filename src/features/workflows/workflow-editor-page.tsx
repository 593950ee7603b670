import { getRouteApi, Link, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { TRIGGER_LABELS, WORKFLOW_TRIGGERS, type WorkflowTrigger } from '../../../schema/workflow.ts';
import { Button } from '../../components/button.tsx';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { FormError } from '../../components/form-error.tsx';
import { SelectField } from '../../components/select-field.tsx';
import { Tabs } from '../../components/tabs.tsx';
import { TextField } from '../../components/text-field.tsx';
import { useDataClient } from '../../data-access/data-context.tsx';
import { errorText } from '../../lib/error-text.ts';
import { toastInfo } from '../../lib/toast-store.ts';
import { canvasProblems } from './canvas-edit.ts';
import { CanvasView } from './canvas-view.tsx';
import { DryRunPanel } from './dry-run-panel.tsx';
import { useWorkflowEditor, type EditorView } from './use-workflow-editor.ts';
import { WorkflowForm } from './workflow-form.tsx';
import './workflows.css';

const routeApi = getRouteApi('/_app/workflows/$workflowId');

/** /workflows/new: a blank workflow. */
export function NewWorkflowPage() {
  return <WorkflowEditorPage id={null} />;
}

/** /workflows/$workflowId: a saved one. */
export function EditWorkflowPage() {
  const { workflowId } = routeApi.useParams();
  return <WorkflowEditorPage key={workflowId} id={workflowId} />;
}

/**
 * Issue 29, the workflow editor (admins): name, trigger and on/off; the rules as a form or as the
 * blank canvas (one workflow, two views); the dry run over the last 30 days before enabling;
 * save (through the canvas call, positions kept) with the server's refusals where they belong —
 * a loop (WORKFLOW_7001) said above the steps with its chain, misfit steps (7002) on their fields
 * or nodes; delete (confirmed). Online only: offline it says so instead of loading.
 */
function WorkflowEditorPage({ id }: { id: string | null }) {
  const e = useWorkflowEditor(id);
  const client = useDataClient();
  const navigate = useNavigate();
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [deleteError, setDeleteError] = useState<string | null>(null);
  const remove = async (): Promise<boolean> => {
    if (!e.saved) return true;
    const r = await client.deleteWorkflow(e.saved.id);
    if (!r.ok) {
      setDeleteError(errorText(r.error));
      return false;
    }
    toastInfo(`Workflow “${e.saved.name}” deleted. Its execution log stays readable.`);
    void navigate({ to: '/workflows' });
    return true;
  };
  const title = id ? (e.saved?.name ?? 'Workflow') : 'New workflow';
  const problems = e.view === 'canvas' ? { ...canvasProblems(e.canvas), ...e.marks } : {};
  return (
    <div className="page wf-page">
      <div className="wf-editor">
        <div className="page-header wf-header">
          <h1>{title}</h1>
          <span className="spacer" />
          {id && <Link to="/workflows/$workflowId/log" params={{ workflowId: id }} className="btn btn-ghost btn-sm">Execution log</Link>}
          <Link to="/workflows" className="btn btn-ghost btn-sm">All workflows</Link>
        </div>
        {e.load.state === 'loading' && <p className="muted" role="status">Loading the workflow…</p>}
        {e.load.state === 'failed' && (
          <div className="notice notice-error" role="alert">
            <span>{e.load.message}</span>
            {e.online && <span><Button size="sm" onClick={e.retry}>Try again</Button></span>}
          </div>
        )}
        {e.load.state === 'ready' && (
          <>
            {!e.online && <p className="notice notice-warn">You’re offline. Saving, the dry run and the log need a connection; what you change here stays on this page.</p>}
            <div className="wf-basics">
              <TextField label="Name" value={e.draft.name} maxLength={120} error={e.errors.name} onChange={(name) => e.editDraft((d) => ({ ...d, name }))} />
              {e.view === 'form' && (
                <SelectField label="When" value={e.draft.trigger} options={WORKFLOW_TRIGGERS.map((t) => ({ value: t, label: TRIGGER_LABELS[t] }))}
                  onChange={(t) => e.changeTrigger(t as WorkflowTrigger)} />
              )}
              <label className="wf-switch">
                <input type="checkbox" role="switch" checked={e.draft.enabled} onChange={(ev) => e.editDraft((d) => ({ ...d, enabled: ev.target.checked }))} />
                <span>{e.draft.enabled ? 'On: runs on every new event once saved' : 'Off: saved but does not run'}</span>
              </label>
            </div>
            <Tabs<EditorView> label="Edit as" selected={e.view} onSelect={e.switchTo} tabs={[
              { key: 'form', label: 'Form', panel: e.view === 'form' ? <WorkflowForm e={e} /> : null },
              {
                key: 'canvas', label: 'Canvas',
                panel: e.view === 'canvas'
                  ? <CanvasView canvas={e.canvas} problems={problems} currency={e.currency} options={e.options} names={e.names} onChange={e.editCanvas} />
                  : null,
              },
            ]} />
            <FormError message={e.formError} />
            <div className="wf-actions">
              {e.saved && <Button variant="danger" disabled={!e.online} onClick={() => setConfirmDelete(true)}>Delete…</Button>}
              <span className="spacer" />
              <Button variant="primary" loading={e.busy} disabled={!e.online} onClick={() => void e.save()}>
                {e.saved ? 'Save workflow' : 'Create workflow'}
              </Button>
            </div>
            <DryRunPanel run={e.dryRun} online={e.online} onRun={() => void e.runDry()} />
          </>
        )}
      </div>
      {confirmDelete && e.saved && (
        <ConfirmDialog title={`Delete “${e.saved.name}”?`} tone="danger" confirmLabel="Delete workflow" onClose={() => setConfirmDelete(false)} onConfirm={remove}
          description="It stops running at once. Its execution log stays readable; what it already did stays done.">
          <FormError message={deleteError} />
        </ConfirmDialog>
      )}
    </div>
  );
}
