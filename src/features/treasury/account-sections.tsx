import { useEffect, useState, type FormEvent } from 'react';
import type { TreasuryAccountAction, TreasuryInvestment, TreasurySettings } from '../../../workers/api.ts';
import { currencyExponent, toMinorUnits } from '../../../schema/money.ts';
import { Button } from '../../components/button.tsx';
import { FormError } from '../../components/form-error.tsx';
import { Pager } from '../../components/pager.tsx';
import { Section } from '../../components/section.tsx';
import { Skeleton } from '../../components/skeleton.tsx';
import { TextField } from '../../components/text-field.tsx';
import type { DataClient } from '../../data-access/types.ts';
import { errorText } from '../../lib/error-text.ts';
import { formatDay, formatLocalDateTime, formatMoney } from '../../lib/format.ts';
import { toastInfo } from '../../lib/toast-store.ts';
import { usePagedQuery } from '../../lib/use-paged-query.ts';
import { lastInvestments, lastSettings, rememberInvestments, rememberSettings } from './treasury-cache.ts';
import { actionText, rateText } from './treasury-words.ts';
import type { WalletRow } from './use-treasury.ts';

/** The investment account's yield figures (GET treasury.investments.list online; offline as of the last read). */
export function InvestmentSection({ client, online, mirrorRows }: { client: DataClient; online: boolean; mirrorRows: readonly WalletRow[] }) {
  const [read, setRead] = useState(lastInvestments);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (!online) return;
    let live = true;
    void client.investmentAccounts().then((r) => {
      if (!live) return;
      if (r.ok) {
        rememberInvestments(r.accounts);
        setRead(lastInvestments());
        setError(null);
      } else if (!('offline' in r && r.offline)) setError(errorText(r.error));
    }, () => undefined);
    return () => {
      live = false;
    };
  }, [client, online]);
  const hasInvestment = mirrorRows.some((a) => a.kind === 'INVESTMENT') || (read?.accounts.length ?? 0) > 0;
  if (!hasInvestment) return null;
  return (
    <Section title="Investment" description="Idle money earning a yield, accrued once a day.">
      {!online && (
        <p className="notice" role="status">
          {read ? `You’re offline: the yield figures are as of the last read, ${formatLocalDateTime(read.at)}.` : 'You’re offline: the yield figures load when you’re back online. The balance above is from this device’s copy.'}
        </p>
      )}
      <FormError message={error} />
      {online && !read && !error && <Skeleton height={64} />}
      {read?.accounts.map((a) => <InvestmentFigures key={a.uuid} account={a} />)}
    </Section>
  );
}

/** One investment account's figures, each with its currency. */
export function InvestmentFigures({ account: a }: { account: TreasuryInvestment }) {
  const money = (m: { amount: number; currency: string }) => `${formatMoney(m.amount, m.currency)} ${m.currency}`;
  return (
    <dl className="tr-facts" aria-label={`${a.name} yield`}>
      <div><dt>Yield rate</dt><dd>{rateText(a.yield_rate_bps)} a year</dd></div>
      <div><dt>Balance</dt><dd>{money(a.balance)}</dd></div>
      <div><dt>Accrued this month</dt><dd>{money(a.accrued_this_month)}</dd></div>
      <div><dt>Accrued in total</dt><dd>{money(a.accrued_total)}</dd></div>
      <div><dt>Last accrual</dt><dd>{a.last_accrual_date ? formatDay(a.last_accrual_date) : 'None yet'}</dd></div>
    </dl>
  );
}

/** The worker's page of account activity (handlers/treasury.ts ACTIONS_PAGE_SIZE). */
const TREASURY_ACTIONS_PAGE_SIZE = 25;

/**
 * The selected account's activity (`/actions`), newest first, a page at a time (`usePagedQuery`,
 * Previous/Next); online only (keyed by the account: a new one starts at its first page).
 */
export function ActivitySection({ client, online, account }: { client: DataClient; online: boolean; account: WalletRow }) {
  const paged = usePagedQuery<TreasuryAccountAction>({
    search: { account: account.id },
    pageSize: TREASURY_ACTIONS_PAGE_SIZE,
    online,
    load: ({ account: id, start }) => client.treasuryAccountActions(id ?? account.id, start),
  });
  const activity = paged.list;
  return (
    <Section title={`Activity: ${account.name}`} description="Every entry that moved this account’s balance, newest first.">
      {activity.state === 'offline' ? (
        <p className="notice" role="status">Activity loads when you’re back online. Balances and history above are from this device’s copy.</p>
      ) : activity.state === 'loading' ? (
        <div aria-busy="true"><span className="sr-only">Loading activity…</span><Skeleton height={120} /></div>
      ) : activity.state === 'error' ? (
        <div className="notice notice-error" role="alert">
          <span>The activity could not be read: {activity.message}</span>
          <span><Button size="sm" onClick={paged.reload}>Try again</Button></span>
        </div>
      ) : (
        <ActivityTable rows={activity.rows} currency={account.currency} later={paged.pageIndex > 0} />
      )}
      <Pager paged={paged} what="Account activity" disabled={!online} />
    </Section>
  );
}

