import { useState } from 'react';
import type { simulateApprovalPolicy } from '../../../schema/api/calls-approval-policies.ts';
import type { CallResponse } from '../../../schema/api/define-call.ts';
import { toMinorUnits } from '../../../schema/money.ts';
import { Button } from '../../components/button.tsx';
import { FormError } from '../../components/form-error.tsx';
import { MoneyField } from '../../components/money-field.tsx';
import type { SelectOption } from '../../components/select-field.tsx';
import { useDataClient } from '../../data-access/data-context.tsx';
import { errorText } from '../../lib/error-text.ts';
import { joinList } from '../../lib/format.ts';
import type { EditedPolicyType, PolicyTypeWords } from './policy-types.ts';

type Simulation = CallResponse<typeof simulateApprovalPolicy>;

/**
 * Issue 29: "who would approve this?" for the saved policy of the page's type: a requester and an
 * amount, then each step applied or skipped with its reason, the people it resolves to (a named
 * group's name), and the delegates who may decide for them today. The server's simulation is the
 * same resolution a real submission runs, so what it shows is what the item will get.
 */
export function SimulationPanel(props: { objectType: EditedPolicyType; words: PolicyTypeWords; currency: string; currencies: string[]; online: boolean;
  userOptions: readonly SelectOption[] }) {
  const { words, online, userOptions } = props;
  const client = useDataClient();
  const [requester, setRequester] = useState('');
  const [amount, setAmount] = useState('');
  const [currency, setCurrency] = useState(props.currency);
  const [result, setResult] = useState<Simulation | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const run = async () => {
    const minor = toMinorUnits(amount || '0', currency);
    if (!requester) return setError('Choose who submits it.');
    if (minor === null || minor < 0) return setError(`Enter an amount in ${currency}, like 250.00.`);
    setBusy(true);
    setError(null);
    try {
      const r = await client.simulateApprovalPolicy(props.objectType, { requester_id: requester, amount: minor, currency });
      if (r.ok) setResult(r.simulation);
      else setError(errorText(r.error));
    } finally {
      setBusy(false);
    }
  };
  const name = (id: string) => userOptions.find((o) => o.value === id)?.label ?? 'someone';
  return (
    <section className="policy-simulation" aria-labelledby="policy-sim-title">
      <h2 id="policy-sim-title">Try the saved policy</h2>
      <p className="muted">Who would approve a {words.item} like this one, step by step, as it stands now.</p>
      <form className="policy-sim-form" onSubmit={(e) => { e.preventDefault(); void run(); }}>
        <label className="field">
          <span className="field-label">Submitted by</span>
          <select value={requester} onChange={(e) => setRequester(e.target.value)}>
            <option value="">Choose a person…</option>
            {userOptions.map((o) => <option key={o.value} value={o.value}>{o.label}</option>)}
          </select>
        </label>
        <MoneyField amountLabel="Amount" amount={amount} currency={currency} currencies={props.currencies} onAmount={setAmount} onCurrency={setCurrency} />
        <Button type="submit" variant="ghost" loading={busy} disabled={!online}>{online ? 'Simulate' : 'Simulate (needs a connection)'}</Button>
      </form>
      <FormError message={error} />
      {result && (
        <ol className="policy-sim-steps" aria-label="Simulated chain">
          {result.steps.map((s, i) => (
            <li key={s.step_id} className={s.applies ? 'policy-sim-step' : 'policy-sim-step is-skipped'}>
              <strong>{s.applies ? `Step ${i + 1} applies` : `Step ${i + 1} skipped`}</strong>
              <span className="muted"> — {s.reason}</span>
              {s.applies && (
                <div>
                  {s.group_name ? `${s.group_name}: ` : ''}
                  {s.mode === 'all' ? 'all of ' : s.resolved_approvers.length > 1 ? 'any one of ' : ''}
                  {joinList(s.resolved_approvers.map((a) => a.name || 'someone'))}
                </div>
              )}
              {(s.delegates ?? []).map((d) => (
                <div key={`${d.user_id}-${d.for_user_id}`} className="muted">{d.name} may decide for {name(d.for_user_id)} (delegation)</div>
              ))}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
