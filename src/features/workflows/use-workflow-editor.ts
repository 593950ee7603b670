import { useNavigate } from '@tanstack/react-router';
import { useCallback, useEffect, useState } from 'react';
import { canvasToWorkflow, workflowToCanvas, type Canvas } from '../../../schema/workflow-canvas.ts';
import type { Workflow, WorkflowTrigger } from '../../../schema/workflow.ts';
import { useAppState, useDataClient } from '../../data-access/data-context.tsx';
import type { DryRunAnswer } from '../../../workers/api.ts';
import { errorText } from '../../lib/error-text.ts';
import { toastInfo } from '../../lib/toast-store.ts';
import { canvasProblems, keepPositions, serverMarks } from './canvas-edit.ts';
import { useWorkflowReference } from './use-workflow-reference.ts';
import { blankDraft, compile, compileRules, formKeyOf, retrigger, ruleDrafts, workflowDraft, type WorkflowDraft } from './workflow-draft.ts';

export type EditorView = 'form' | 'canvas';
type Load = { state: 'loading' } | { state: 'failed'; message: string } | { state: 'ready' };
export type DryRun = { state: 'idle' } | { state: 'running' } | { state: 'failed'; message: string } | { state: 'done'; run: DryRunAnswer };

type RulesOf = { id?: string; conditions: Workflow['rules'][number]['conditions']; actions: Workflow['rules'][number]['actions'] }[];
/** New rules have no id yet: the canvas node then has no `rule_id` (the server gives one). */
const drawRules = (trigger: WorkflowTrigger, rules: RulesOf) => workflowToCanvas({ trigger, rules: rules as Workflow['rules'] });

/** Offline before the workflow was read: said (it lives on the server), never a spinner forever. */
const shownLoad = (load: Load, online: boolean): Load =>
  (!online && load.state === 'loading' ? { state: 'failed', message: 'You’re offline. Workflows are read from the server: connect to see and edit this one.' } : load);

type Read = { ok: true; trigger: WorkflowTrigger; rules: RulesOf } | { ok: false; errors: Record<string, string>; marks: Record<string, string>; message: string };

/** The rules of the view being edited: the form's fields checked, or the canvas read with its problems by node. */
function readRules(view: EditorView, draft: WorkflowDraft, canvas: Canvas): Read {
  if (view === 'form') {
    const r = compileRules(draft.trigger, draft.rules);
    return r.ok ? { ok: true, trigger: draft.trigger, rules: r.rules } : { ok: false, errors: r.errors, marks: {}, message: 'Some steps need attention.' };
  }
  const problems = canvasProblems(canvas);
  const read = canvasToWorkflow(canvas);
  if (Object.keys(problems).length > 0 || !read.ok) {
    return { ok: false, errors: {}, marks: problems, message: 'The canvas does not read as a workflow yet: fix the steps marked on it.' };
  }
  return { ok: true, trigger: read.trigger, rules: read.rules };
}

/** Reads the saved workflow and its canvas when online (again on `attempt`); a refusal says why. */
function useWorkflowLoad(
  id: string | null, online: boolean, attempt: number, adopt: (w: Workflow, drawn: Canvas) => void, setLoad: (l: Load) => void,
) {
  const client = useDataClient();
  useEffect(() => {
    if (!id || !online) return;
    let live = true;
    void client.workflowCanvas(id).then((r) => {
      if (!live) return;
      if (r.ok) adopt(r.workflow, r.canvas);
      else setLoad({ state: 'failed', message: errorText(r.error) });
    });
    return () => {
      live = false;
    };
  }, [client, id, online, adopt, attempt, setLoad]);
}

/**
 * The workflow editor's state (issue 29): the workflow as a form (`draft`) and as a graph
 * (`canvas`), one of them being edited (`view`); switching turns one into the other (refused, with
 * the reasons marked, while the one being left does not read as a workflow). Saving always goes
 * through the blank canvas call so node positions are kept; the server's refusals land on the
 * fields (form) or the nodes (canvas). The dry run sends the workflow as edited, saved or not.
 */
