import { useCallback, useEffect, useState } from 'react';
import { isAdmin } from '../../../schema/roles.ts';
import type { FlexInstallment, FlexRecord, FlexSettings } from '../../../workers/api.ts';
import { Button } from '../../components/button.tsx';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { EmptyState } from '../../components/empty-state.tsx';
import { FormError } from '../../components/form-error.tsx';
import { Section } from '../../components/section.tsx';
import { StatusPill } from '../../components/status-pill.tsx';
import { useAppState } from '../../data-access/data-context.tsx';
import type { DataClient } from '../../data-access/types.ts';
import { errorText } from '../../lib/error-text.ts';
import { flexRefusalText, INSTALLMENT_LABELS, INSTALLMENT_TONES } from '../../lib/flex-words.ts';
import { formatDay, formatLocalDateTime, formatMoney } from '../../lib/format.ts';
import { toastInfo } from '../../lib/toast-store.ts';
import { collectionReads } from '../../lib/list/collection-reads.ts';
import { useReferenceAnswer } from '../../lib/reference-data.ts';
import { useOnlineList } from '../../lib/use-online-list.ts';
import { useRead } from '../../lib/use-read.ts';
import { usePageData } from '../../lib/use-page-data.ts';
import './banking.css';
import { TreasuryNav } from '../../components/treasury-nav.tsx';

type SettingsState = { state: 'loading' } | { state: 'offline' } | { state: 'error'; message: string } | { state: 'ready'; settings: FlexSettings };

function useFlexSettings(client: DataClient, online: boolean) {
  const [turn, setTurn] = useState(0);
  const [state, setState] = useState<SettingsState>({ state: 'loading' });
  useEffect(() => {
    if (!online) return;
    let live = true;
    void client.flexSettings().then((r) => {
      if (!live) return;
      if (r.ok) setState({ state: 'ready', settings: r.settings });
      else setState('offline' in r && r.offline ? { state: 'offline' } : { state: 'error', message: errorText(r.error) });
    }, () => undefined);
    return () => {
      live = false;
    };
  }, [client, online, turn]);
  return { state: online ? state : ({ state: 'offline' } as const), set: (settings: FlexSettings) => setState({ state: 'ready', settings }), reload: () => setTurn((n) => n + 1) };
}

/**
 * Issue 30, /treasury/flex (admins and AP clerks, §6 "view financing details"): onboarding (the
 * terms, accepted by an admin), the line (limit, used, available), whether AP clerks may use flex
 * (admins only), and every flex record with its installment schedule (paid, scheduled, failed;
 * a failed one retried after asking). Online only: the page says so offline.
 */
export function FlexPage() {
  const { client, user } = usePageData();
  const online = useAppState((s) => s.online);
  const settings = useFlexSettings(client, online);
  const admin = user ? isAdmin(user) : false;
  return (
    <div className="page bank-page">
      <TreasuryNav current="/treasury/flex" />
      <div className="page-header">
        <h1>Flex</h1>
      </div>
      <p className="muted">Pay a vendor now and repay the bill in installments over 30, 60 or 90 days, from a bill’s drawer (“Pay with flex”).</p>
      {settings.state.state === 'offline' && <EmptyState title="Connect to see flex">Flex lines, offers and installments are kept on the server, so nothing of them shows offline.</EmptyState>}
      {settings.state.state === 'loading' && <p className="muted" role="status">Loading flex…</p>}
      {settings.state.state === 'error' && <FormError message={settings.state.message} />}
      {settings.state.state === 'ready' && (
        <FlexView client={client} admin={admin} online={online} settings={settings.state.settings} onSettings={settings.set} />
      )}
    </div>
  );
}

export interface FlexViewProps {
  client: DataClient;
  admin: boolean;
  online: boolean;
  settings: FlexSettings;
  onSettings(s: FlexSettings): void;
}

export function FlexView({ client, admin, online, settings, onSettings }: FlexViewProps) {
  if (settings.status === 'NOT_ONBOARDED') return <FlexOnboarding client={client} admin={admin} onDone={onSettings} />;
  return (
    <>
      <Section title="Your flex line">
        <dl className="flex-line">
          <div><dt>Limit</dt><dd>{formatMoney(settings.limit.amount, settings.limit.currency)}</dd></div>
          <div><dt>Used</dt><dd>{formatMoney(settings.used.amount, settings.used.currency)}</dd></div>
          <div><dt>Available</dt><dd>{formatMoney(settings.available.amount, settings.available.currency)}</dd></div>
        </dl>
        {settings.onboarded_at && <p className="muted">Set up {formatLocalDateTime(settings.onboarded_at)}.</p>}
      </Section>
      {admin && <FlexSettingsSection client={client} settings={settings} onSettings={onSettings} />}
      <Section title="Flex records">
        <FlexRecords client={client} online={online} />
      </Section>
    </>
  );
}

