import { useCallback, useEffect, useState } from 'react';
import type { Delegation } from '../../../schema/api/calls-copilot.ts';
import { Button } from '../../components/button.tsx';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { DateField } from '../../components/date-field.tsx';
import { FormError } from '../../components/form-error.tsx';
import { Section, SettingRow } from '../../components/section.tsx';
import { useAppState, useDataClient } from '../../data-access/data-context.tsx';
import { errorText } from '../../lib/error-text.ts';
import { formatDay } from '../../lib/format.ts';
import { useReferenceData } from '../../lib/reference-data.ts';
import { useAnswer } from '../../lib/use-answer.ts';
import { delegateFlagRefusal } from '../../../schema/team-rules.ts';
import { readFlag } from '../../../schema/feature-flags.ts';
import { toastInfo } from '../../lib/toast-store.ts';

const today = () => new Date().toISOString().slice(0, 10);
const period = (d: Delegation) => `${formatDay(d.starts_on)} – ${formatDay(d.ends_on)}`;

/**
 * Issue 29, Settings → "Out of office": let someone with the Copilot permission decide my
 * approvals until a day (PUT /v1/auth/copilot, asked first, saying what it does), end it, and see
 * whom I decide for (and step down). Delegations live on the server: online only, said plainly.
 */
export function DelegationSection() {
  const client = useDataClient();
  const online = useAppState((s) => s.online && (s.status?.online ?? true));
  const me = useAppState((s) => s.session?.user.id ?? '');
  const referenceVersion = useAppState((s) => s.referenceVersion);
  const reference = useReferenceData(client, referenceVersion);
  const [state, setState] = useState<{ given: Delegation[]; received: Delegation[] } | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [delegate, setDelegate] = useState('');
  const [from, setFrom] = useState(today());
  const [until, setUntil] = useState('');
  const [formError, setFormError] = useState<string | null>(null);
  /** What the confirmation asks about, fixed when it opens (the form clears once it is done). */
  const [asking, setAsking] = useState<{ id: string; name: string; from: string; until: string } | null>(null);
  const [ending, setEnding] = useState<{ userId: string; text: string } | null>(null);

  const answer = useCallback((r: Awaited<ReturnType<typeof client.delegations>>) => {
    if (r.ok) setState({ given: r.given, received: r.received });
    else setFailure(errorText(r.error));
  }, [client]);
  const reload = useCallback(async () => answer(await client.delegations()), [client, answer]);
  useEffect(() => {
    if (!online) return;
    let live = true;
    void client.delegations().then((r) => {
      if (live) answer(r);
    });
    return () => {
      live = false;
    };
  }, [client, online, answer]);

  // §3 it_admin_can_be_assistant: the server's own rule (delegateFlagRefusal) decides whom to offer.
  const flags = useAnswer(() => client.flags(), [client]);
  const roleOf = new Map(reference.data.users.map((u) => [u.id, u.role]));
  const people = reference.options.users.filter((o) => o.value !== me
    && delegateFlagRefusal({ role: roleOf.get(o.value) ?? '' }, { it_admin_can_be_assistant: readFlag(flags, 'it_admin_can_be_assistant') }) === null);
  const delegateName = people.find((o) => o.value === delegate)?.label ?? '';
  const given = state?.given[0];
  const ask = () => {
    setFormError(null);
    if (!delegate) return setFormError('Choose who decides your approvals.');
    if (!until) return setFormError('Choose the last day they decide for you.');
    if (until < from) return setFormError('The last day must be on or after the first.');
    setAsking({ id: delegate, name: delegateName, from, until });
  };

  return (
    <Section title="Out of office" description="Let someone with Copilot access decide your approvals while you are away. Their decisions are recorded as made for you.">
      {!online && state === null && <p className="muted" role="status">You&rsquo;re offline. Delegations are kept on the server: connect to see or change them.</p>}
      {online && state === null && !failure && <p className="muted" role="status">Loading…</p>}
      {failure && <p className="field-error" role="alert">{failure}</p>}
      {given && (
        <SettingRow title={`${given.delegate_name} decides your approvals`} description={`${period(given)}${given.active ? ' · active now' : ' · not started yet'}`}>
          <Button variant="ghost" disabled={!online} onClick={() => setEnding({ userId: given.delegate_id, text: `${given.delegate_name} will no longer see or decide your approvals.` })}>
            End delegation…
          </Button>
        </SettingRow>
      )}
      {state?.received.map((d) => (
        <SettingRow key={d.id} title={`You decide approvals for ${d.delegator_name}`} description={`${period(d)}${d.active ? ' · active now' : ' · not started yet'}`}>
          <Button variant="ghost" disabled={!online} onClick={() => setEnding({ userId: d.delegator_id, text: `You will no longer see or decide ${d.delegator_name}’s approvals.` })}>
            Step down…
          </Button>
        </SettingRow>
      ))}
      {state && (
        <form className="delegation-form" onSubmit={(e) => { e.preventDefault(); ask(); }}>
          <label className="field">
            <span className="field-label">{given ? 'Hand over to someone else' : 'Let this person decide my approvals'}</span>
            <select value={delegate} onChange={(e) => setDelegate(e.target.value)}>
              <option value="">Choose a person…</option>
              {people.map((o) => <option key={o.value} value={o.value}>{o.label}</option>)}
            </select>
          </label>
          <div className="delegation-dates">
            <DateField label="From" value={from} min={today()} onChange={setFrom} />
            <DateField label="Until (inclusive)" value={until} min={from || today()} onChange={setUntil} />
          </div>
          <FormError message={formError} />
          <Button type="submit" variant="primary" disabled={!online}>{online ? 'Delegate my approvals…' : 'Delegate (needs a connection)'}</Button>
        </form>
      )}
      {asking && (
        <ConfirmDialog title={`Let ${asking.name} decide your approvals until ${formatDay(asking.until)}?`} confirmLabel="Delegate" onClose={() => setAsking(null)}
          description={`From ${formatDay(asking.from)}, ${asking.name} sees the approvals waiting for you and may approve or reject them, recorded as “by ${asking.name} for you”.${given ? ` This replaces your delegation to ${given.delegate_name}.` : ''} They need the Copilot permission.`}
          onConfirm={async () => {
            const r = await client.delegate({ delegate_id: asking.id, starts_on: asking.from, ends_on: asking.until });
            if (!r.ok) {
              setAsking(null);
              setFormError(errorText(r.error));
              return false;
            }
            toastInfo(`${asking.name} decides your approvals until ${formatDay(asking.until)}.`);
            setDelegate('');
            setUntil('');
            await reload();
            return true;
          }} />
      )}
      {ending && (
        <ConfirmDialog title="End this delegation?" confirmLabel="End delegation" tone="danger" onClose={() => setEnding(null)} description={ending.text}
          onConfirm={async () => {
            const r = await client.endDelegation(ending.userId);
            if (!r.ok) {
              setFormError(errorText(r.error));
              return true;
            }
            await reload();
            return true;
          }} />
      )}
    </Section>
  );
}
