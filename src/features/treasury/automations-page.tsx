import { useCallback, useState } from 'react';
import type { TreasuryPolicy } from '../../../workers/api.ts';
import { Button } from '../../components/button.tsx';
import { ConfirmDialog, DeleteDialog } from '../../components/confirm-dialog.tsx';
import { EmptyState } from '../../components/empty-state.tsx';
import { ListStatus } from '../../components/online-list-status.tsx';
import { errorText } from '../../lib/error-text.ts';
import { toastError, toastInfo } from '../../lib/toast-store.ts';
import { useOnlineList } from '../../lib/use-online-list.ts';
import { AutomationDialog } from './automation-dialog.tsx';
import { PolicyCard } from './automations-view.tsx';
import { TreasuryNav } from '../../components/treasury-nav.tsx';
import { policyText, policyTodayText } from './treasury-words.ts';
import { useTreasuryMirror } from './use-treasury.ts';
import './treasury.css';

const OFFLINE_BODY = 'Automations are kept and run on the server, so they cannot be shown or changed while you’re offline. They keep running meanwhile.';

type Dialog = { kind: 'edit'; policy: TreasuryPolicy | null } | { kind: 'delete'; policy: TreasuryPolicy } | { kind: 'run' } | null;

/**
 * Issue 30, /treasury/automations (admins, online): the sweep and top-up policies with their last
 * runs and unacknowledged failures; create, edit and delete (asked first, the rule in words); "Run
 * now" (sweep-status with run, asked first); "Acknowledge failures".
 */
export function TreasuryAutomationsPage() {
  const m = useTreasuryMirror();
  const { list, reload } = useOnlineList(m.online, 'automations', useCallback(async () => {
    const r = await m.client.automationPolicies();
    return r.ok ? { ok: true as const, rows: r.rows } : r;
  }, [m.client]));
  const [dialog, setDialog] = useState<Dialog>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const accounts = m.accounts ?? [];
  const name = (id: string) => accounts.find((a) => a.id === id)?.name ?? 'another account';
  const rows = list.state === 'ready' ? list.rows : [];
  const enabled = rows.filter((p) => p.enabled);

  async function acknowledge(p: TreasuryPolicy) {
    setBusy(p.id);
    try {
      const r = await m.client.acknowledgeFailedRuns([p.id]);
      if (!r.ok) return toastError(`The failures were not acknowledged: ${errorText(r.error)}`);
      toastInfo(r.acknowledged === 1 ? '1 failed run acknowledged.' : `${r.acknowledged} failed runs acknowledged.`);
      reload();
    } finally {
      setBusy(null);
    }
  }

  async function runNow(): Promise<boolean> {
    const r = await m.client.sweepStatus(true);
    if (!r.ok) {
      toastError(`The automations did not run: ${errorText(r.error)}`);
      return false;
    }
    const count = (s: string) => r.status.policies.filter((p) => p.status === s).length;
    toastInfo(`Automations ran: ${count('MOVED')} moved money, ${count('NOTHING_TO_DO')} had nothing to move, ${count('FAILED')} failed.`);
    reload();
    return true;
  }

  return (
    <div className="page treasury">
      <TreasuryNav current="/treasury/automations" />
      <div className="page-header">
        <h1>Automations</h1>
        <span className="spacer" />
        {list.state === 'ready' && (
          <>
            {enabled.length > 0 && <Button onClick={() => setDialog({ kind: 'run' })}>Run now</Button>}
            <Button variant="primary" disabled={accounts.length < 2} onClick={() => setDialog({ kind: 'edit', policy: null })}>New automation</Button>
          </>
        )}
      </div>
      <p className="muted">Keep each account near the balance you want: once a day, sweep what is above a threshold into another account, or top an account up when it falls below one.</p>
      <ListStatus list={list} what="Automations" offlineBody={OFFLINE_BODY} online={m.online} onRetry={reload} />
      {list.state === 'ready' && rows.length === 0 && (
        <EmptyState title="No automations yet" action={accounts.length >= 2 ? <Button variant="primary" onClick={() => setDialog({ kind: 'edit', policy: null })}>New automation</Button> : undefined}>
          <p>{accounts.length >= 2 ? 'Set a sweep or a top-up between two of your wallet accounts.' : 'An automation moves money between two wallet accounts: you need at least two.'}</p>
        </EmptyState>
      )}
      {rows.length > 0 && (
        <ul className="tr-policies" aria-label="Automations" aria-busy={list.state === 'ready' && list.refreshing ? true : undefined}>
          {rows.map((p) => (
            <PolicyCard key={p.id} policy={p} name={name} busy={busy === p.id}
              onEdit={() => setDialog({ kind: 'edit', policy: p })} onDelete={() => setDialog({ kind: 'delete', policy: p })} onAcknowledge={() => void acknowledge(p)} />
          ))}
        </ul>
      )}
      {dialog?.kind === 'edit' && <AutomationDialog client={m.client} accounts={accounts} policy={dialog.policy} onClose={() => setDialog(null)} onSaved={reload} />}
      {dialog?.kind === 'delete' && (
        <DeleteDialog
          title="Delete this automation?"
          description={`${policyText(dialog.policy, name)}. Deleted, it no longer runs; transfers it made stay.`}
          confirmLabel="Delete automation"
          onClose={() => setDialog(null)}
          onDelete={async () => {
            const r = await m.client.deleteAutomationPolicy(dialog.policy.id);
            if (!r.ok) return r.error;
            toastInfo('Automation deleted.');
            reload();
            return null;
          }}
        />
      )}
      {dialog?.kind === 'run' && (
        <ConfirmDialog title="Run the automations now?" description="Each automation that is on and has not run today runs once now, as the daily sweep would; one that already ran today does not run again."
          confirmLabel="Run now" onClose={() => setDialog(null)} onConfirm={runNow}>
          <ul className="tr-run-list">
            {enabled.map((p) => {
              const balance = accounts.find((a) => a.id === p.account_id)?.balance;
              return <li key={p.id}>{policyText(p, name)}. {policyTodayText(p, balance) ?? ''}</li>;
            })}
          </ul>
        </ConfirmDialog>
      )}
    </div>
  );
}
