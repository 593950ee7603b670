import { useState, type FormEvent } from 'react';
import { useNavigate } from '@tanstack/react-router';
import type { ScopeTarget } from '../../../schema/entities/scope-choice.ts';
import { isBusinessSession } from '../../../workers/contracts/session.ts';
import { sessionTarget } from '../../../workers/scope-choices.ts';
import { sessionState, signedInSession } from '../../data-access/app-state.ts';
import { useAppState, useAppStore, useDataClient } from '../../data-access/data-context.tsx';
import type { ScopeChoicesResult, SessionInfo } from '../../data-access/types.ts';
import { Button } from '../../components/button.tsx';
import { FormError } from '../../components/form-error.tsx';
import { Modal } from '../../components/modal.tsx';
import { Skeleton } from '../../components/skeleton.tsx';
import { leftBehindText } from '../../lib/business-switch.ts';
import { errorText } from '../../lib/error-text.ts';
import { rememberTabBusiness } from '../../lib/session-tab.ts';
import { sessionHome } from '../../lib/surface-guard.ts';
import { toastInfo } from '../../lib/toast-store.ts';
import { useAnswer } from '../../lib/use-answer.ts';
import { scopeGroups } from './scope-groups.ts';
import './surfaces.css';

/**
 * "Switch account" (issue 31, §4 "picks one"): the identity's businesses, firm, vendor portals and
 * applications; choosing one switches the token on the same session and lands on that scope's
 * home. A scope asking for two-factor authentication asks for the code here. Offline the last
 * list read is shown and switching waits for a connection (the server issues the token).
 */
export function ScopePicker({ onClose }: { onClose: () => void }) {
  const client = useDataClient();
  const online = useAppState((s) => s.online);
  const current = useAppState(signedInSession);
  const answer = useAnswer<ScopeChoicesResult>(() => client.scopeChoices(), [client, online]);
  const finish = useFinishScopeSwitch(onClose);
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [mfa, setMfa] = useState(false);

  async function choose(key: string, target: ScopeTarget) {
    setBusy(key);
    setError(null);
    try {
      const result = await client.switchScope(target);
      if (result.ok) await finish(result.session, result.left_behind);
      else if (result.mfa_required) setMfa(true);
      else setError(errorText(result.error));
    } finally {
      setBusy(null);
    }
  }

  const groups = answer?.ok ? scopeGroups(answer.choices, current ? sessionTarget(current) : null) : [];
  return (
    <Modal title="Switch account" description="Choose where to work: a business, your accounting firm, a vendor portal or an application." onClose={onClose}>
      {mfa ? (
        <MfaCode onDone={(session) => finish(session, null)} onCancel={() => setMfa(false)} />
      ) : (
        <>
          {answer === null && <Skeleton height={120} />}
          {answer && !answer.ok && <FormError message={errorText(answer.error)} />}
          {answer?.ok && answer.offline && (
            <p className="muted" role="status">
              You’re offline or Ledgerline can’t be reached: this is the list as last read. Switching needs a connection.
            </p>
          )}
          {groups.map((group) => (
            <section key={group.title} className="scope-group" aria-label={group.title}>
              <h3>{group.title}</h3>
              <ul>
                {group.choices.map((choice) => (
                  <li key={choice.key}>
                    <button
                      type="button"
                      className="scope-choice"
                      aria-current={choice.current ? 'true' : undefined}
                      disabled={choice.current || busy !== null || !online}
                      aria-busy={busy === choice.key || undefined}
                      onClick={() => void choose(choice.key, choice.target)}
                    >
                      <span className="scope-label">{choice.label}</span>
                      {(choice.detail || choice.current) && (
                        <span className="muted">{[choice.detail, choice.current ? 'Current' : null].filter(Boolean).join(' · ')}</span>
                      )}
                    </button>
                  </li>
                ))}
              </ul>
            </section>
          ))}
          <FormError message={error} />
        </>
      )}
    </Modal>
  );
}

/** The chosen scope asks for a second factor this session has not passed: an authenticator code completes the switch. */
function MfaCode({ onDone, onCancel }: { onDone: (session: SessionInfo) => Promise<void>; onCancel: () => void }) {
  const client = useDataClient();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  async function submit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    const result = await client.verifyMfa(code);
    setBusy(false);
    if (result.ok) await onDone(result.session);
    else setError(errorText(result.error));
  }
  return (
    <form onSubmit={(e) => void submit(e)}>
      <p>This account asks for two-factor authentication. Enter the code from your authenticator app.</p>
      {/* Not the shared CodeField: importing it here would split it out of the first load's chunk. */}
      <label className="field">
        <span className="field-label">Verification code</span>
        <input
          className="code-input"
          name="code"
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={6}
          value={code}
          onChange={(e) => setCode(e.target.value.replace(/\D/g, '').slice(0, 6))}
          autoFocus
        />
      </label>
      <FormError message={error} />
      <div className="modal-actions">
        <Button variant="ghost" onClick={onCancel}>
          Back
        </Button>
        <Button type="submit" variant="primary" loading={busy} disabled={code.length !== 6}>
          Verify
        </Button>
      </div>
    </form>
  );
}

/** The new session into the store (views re-read), the tab's business kept, then that scope's home. */
export function useFinishScopeSwitch(onClose?: () => void) {
  const client = useDataClient();
  const store = useAppStore();
  const navigate = useNavigate();
  return async (session: SessionInfo, leftBehind: { business_name: string; changes: number } | null) => {
    if (isBusinessSession(session)) rememberTabBusiness(session.business.id);
    const status = await client.status();
    const next = sessionState(session);
    store.set((s) => ({ ...next, status, dataVersion: s.dataVersion + 1, referenceVersion: s.referenceVersion + 1 }));
    if (leftBehind) toastInfo(leftBehindText(leftBehind));
    onClose?.();
    await navigate({ href: sessionHome(next), replace: true });
  };
}