export function useWorkflowEditor(id: string | null) {
  const client = useDataClient();
  const navigate = useNavigate();
  const online = useAppState((s) => s.online && (s.status?.online ?? true));
  const { currency, options, names } = useWorkflowReference();
  const [load, setLoad] = useState<Load>(id ? { state: 'loading' } : { state: 'ready' });
  const [saved, setSaved] = useState<Workflow | null>(null);
  const [draft, setDraft] = useState<WorkflowDraft>(() => blankDraft(currency));
  const [canvas, setCanvas] = useState<Canvas>(() => drawRules('claim.submitted', []));
  const [view, setView] = useState<EditorView>('form');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [marks, setMarks] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [dryRun, setDryRun] = useState<DryRun>({ state: 'idle' });
  const [attempt, setAttempt] = useState(0);

  const adopt = useCallback((w: Workflow, drawn: Canvas) => {
    setSaved(w);
    setDraft(workflowDraft(w, currency));
    setCanvas(drawn);
    setErrors({});
    setMarks({});
    setFormError(null);
    setLoad({ state: 'ready' });
  }, [currency]);

  useWorkflowLoad(id, online, attempt, adopt, setLoad);

  /** Every edit clears what the last save or switch said (it named the workflow as it was). */
  const editDraft = (change: (d: WorkflowDraft) => WorkflowDraft) => {
    setDraft(change);
    setErrors({});
    setFormError(null);
    setDryRun((r) => (r.state === 'done' || r.state === 'failed' ? { state: 'idle' } : r));
  };
  const editCanvas = (next: Canvas) => {
    setCanvas(next);
    setMarks({});
    setFormError(null);
    setDryRun((r) => (r.state === 'done' || r.state === 'failed' ? { state: 'idle' } : r));
  };
  const changeTrigger = (trigger: WorkflowTrigger) => {
    const { draft: next, dropped } = retrigger(draft, trigger, currency);
    editDraft(() => next);
    if (dropped > 0) toastInfo(`${dropped === 1 ? 'One step' : `${dropped} steps`} did not fit the new trigger and ${dropped === 1 ? 'was' : 'were'} removed.`);
  };

  /** The rules as edited in the current view, or why they cannot be read (shown where they belong). */
  const currentRules = () => {
    const r = readRules(view, draft, canvas);
    if (r.ok) return r;
    setErrors(r.errors);
    setMarks(r.marks);
    setFormError(r.message);
    return null;
  };

  const switchTo = (next: EditorView) => {
    if (next === view) return;
    const current = currentRules();
    if (!current) return;
    if (next === 'canvas') setCanvas((c) => keepPositions(drawRules(current.trigger, current.rules), c));
    else setDraft((d) => ({ ...d, trigger: current.trigger, rules: ruleDrafts(current.rules, currency) }));
    setView(next);
    setErrors({});
    setMarks({});
    setFormError(null);
  };

  const save = async () => {
    setFormError(null);
    const current = currentRules();
    if (!current) return;
    const whole = compile({ ...draft, trigger: current.trigger, rules: ruleDrafts(current.rules, currency) });
    if (!whole.ok) {
      setErrors(whole.errors);
      setFormError(whole.errors.name ?? 'Some steps need attention.');
      return;
    }
    const drawn = view === 'canvas' ? canvas : keepPositions(drawRules(current.trigger, current.rules), canvas);
    setBusy(true);
    try {
      const r = await client.saveWorkflowCanvas({ ...(saved ? { id: saved.id } : {}), name: whole.input.name, enabled: draft.enabled, canvas: drawn });
      if (r.ok) {
        adopt(r.workflow, r.canvas);
        toastInfo(`Workflow “${r.workflow.name}” saved${r.workflow.enabled ? ' and on' : ', off'}.`);
        if (!saved) void navigate({ to: '/workflows/$workflowId', params: { workflowId: r.workflow.id }, replace: true });
        return;
      }
      setFormError(errorText(r.error));
      const fields = r.error.errors ?? {};
      if (view === 'canvas') setMarks(serverMarks(drawn, fields));
      else setErrors(Object.fromEntries(Object.entries(fields).map(([path, message]) => [formKeyOf(path) ?? path, message])));
    } finally {
      setBusy(false);
    }
  };

  const runDry = async () => {
    const current = currentRules();
    if (!current) return;
    const body = compileRules(current.trigger, ruleDrafts(current.rules, currency));
    if (!body.ok) return;
    setDryRun({ state: 'running' });
    const r = await client.dryRunWorkflow({ workflow: { ...body.input, name: draft.name.trim() || 'Dry run', enabled: false } });
    setDryRun(r.ok ? { state: 'done', run: r.run } : { state: 'failed', message: errorText(r.error) });
  };

  return {
    online, currency, options, names, load: shownLoad(load, online), saved, draft, canvas, view, errors, marks, formError, busy, dryRun,
    editDraft, editCanvas, changeTrigger, switchTo, save, runDry, retry: () => { setLoad({ state: 'loading' }); setAttempt((n) => n + 1); },
  };
}

export type WorkflowEditor = ReturnType<typeof useWorkflowEditor>;
