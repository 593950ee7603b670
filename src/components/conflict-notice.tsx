import { openConflict, REVIEW_CHANGES } from '../lib/conflict-store.ts';
import { Button } from './button.tsx';

/**
 * Issue 24: in a row's drawer, a change of this device that met someone else's change of the
 * same field: nothing of it was saved; the conflict drawer shows both versions.
 */
export function ConflictNotice({ commandId }: { commandId: string }) {
  return (
    <div className="notice notice-warning" role="alert">
      <strong>Someone else changed this while your change was waiting to sync.</strong> Nothing of your change was saved yet: compare
      the two versions and choose which to keep.
      <div className="row-actions">
        <Button size="sm" onClick={() => openConflict(commandId)}>
          {REVIEW_CHANGES}
        </Button>
      </div>
    </div>
  );
}
