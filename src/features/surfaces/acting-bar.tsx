import { useState } from 'react';
import type { ScopeChoice } from '../../../schema/entities/scope-choice.ts';
import { useAppState, useDataClient } from '../../data-access/data-context.tsx';
import type { ScopeChoicesResult } from '../../data-access/types.ts';
import { Button } from '../../components/button.tsx';
import { errorText } from '../../lib/error-text.ts';
import { useAnswer } from '../../lib/use-answer.ts';
import { useFinishScopeSwitch } from './scope-picker.tsx';
import './surfaces.css';

/** The firm a firm user's token acts for, among the identity's scopes (its console scope names it). */
export function firmChoice(choices: readonly ScopeChoice[] | undefined, firmId: string | null | undefined): ScopeChoice | null {
  if (!firmId) return null;
  return choices?.find((c) => c.target.kind === 'ADVISOR_CONSOLE' && c.target.external_firm_id === firmId) ?? null;
}

/**
 * Issue 31 (D3): a firm user working inside a client business (a token carrying
 * `external_firm_id`) sees whom they act for and the way back: "Acting for Demo business ·
 * Ledger & Co", then "Back to console", which switches the token to the firm's console scope.
 */
export function ActingBar() {
  const client = useDataClient();
  const firmId = useAppState((s) => s.session?.external_firm_id);
  const kept = useAppState((s) => s.session?.choices);
  const clientName = useAppState((s) => s.session?.business.name);
  const answer = useAnswer<ScopeChoicesResult>(() => client.scopeChoices(), [client]);
  const finish = useFinishScopeSwitch();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const firm = firmChoice(answer?.ok ? answer.choices : kept, firmId);

  async function back() {
    if (!firm) return;
    setBusy(true);
    setError(null);
    const result = await client.switchScope(firm.target);
    setBusy(false);
    if (result.ok) await finish(result.session, result.left_behind);
    else setError(errorText(result.error));
  }

  return (
    <div className="acting-bar" role="region" aria-label="Acting for a firm">
      <span>
        Acting for {clientName ?? 'this business'} · {firm?.label ?? 'your firm'}
      </span>
      <Button size="sm" loading={busy} disabled={!firm} onClick={() => void back()}>
        Back to console
      </Button>
      {error && <span role="alert">{error}</span>}
    </div>
  );
}
