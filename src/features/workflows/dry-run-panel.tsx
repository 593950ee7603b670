import { ACTION_LABELS, DRY_RUN_DAYS, type WorkflowActionKind } from '../../../schema/workflow.ts';
import { Button } from '../../components/button.tsx';
import { formatCount, formatDay, formatLocalDateTime } from '../../lib/format.ts';
import type { DryRun } from './use-workflow-editor.ts';
import { ACTION_STATUS_WORDS, objectWords } from './execution-words.ts';

export interface DryRunPanelProps {
  run: DryRun;
  online: boolean;
  onRun(): void;
}

/** "What would this have done in the last 30 days?": counts per action, then each event's result (acting on nothing). */
export function DryRunPanel({ run, online, onRun }: DryRunPanelProps) {
  return (
    <section className="wf-panel" aria-labelledby="wf-dry-title">
      <div className="wf-panel-head">
        <h2 id="wf-dry-title">Dry run</h2>
        <span className="spacer" />
        <Button size="sm" onClick={onRun} loading={run.state === 'running'} disabled={!online}>
          What would this have done in the last {DRY_RUN_DAYS} days?
        </Button>
      </div>
      {!online && <p className="muted wf-note">The dry run reads past events on the server: connect to run it.</p>}
      {run.state === 'idle' && online && <p className="muted wf-note">Replays past events through the workflow as edited, saved or not. Nothing is changed and nobody is told.</p>}
      {run.state === 'running' && <p className="muted" role="status">Replaying the last {DRY_RUN_DAYS} days…</p>}
      {run.state === 'failed' && <p className="notice notice-error" role="alert">The dry run did not run: {run.message}</p>}
      {run.state === 'done' && <DryRunResult run={run.run} />}
    </section>
  );
}

function DryRunResult({ run }: { run: Extract<DryRun, { state: 'done' }>['run'] }) {
  const counts = Object.entries(run.by_action).filter(([, n]) => n > 0);
  return (
    <div className="wf-dry" role="status">
      <p>
        From {formatDay(run.from)} to {formatDay(run.to)}: {formatCount(run.events)} {run.events === 1 ? 'event' : 'events'}, {formatCount(run.matched)} matched a rule.
      </p>
      {counts.length > 0 ? (
        <ul className="wf-counts" aria-label="Actions it would have taken">
          {counts.map(([kind, n]) => (
            <li key={kind}><strong>{formatCount(n)}</strong> × {ACTION_LABELS[kind as WorkflowActionKind] ?? kind}</li>
          ))}
        </ul>
      ) : <p className="muted">It would have done nothing.</p>}
      {run.results.length > 0 && (
        <ol className="wf-results" aria-label="Results">
          {run.results.map((r) => (
            <li key={r.event_key} className="wf-result">
              <div className="wf-result-head">
                <span>{objectWords(r.object_type)} · {r.summary}</span>
                <span className="muted">{formatLocalDateTime(r.occurred_at)}</span>
              </div>
              {r.actions.length === 0
                ? <span className="muted">No rule matched.</span>
                : (
                  <ul className="wf-result-actions">
                    {r.actions.map((a, i) => <li key={i}>{ACTION_LABELS[a.kind]}: {ACTION_STATUS_WORDS[a.status]} — {a.detail}</li>)}
                  </ul>
                )}
            </li>
          ))}
        </ol>
      )}
      {run.truncated && <p className="muted wf-note">Only the newest {run.results.length} results are listed.</p>}
    </div>
  );
}
