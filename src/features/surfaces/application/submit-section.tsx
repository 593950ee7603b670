import { useState } from 'react';
import { useNavigate } from '@tanstack/react-router';
import { Button } from '../../../components/button.tsx';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { useDataClient } from '../../../data-access/data-context.tsx';
import { errorText } from '../../../lib/error-text.ts';
import { useFinishScopeSwitch } from '../scope-picker.tsx';
import { DocumentRequests } from './document-requests.tsx';
import { StepLink } from './step-form.tsx';
import { readyToSubmit, type StepEntry } from './step-list-model.ts';
import type { ApplicationModel } from './use-application.ts';

/**
 * Issue 31: submitting (online only, asked first) and the decision. APPLICATION_7002 lists what is
 * missing per step with a link there; APPROVED offers to go into the new business as its owner.
 */
export function SubmitSection({ model, entries }: { model: ApplicationModel; entries: StepEntry[] }) {
  const client = useDataClient();
  const navigate = useNavigate();
  const [asking, setAsking] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [refused, setRefused] = useState<StepEntry[]>([]);
  const app = model.application!;
  const waiting = entries.filter((e) => e.state !== 'Saved');

  async function submit(): Promise<boolean> {
    setError(null);
    const r = await client.submitApplication(model.appId);
    if (r.ok) {
      await model.reload();
      await navigate({ href: '/application/submitted' });
      return true;
    }
    if (r.error.error_code === 'APPLICATION_7002') {
      await model.reload();
      setRefused(entries.filter((e) => e.state !== 'Saved'));
    }
    setError(errorText(r.error));
    return true;
  }

  return (
    <section className="application-submit" aria-labelledby="submit-title">
      <h2 id="submit-title">Submit</h2>
      {waiting.length > 0 && (
        <div role="note">
          <p>Before you submit, these steps need your answers:</p>
          <StepLinks entries={waiting} />
        </div>
      )}
      {error && <p className="form-error" role="alert">{error}</p>}
      {refused.length > 0 && <StepLinks entries={refused} />}
      {!model.online && <p className="notice notice-warn">Submitting needs a connection.</p>}
      <Button variant="primary" disabled={!model.online || !readyToSubmit(app, model.drafts)} onClick={() => setAsking(true)}>
        {model.online ? 'Submit application' : 'Submit application (needs a connection)'}
      </Button>
      {asking && (
        <ConfirmDialog
          title="Submit your application?"
          description="You can’t change it after. Ledgerline checks it and tells you the decision right away."
          confirmLabel="Submit"
          cancelLabel="Not yet"
          onClose={() => setAsking(false)}
          onConfirm={submit}
        />
      )}
    </section>
  );
}

function StepLinks({ entries }: { entries: StepEntry[] }) {
  return (
    <ul>
      {entries.map((e) => (
        <li key={e.key}>
          <StepLink slug={e.slug}>{e.title}</StepLink>
          {e.messages.length > 0 && `: ${e.messages.join(' ')}`}
        </li>
      ))}
    </ul>
  );
}

/** The decision: approved (go into the business), in review (what next, document requests) or declined (why). */
export function SubmittedPage({ model }: { model: ApplicationModel }) {
  const client = useDataClient();
  const finish = useFinishScopeSwitch();
  const app = model.application!;
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const outcome = app.decision?.outcome ?? null;
  const name = app.business_details?.legal_name ?? app.business_name ?? 'your business';

  async function goToBusiness() {
    if (!app.business_id) return;
    setBusy(true);
    setError(null);
    try {
      const r = await client.switchScope({ kind: 'BUSINESS', business_id: app.business_id });
      if (r.ok) await finish(r.session, r.left_behind);
      else setError(errorText(r.error));
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="surface-page application" aria-labelledby="application-title">
      <h1 id="application-title">Application submitted</h1>
      {outcome === 'APPROVED' && (
        <>
          <p className="notice notice-success" role="status">{`Approved. ${name} is ready on Ledgerline and you are its owner.`}</p>
          <Button variant="primary" loading={busy} disabled={!model.online} onClick={() => void goToBusiness()}>{`Go to ${name}`}</Button>
          {!model.online && <p className="muted">Opening the business needs a connection.</p>}
        </>
      )}
      {outcome === 'MANUAL_REVIEW' && (
        <>
          <p role="status">Your application needs a closer look. Our team reviews it and emails you the decision; this usually takes one to two business days.</p>
          <DocumentRequests model={model} />
        </>
      )}
      {outcome === 'REJECTED' && (
        <>
          <p role="status">We can’t offer Ledgerline to this business now.</p>
          <ul>{app.decision!.reasons.map((r) => <li key={r}>{r}</li>)}</ul>
        </>
      )}
      {outcome === null && <p role="status">Your application was submitted. The decision appears here.</p>}
      {error && <p className="form-error" role="alert">{error}</p>}
      <Survey model={model} />
    </section>
  );
}

const SURVEY_KEY = (appId: string) => `application-survey:${appId}`;

/**
 * The post-submit survey (`application.survey`), asked once: the server takes one answer per
 * application (a second is APPLICATION_7001, read here as "already answered"); this device
 * remembers an answer or a "No thanks".
 */
function Survey({ model }: { model: ApplicationModel }) {
  const client = useDataClient();
  const [done, setDone] = useState(() => localStorage.getItem(SURVEY_KEY(model.appId)));
  const [heard, setHeard] = useState('');
  const [rating, setRating] = useState('');
  const [comment, setComment] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  if (done === 'sent-now') return <p className="notice notice-success" role="status">Thanks for telling us.</p>;
  if (done) return null;
  const finish = (how: 'sent' | 'skipped') => {
    localStorage.setItem(SURVEY_KEY(model.appId), how);
    setDone(how === 'sent' ? 'sent-now' : how);
  };
  async function send() {
    if (!heard.trim() || !rating) {
      setError('Say how you heard of us and pick a rating.');
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const r = await client.applicationSurvey(model.appId, { heard_from: heard.trim(), rating: Number(rating), ...(comment.trim() ? { comment: comment.trim() } : {}) });
      if (r.ok || r.error.error_code === 'APPLICATION_7001') finish('sent');
      else setError(errorText(r.error));
    } finally {
      setBusy(false);
    }
  }
  return (
    <form className="application-survey" aria-labelledby="survey-title" onSubmit={(e) => { e.preventDefault(); void send(); }}>
      <h2 id="survey-title">A quick question (optional)</h2>
      <label className="field">
        <span className="field-label">How did you hear about Ledgerline?</span>
        <input value={heard} maxLength={100} onChange={(e) => setHeard(e.target.value)} />
      </label>
      <label className="field">
        <span className="field-label">How easy was applying? (1 hard – 5 easy)</span>
        <select value={rating} onChange={(e) => setRating(e.target.value)}>
          <option value="">Choose…</option>
          {[1, 2, 3, 4, 5].map((n) => <option key={n} value={n}>{n}</option>)}
        </select>
      </label>
      <label className="field">
        <span className="field-label">Anything else? (optional)</span>
        <textarea value={comment} maxLength={1000} rows={3} onChange={(e) => setComment(e.target.value)} />
      </label>
      {error && <p className="form-error" role="alert">{error}</p>}
      <div className="application-actions">
        <Button type="submit" loading={busy} disabled={!model.online}>{model.online ? 'Send' : 'Send (needs a connection)'}</Button>
        <Button variant="ghost" onClick={() => finish('skipped')}>No thanks</Button>
      </div>
    </form>
  );
}