const TERMS = [
  'Each bill paid with flex is paid to the vendor at once from the flex line.',
  'You repay it in equal installments over the term you choose: 30, 60 or 90 days. The fee for each term is shown before you accept.',
  'Installments are collected from your primary operating account on their due dates. One that fails for lack of funds can be retried.',
  'The line’s limit is what can be outstanding at once; repaid installments make room again.',
];

function FlexOnboarding({ client, admin, onDone }: { client: DataClient; admin: boolean; onDone(s: FlexSettings): void }) {
  const [accepted, setAccepted] = useState(false);
  const [clerks, setClerks] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  async function onboard() {
    setBusy(true);
    setError(null);
    const r = await client.onboardFlex(clerks);
    setBusy(false);
    if (!r.ok) return setError(flexRefusalText(r.error));
    toastInfo(`Flex is set up: a line of ${formatMoney(r.settings.limit.amount, r.settings.limit.currency)}.`);
    onDone(r.settings);
  }
  return (
    <Section title="Set up flex">
      <ol className="flex-terms-list">
        {TERMS.map((t) => <li key={t}>{t}</li>)}
      </ol>
      {admin ? (
        <form className="stack" onSubmit={(e) => {
          e.preventDefault();
          void onboard();
        }}>
          <label className="check">
            <input type="checkbox" checked={accepted} onChange={(e) => setAccepted(e.target.checked)} />
            <span>I accept the flex terms for this business</span>
          </label>
          <label className="check">
            <input type="checkbox" checked={clerks} onChange={(e) => setClerks(e.target.checked)} />
            <span>AP clerks may pay bills with flex</span>
          </label>
          <FormError message={error} />
          <div>
            <Button type="submit" variant="primary" loading={busy} disabled={!accepted}>Set up flex</Button>
          </div>
        </form>
      ) : (
        <p className="muted">An admin can set up flex for this business.</p>
      )}
    </Section>
  );
}

function FlexSettingsSection({ client, settings, onSettings }: { client: DataClient; settings: FlexSettings; onSettings(s: FlexSettings): void }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  async function toggle(next: boolean) {
    setBusy(true);
    setError(null);
    const r = await client.saveFlexSettings(next);
    setBusy(false);
    if (!r.ok) return setError(errorText(r.error));
    onSettings(r.settings);
    toastInfo(next ? 'AP clerks may now pay bills with flex.' : 'Only admins may pay bills with flex now.');
  }
  return (
    <Section title="Who may use flex">
      <label className="check">
        <input type="checkbox" checked={settings.ap_clerks_can_flex} disabled={busy} onChange={(e) => void toggle(e.target.checked)} />
        <span>AP clerks may pay bills with flex</span>
      </label>
      <p className="muted">Admins always may. Saved as soon as you change it.</p>
      <FormError message={error} />
    </Section>
  );
}

/** "Vendor · invoice number" of each record's bill this device holds (the mirror's bills and vendors), by bill id. */
function useBillNames(client: DataClient, records: readonly FlexRecord[]): Readonly<Record<string, string>> {
  const dataVersion = useAppState((s) => s.dataVersion);
  const reference = useReferenceAnswer(client, useAppState((s) => s.referenceVersion));
  const ids = [...new Set(records.map((r) => r.bill_id))].sort();
  const bills = useRead(`flex-bills:${ids.join(',')}`, dataVersion, () => Promise.all(ids.map((id) => collectionReads(client).get('bills', id))), 'The bills paid with flex');
  const names: Record<string, string> = {};
  for (const bill of bills ?? []) {
    if (!bill) continue;
    const vendor = reference?.vendors.find((v) => v.id === bill.vendor_id)?.name;
    names[bill.id] = vendor ? `${vendor} · ${bill.invoice_number}` : `Bill ${bill.invoice_number}`;
  }
  return names;
}

