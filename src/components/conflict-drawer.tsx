import { allChoices, type ConflictChoice } from '../../schema/commands/conflicts.ts';
import type { DataClient } from '../data-access/types.ts';
import type { ConflictFieldView } from '../lib/conflict-view.ts';
import { Button } from './button.tsx';
import { useConflictReview } from './conflict-drawer-state.ts';
import { Drawer } from './drawer.tsx';

export interface ConflictDrawerProps {
  client: DataClient;
  /** The conflicted outbox entry's id. */
  entryId: string;
  onClose(): void;
}
/**
 * Issue 24: the conflict drawer. For each field the server named in its 409 CONFLICT: what
 * happened (who changed it, when, and whether that was while this change waited to sync),
 * "Theirs" and "Mine" written as the app shows that field, and Keep mine / Keep theirs; "Keep
 * all mine" and "Keep all theirs" answer every field at once. The choice goes to the worker's
 * `resolveConflict`: one new command for what is kept as mine (and the fields the server did not
 * name), nothing for theirs; the conflicted change is resolved once. A modal drawer (focus
 * trapped, Escape closes), a full-screen sheet on phones.
 */
export function ConflictDrawer({ client, entryId, onClose }: ConflictDrawerProps) {
  const { heading, entry, row, details, fields, others, choices, setChoices, answered, busy, resolve } = useConflictReview(client, entryId, onClose);
  const choose = (field: string, choice: ConflictChoice) => setChoices((c) => ({ ...c, [field]: choice }));

  return (
    <div className="conflict-layer">
      <Drawer title="Review changes" titleRef={heading} closeLabel="Close review" onClose={onClose}>
        {entry === undefined && <div className="drawer-body muted">Loading…</div>}
        {entry === null && (
          <div className="drawer-body">
            <p>This change was already resolved.</p>
            <Button onClick={onClose}>Close</Button>
          </div>
        )}
        {entry && details && (
          <div className="drawer-body conflict-body">
            {row && <p className="conflict-what">{row.what}</p>}
            <p>
              Someone else changed {fields.length === 1 ? 'this field' : 'these fields'} after your copy was made, so nothing of
              your change was saved. Choose which version to keep.
            </p>
            {fields.map((f) => <FieldChoice key={f.field} f={f} choice={choices[f.field]} onChoose={(choice) => choose(f.field, choice)} />)}
            {others.length > 0 && (
              <p className="muted">
                Your other {others.length === 1 ? 'change' : 'changes'} ({others.join(', ')}) did not conflict and will be sent with your
                choice.
              </p>
            )}
            <div className="drawer-actions conflict-actions">
              <Button variant="secondary" disabled={busy} onClick={() => void resolve(allChoices(details.conflicts, 'theirs'))}>
                Keep all theirs
              </Button>
              <Button variant="secondary" disabled={busy} onClick={() => void resolve(allChoices(details.conflicts, 'mine'))}>
                Keep all mine
              </Button>
              <Button variant="primary" disabled={busy || !answered} loading={busy} onClick={() => void resolve(choices)}>
                Apply choices
              </Button>
            </div>
          </div>
        )}
      </Drawer>
    </div>
  );
}

/** One field the server named: what happened, Keep theirs and Keep mine. */
function FieldChoice({ f, choice, onChoose }: { f: ConflictFieldView; choice: ConflictChoice | undefined; onChoose(choice: ConflictChoice): void }) {
  return (
    <fieldset className="conflict-field">
      <legend>{f.label}</legend>
      <p className="conflict-sentence">{f.sentence}</p>
      <label className={`conflict-option${choice === 'theirs' ? ' is-chosen' : ''}`}>
        <input
          type="radio"
          name={`conflict-${f.field}`}
          checked={choice === 'theirs'}
          onChange={() => onChoose('theirs')}
        />
        <span className="conflict-option-text">
          <span className="conflict-option-title">Keep theirs</span>
          <span className="conflict-meta">{f.who}{f.when ? `, ${f.when}` : ''}</span>
          <span className="conflict-value">{f.theirs}</span>
        </span>
      </label>
      <label className={`conflict-option${choice === 'mine' ? ' is-chosen' : ''}`}>
        <input
          type="radio"
          name={`conflict-${f.field}`}
          checked={choice === 'mine'}
          onChange={() => onChoose('mine')}
        />
        <span className="conflict-option-text">
          <span className="conflict-option-title">Keep mine</span>
          <span className="conflict-meta">You, on this device</span>
          <span className="conflict-value">{f.mine}</span>
        </span>
      </label>
    </fieldset>
  );
}