/** One page of activity; `later`: not the first page (an empty one is not "no activity yet"). */
export function ActivityTable({ rows, currency, later = false }: { rows: TreasuryAccountAction[]; currency: string; later?: boolean }) {
  if (rows.length === 0) return <p className="muted">{later ? 'No more activity on this page. Go back with Previous.' : 'No activity yet.'}</p>;
  return (
    <div className="tr-table-wrap" role="region" aria-label="Account activity" tabIndex={0}>
      <table className="tr-table">
        <caption className="sr-only">Account activity, amounts in {currency}</caption>
        <thead>
          <tr><th scope="col">Date</th><th scope="col">What</th><th scope="col" className="num">Amount ({currency})</th><th scope="col" className="num">Balance after ({currency})</th></tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.entry_id}>
              <td>{formatDay(r.effective_date)}</td>
              <th scope="row">{actionText(r)}</th>
              <td className="num">{formatMoney(r.amount.amount, r.amount.currency)}</td>
              <td className="num">{formatMoney(r.balance_after.amount, r.balance_after.currency)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export interface SettingsFormValues {
  rate: string;
  fee: string;
  days: string;
}

/** Form text → the PATCH body of what changed, or the field's problem (rate 0–20 %, fee 0–1,000.00, days 0–5). */
export function settingsPatch(v: SettingsFormValues, saved: TreasurySettings, currency: string):
  { ok: true; patch: Partial<TreasurySettings> } | { ok: false; errors: Partial<Record<keyof SettingsFormValues, string>> } {
  const errors: Partial<Record<keyof SettingsFormValues, string>> = {};
  const rate = Number(v.rate.trim().replace(/\s*%$/, ''));
  const bps = Math.round(rate * 100);
  if (v.rate.trim() === '' || !Number.isFinite(rate) || rate < 0 || rate > 20 || Math.abs(rate * 100 - bps) > 1e-6) errors.rate = 'Enter a yearly rate from 0 to 20 %, with at most two decimals.';
  const fee = toMinorUnits(v.fee.trim().replace(/,/g, ''), currency);
  if (fee === null || fee < 0 || fee > 100_000) errors.fee = `Enter a fee from 0 to ${formatMoney(100_000, currency)}.`;
  const days = Number(v.days.trim());
  if (!Number.isInteger(days) || days < 0 || days > 5 || v.days.trim() === '') errors.days = 'Enter 0 to 5 business days.';
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  const patch: Partial<TreasurySettings> = {};
  if (bps !== saved.yield_rate_bps) patch.yield_rate_bps = bps;
  if (fee !== saved.external_transfer_fee) patch.external_transfer_fee = fee!;
  if (days !== saved.external_settlement_days) patch.external_settlement_days = days;
  return { ok: true, patch };
}

export const settingsValues = (s: TreasurySettings, currency: string): SettingsFormValues => ({
  rate: (s.yield_rate_bps / 100).toFixed(2),
  fee: (s.external_transfer_fee / 10 ** currencyExponent(currency)).toFixed(currencyExponent(currency)),
  days: String(s.external_settlement_days),
});

/** Wallet settings (yield rate, external transfer fee, settlement days): admins, online. */
export function WalletSettingsSection({ client, online, currency }: { client: DataClient; online: boolean; currency: string }) {
  const [saved, setSaved] = useState<TreasurySettings | null>(() => lastSettings()?.values ?? null);
  const [values, setValues] = useState<SettingsFormValues | null>(() => (saved ? settingsValues(saved, currency) : null));
  const [errors, setErrors] = useState<Partial<Record<keyof SettingsFormValues, string>>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (!online) return;
    let live = true;
    void client.walletSettings().then((r) => {
      if (!live) return;
      if (r.ok) {
        rememberSettings(r.settings);
        setSaved(r.settings);
        setValues(settingsValues(r.settings, currency));
      } else if (!('offline' in r && r.offline)) setFailure(errorText(r.error));
    }, () => undefined);
    return () => {
      live = false;
    };
  }, [client, online, currency]);

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!values || !saved) return;
    const checked = settingsPatch(values, saved, currency);
    if (!checked.ok) return setErrors(checked.errors);
    setErrors({});
    if (Object.keys(checked.patch).length === 0) return toastInfo('Nothing changed.');
    setBusy(true);
    try {
      const r = await client.saveWalletSettings(checked.patch);
      if (!r.ok) return setFailure(errorText(r.error));
      setFailure(null);
      rememberSettings(r.settings);
      setSaved(r.settings);
      setValues(settingsValues(r.settings, currency));
      toastInfo('Wallet settings saved.');
    } finally {
      setBusy(false);
    }
  }

  const set = (k: keyof SettingsFormValues) => (v: string) => setValues((old) => (old ? { ...old, [k]: v } : old));
  return (
    <Section title="Wallet settings" description="The investment account’s yield, and what a transfer to a linked bank account costs and takes. Transfers between wallet accounts are free and settle the same business day.">
      {!online && <p className="notice" role="status">You’re offline. Wallet settings need a connection{saved ? ': shown as last read' : ''}.</p>}
      <FormError message={failure} />
      {values ? (
        <form className="tr-settings" onSubmit={(e) => void submit(e)} noValidate>
          <TextField label="Yield rate (% a year)" value={values.rate} onChange={set('rate')} error={errors.rate} disabled={!online} />
          <TextField label={`External transfer fee (${currency})`} value={values.fee} onChange={set('fee')} error={errors.fee} disabled={!online} />
          <TextField label="External settlement (business days)" value={values.days} onChange={set('days')} error={errors.days} disabled={!online} />
          <div><Button type="submit" variant="primary" loading={busy} disabled={!online}>Save settings</Button></div>
        </form>
      ) : online ? (
        <div aria-busy="true"><span className="sr-only">Loading wallet settings…</span><Skeleton height={96} /></div>
      ) : null}
    </Section>
  );
}
