import { useState, type FormEvent, type ReactNode } from 'react';
import { Button } from '../../../components/button.tsx';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { FormError } from '../../../components/form-error.tsx';
import { StepUpDialog } from '../../../components/step-up-dialog.tsx';
import { useAppState } from '../../../data-access/data-context.tsx';
import type { ActionResult } from '../../../data-access/types.ts';
import type { NetworkVendorProfile, PortalPropagation } from '../../../../workers/api.ts';
import { errorText } from '../../../lib/error-text.ts';
import { useSensitiveAction } from '../../../lib/use-sensitive-action.ts';
import { propagationText } from './portal-rules.ts';

export type Saved = ActionResult & { profile?: NetworkVendorProfile; payers?: PortalPropagation };
export type Errors = Record<string, string | undefined>;

/** Removing a saved detail: asked first, then (sensitive) after "Confirm it's you". */
export interface RemoveAction {
  label: string;
  title: string;
  description: string;
  done: string;
  run: () => Promise<Saved>;
}

/**
 * One section of the profile: its form, checked here first (the server's rules), then saved —
 * after "Confirm it's you" when the call is sensitive; the answer says what happened at each payer.
 * `remove`, when the detail is saved, offers to delete it (asked first).
 */
export function ProfileForm({ title, what, current, check, save, onSaved, remove, sensitiveSave = true, children }: {
  title: string; what: string; current: ReactNode; check: () => Errors; save: () => Promise<Saved>;
  onSaved: (profile: NetworkVendorProfile) => void; remove?: RemoveAction | null; sensitiveSave?: boolean; children: (errors: Errors) => ReactNode;
}) {
  const online = useAppState((s) => s.online);
  const sensitive = useSensitiveAction();
  const [errors, setErrors] = useState<Errors>({});
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [removing, setRemoving] = useState(false);
  async function submit(e: FormEvent) {
    e.preventDefault();
    const found = check();
    setErrors(found);
    setError(null);
    setDone(null);
    if (Object.values(found).some(Boolean)) return;
    setBusy(true);
    await sensitive.run(save, (r) => {
      setBusy(false);
      const saved = r as Saved;
      if (!saved.ok) return setError(errorText(saved.error));
      if (saved.profile) onSaved(saved.profile);
      setDone(propagationText(what, saved.payers ?? []));
    });
    setBusy(false);
  }
  const headingId = `profile-${what.replace(/\W+/g, '-')}`;
  return (
    <section className="card portal-section" aria-labelledby={headingId}>
      <h2 id={headingId}>{title}</h2>
      <div className="muted">{current}</div>
      <form onSubmit={(e) => void submit(e)} noValidate className="portal-form">
        {children(errors)}
        <FormError message={error} />
        {done && <p className="notice" role="status">{done}</p>}
        <div className="portal-form-actions">
          <Button type="submit" variant="primary" loading={busy} disabled={!online}>
            {online ? `Save ${what}` : 'Saving needs a connection'}
          </Button>
          {remove && <Button variant="ghost" disabled={!online} onClick={() => setRemoving(true)}>{remove.label}</Button>}
        </div>
        {sensitiveSave && <p className="muted small">You’ll be asked to confirm it’s you before it’s saved.</p>}
      </form>
      {remove && removing && (
        <ConfirmDialog title={remove.title} description={remove.description} confirmLabel={remove.label} tone="danger" onClose={() => setRemoving(false)}
          onConfirm={async () => {
            let ok = false;
            await sensitive.run(remove.run, (r) => {
              const saved = r as Saved;
              if (!saved.ok) return setError(errorText(saved.error));
              ok = true;
              if (saved.profile) onSaved(saved.profile);
              setDone(remove.done);
              setRemoving(false);
            });
            return ok;
          }}>
          <FormError message={error} />
        </ConfirmDialog>
      )}
      {sensitive.prompting && <StepUpDialog onDone={sensitive.confirmed} onCancel={sensitive.cancelled} />}
    </section>
  );
}
