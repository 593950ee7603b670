import { useLayoutEffect, useMemo, useState, type FormEvent } from 'react';
import { useNavigate, useRouterState } from '@tanstack/react-router';
import { Button } from '../../../components/button.tsx';
import { FORM_STEPS, KYC_FIELDS, kycFromAnswer } from './application-steps.ts';
import { DocumentsStep } from './documents-step.tsx';
import { SubmitSection, SubmittedPage } from './submit-section.tsx';
import { withSavedIds } from './saved-rows.ts';
import { removalBlocked, SavedRowDialog, type RemovableStep, type RemovalTarget } from './saved-row-removal.tsx';
import { removeRow, fieldErrors, labelsOf, toBody, type FormValues } from './step-fields.ts';
import { StepFields, StepLink } from './step-form.tsx';
import { InviteSection } from './invite-section.tsx';
import { entryOf, stepList, type StepEntry } from './step-list-model.ts';
import { specOf, useApplicationModel, type ApplicationModel } from './use-application.ts';
import './application.css';

/**
 * Issue 31: the financing application's pages inside the surface's shell, by address: the step
 * list (`/application`), one step (`/application/<step>`), the decision (`/application/submitted`).
 */
export function ApplicationPages() {
  const pathname = useRouterState({ select: (s) => s.location.pathname }).replace(/\/+$/, '');
  // Signed in from an invite's link (application-start-page.tsx): the list says whose application this is.
  const joined = useRouterState({ select: (s) => new URLSearchParams(s.location.searchStr).get('joined') === '1' });
  const model = useApplicationModel();
  const slug = pathname.split('/')[2] ?? '';
  const title = slug === '' ? model.label : slug === 'submitted' ? 'Application submitted' : 'Application step';
  useLayoutEffect(() => {
    document.title = `${title} · Ledgerline`;
  }, [title]);
  if (!model.application) {
    return (
      <section className="surface-page application" aria-labelledby="application-title">
        <h1 id="application-title">{model.label}</h1>
        {model.loadError ? <p className="notice notice-error" role="alert">{model.loadError}</p> : <p className="muted" role="status">Loading your application…</p>}
      </section>
    );
  }
  if (slug === 'submitted' || model.application.status !== 'DRAFT') return <SubmittedPage model={model} />;
  if (slug === '') return <StepListPage model={model} joined={joined} />;
  return <StepPage model={model} slug={slug} />;
}

const stateClass = (e: StepEntry) => `application-state state-${e.state.replace(/\s+/g, '-').toLowerCase()}`;

function Freshness({ model }: { model: ApplicationModel }) {
  if (model.online) return model.sending ? <p className="muted" role="status">Sending your answers…</p> : null;
  const at = model.fetchedAt ? new Date(model.fetchedAt).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' }) : null;
  return (
    <p className="notice notice-warn" role="status">
      {`You’re offline${at ? ` — as of ${at}` : ''}. Your answers are saved on this device and sent when you’re back online.`}
    </p>
  );
}

function StepListPage({ model, joined }: { model: ApplicationModel; joined: boolean }) {
  const entries = stepList(model.application!, model.drafts);
  const done = entries.filter((e) => e.state === 'Saved').length;
  return (
    <section className="surface-page application" aria-labelledby="application-title">
      <h1 id="application-title">{model.label}</h1>
      {joined && <p className="notice" role="status">{`You’re joining ${model.label} as a co-applicant. Your answers are saved with the applicant’s.`}</p>}
      <p className="muted">{`${done} of ${entries.length} steps saved. Each answer is saved on this device as you type.`}</p>
      <Freshness model={model} />
      <ol className="application-steps">
        {entries.map((e) => (
          <li key={e.key}>
            <StepLink slug={e.slug} className="application-step-link">
              <span className="application-step-title">{e.title}</span>
              <span className={stateClass(e)}>{e.state}</span>
            </StepLink>
            {e.messages.length > 0 && <p className="field-error">{e.messages.join(' ')}</p>}
          </li>
        ))}
      </ol>
      <InviteSection model={model} />
    </section>
  );
}

function StepPage({ model, slug }: { model: ApplicationModel; slug: string }) {
  const entries = stepList(model.application!, model.drafts);
  const entry = entryOf(entries, slug);
  const index = entry ? entries.indexOf(entry) : -1;
  const next = entries[index + 1];
  if (!entry) {
    return (
      <section className="surface-page application" aria-labelledby="application-title">
        <h1 id="application-title">Step not found</h1>
        <p>
          This application has no such step. <StepLink slug="">Back to the steps</StepLink>
        </p>
      </section>
    );
  }
  return (
    <section className="surface-page application" aria-labelledby="application-title">
      <p>
        <StepLink slug="">← All steps</StepLink>
      </p>
      <h1 id="application-title">{entry.title}</h1>
      <Freshness model={model} />
      {entry.key === 'documents' ? (
        <DocumentsStep model={model} />
      ) : (
        <StepForm key={entry.key} model={model} entry={entry} nextSlug={next?.slug ?? null} />
      )}
      {entry.key === 'checkbox' && <SubmitSection model={model} entries={entries} />}
    </section>
  );
}