function FlexRecords({ client, online }: { client: DataClient; online: boolean }) {
  const { list, reload } = useOnlineList(online, 'flex-records', useCallback(async () => {
    const r = await client.flexRecords();
    return r.ok ? { ok: true as const, rows: r.records } : r;
  }, [client]));
  const billNames = useBillNames(client, list.state === 'ready' ? list.rows : []);
  // One key per "Retry" asked: a lost answer retried from the same dialog is the same collection.
  const [retrying, setRetrying] = useState<{ installment: FlexInstallment; key: string } | null>(null);
  if (list.state === 'offline') return <p className="muted">Connect to see flex records.</p>;
  if (list.state === 'loading') return <p className="muted" role="status">Loading flex records…</p>;
  if (list.state === 'error') return <FormError message={list.message} />;
  return (
    <>
      <FlexRecordList records={list.rows} billNames={billNames} onRetry={(_record, installment) => setRetrying({ installment, key: crypto.randomUUID() })} />
      {retrying && (
        <RetryDialog client={client} installment={retrying.installment} idempotencyKey={retrying.key} onClose={() => setRetrying(null)} onDone={() => {
          setRetrying(null);
          reload();
        }} />
      )}
    </>
  );
}

export interface FlexRecordListProps {
  records: readonly FlexRecord[];
  /** "Vendor · invoice" by bill id, for the bills this device holds; a bill not among them is not named. */
  billNames?: Readonly<Record<string, string>>;
  onRetry(r: FlexRecord, i: FlexInstallment): void;
}

export function FlexRecordList({ records, billNames = {}, onRetry }: FlexRecordListProps) {
  if (records.length === 0) return <p className="muted">No bills paid with flex yet.</p>;
  return (
    <ul className="flex-records">
      {records.map((r) => (
        <li key={r.id} className="flex-record">
          <div className="flex-record-head">
            <h3 className="flex-record-title">{formatMoney(r.amount.amount, r.amount.currency)} over {r.term_days} days</h3>
            <StatusPill tone={r.status === 'REPAID' ? 'ok' : 'info'}>{r.status === 'REPAID' ? 'Repaid' : 'Active'}</StatusPill>
          </div>
          <p className="muted flex-record-meta">
            {billNames[r.bill_id] ? `${billNames[r.bill_id]} · ` : ''}Fee {formatMoney(r.fee.amount, r.fee.currency)} · paid {formatLocalDateTime(r.created_at)}
          </p>
          <ol className="flex-installments" aria-label={`Installments of the ${formatMoney(r.amount.amount, r.amount.currency)} flex record`}>
            {r.installments.map((i, n) => (
              <li key={i.id} className="flex-installment">
                <span className="flex-installment-when">#{n + 1} · {formatDay(i.due_date)}</span>
                <span className="flex-installment-amount">{formatMoney(i.amount.amount, i.amount.currency)}</span>
                <StatusPill tone={INSTALLMENT_TONES[i.status]} {...(i.failure_reason ? { title: i.failure_reason } : {})}>{INSTALLMENT_LABELS[i.status]}</StatusPill>
                {i.status === 'FAILED' && (
                  <>
                    {i.failure_reason && <span className="flex-installment-why">{i.failure_reason}</span>}
                    <Button size="sm" variant="primary" onClick={() => onRetry(r, i)}>
                      Retry<span className="sr-only"> installment {n + 1}</span>
                    </Button>
                  </>
                )}
              </li>
            ))}
          </ol>
        </li>
      ))}
    </ul>
  );
}

function RetryDialog({ client, installment, idempotencyKey, onClose, onDone }: { client: DataClient; installment: FlexInstallment; idempotencyKey: string; onClose(): void; onDone(): void }) {
  const [error, setError] = useState<string | null>(null);
  const amount = formatMoney(installment.amount.amount, installment.amount.currency);
  return (
    <ConfirmDialog
      title={`Collect ${amount} now?`}
      description={`The installment due ${formatDay(installment.due_date)} is collected from your primary operating account today. Make sure it holds ${amount}.`}
      confirmLabel={`Collect ${amount}`}
      onClose={onClose}
      onConfirm={async () => {
        setError(null);
        const r = await client.retryFlexInstallment(installment.id, idempotencyKey);
        if (!r.ok) {
          setError(flexRefusalText(r.error));
          return false;
        }
        toastInfo(r.installment.status === 'PAID' ? `${amount} collected.` : `The installment is ${INSTALLMENT_LABELS[r.installment.status].toLowerCase()}.`);
        onDone();
        return false;
      }}
    >
      <FormError message={error} />
    </ConfirmDialog>
  );
}