function StepForm({ model, entry, nextSlug }: { model: ApplicationModel; entry: StepEntry; nextSlug: string | null }) {
  const navigate = useNavigate();
  const app = model.application!;
  const spec = specOf(entry.key)!;
  const formStep = FORM_STEPS.find((s) => s.key === entry.key);
  const draft = model.drafts.find((d) => d.step === entry.key);
  const [values, setValues] = useState<FormValues>(() => {
    const start = (draft?.pending ? draft.values : null) ?? (formStep ? formStep.fromAnswer(app) : kycFromAnswer(app, entry.key.slice(4))) ?? {};
    return spec.list ? withSavedIds(start, spec.list, app) : start;
  });
  // Each answer of the server may have saved rows typed here: they take its ids (saved-rows.ts).
  const [seen, setSeen] = useState(app);
  if (seen !== app) {
    setSeen(app);
    if (spec.list) setValues((v) => withSavedIds(v, spec.list!, app));
  }
  const [tried, setTried] = useState(false);
  const [removing, setRemoving] = useState<RemovalTarget | null>(null);
  const removable: RemovableStep | null = entry.key === 'ownerships' || entry.key === 'bank_accounts' ? entry.key : null;
  const labels = useMemo(() => labelsOf(spec.fields, spec.list), [spec]);
  const errors = fieldErrors(spec.schema.safeParse(toBody(values, spec.fields, spec.list)), labels);
  const shown = tried ? errors : Object.fromEntries(Object.entries(errors).filter(([k]) => (values[k] ?? '') !== ''));
  const person = entry.key.startsWith('kyc:') ? app.kyc_individuals.find((k) => k.id === entry.key.slice(4)) : undefined;
  const saved: Record<string, string> = person?.ssn_last_four ? { ssn: `Saved: •••-••-${person.ssn_last_four}. Enter it again to change these details.` } : {};
  for (const [i, b] of app.bank_accounts.entries()) {
    if (values[`accounts.${i}.id`] === b.id) {
      saved[`accounts.${i}.routing_number`] = `Saved: ••••${b.routing_last_four}. Enter it again to change this account.`;
      saved[`accounts.${i}.account_number`] = `Saved: ••••${b.account_last_four}.`;
    }
  }

  function removed(index: number) {
    const next = removeRow(values, spec.list!, index);
    setValues(next);
    // A draft still waiting is saved without the row; otherwise the server's answer is the truth.
    if (draft?.pending) void model.save(entry.key, next);
  }
  function change(next: FormValues) {
    setValues(next);
    void model.save(entry.key, next);
  }
  async function submit(e: FormEvent) {
    e.preventDefault();
    setTried(true);
    if (Object.keys(errors).length > 0) {
      document.querySelector<HTMLElement>(`[data-field="${Object.keys(errors)[0]}"] input, [data-field="${Object.keys(errors)[0]}"] select`)?.focus();
      return;
    }
    await model.save(entry.key, values);
    await model.flush();
    if (entry.key !== 'checkbox') await navigate({ href: nextSlug ? `/application/${nextSlug}` : '/application' });
  }
  const status = draft?.pending ? (draft.error ?? (model.online ? 'Saved on this device. Sending…' : 'Saved on this device.')) : entry.state === 'Saved' ? 'Saved.' : null;
  return (
    <>
      <form className="application-form" onSubmit={(e) => void submit(e)} noValidate>
        {formStep && <p className="muted">{formStep.intro}</p>}
        {entry.key.startsWith('kyc:') && <p className="muted">An identity check for this person. Their SSN is sent to Ledgerline only and shown as its last four once saved.</p>}
        <StepFields
          fields={spec.fields === KYC_FIELDS ? KYC_FIELDS : spec.fields} list={spec.list} values={values} errors={shown} saved={saved} onChange={change}
          removeSaved={removable ? { onRemove: (index, id) => setRemoving({ index, id }), blocked: removalBlocked(model) } : undefined}
        />
        {status && <p className={draft?.error ? 'form-error' : 'muted'} role="status">{status}</p>}
        <div className="application-actions">
          <Button type="submit" variant="primary">{entry.key === 'checkbox' ? 'Save' : 'Save and continue'}</Button>
        </div>
      </form>
      {/* Outside the form: a dialog's submit would bubble (through the portal) into the step's. */}
      {removable && removing && <SavedRowDialog model={model} step={removable} target={removing} onClose={() => setRemoving(null)} onRemoved={removed} />}
    </>
  );
}
