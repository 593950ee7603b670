import { useState } from 'react';
import { usePageData } from '../../lib/use-page-data.ts';
import { formatLocalDateTime } from '../../lib/format.ts';
import { AccountsView } from './accounts-view.tsx';
import { ActivitySection, InvestmentSection, WalletSettingsSection } from './account-sections.tsx';
import { BalanceChart } from './balance-chart.tsx';
import { CardAutopaySection } from './card-autopay-section.tsx';
import { TreasuryNav } from '../../components/treasury-nav.tsx';
import { readAtText, sortAccounts } from './treasury-words.ts';
import { useTreasuryMirror } from './use-treasury.ts';
import { Section } from '../../components/section.tsx';
import './treasury.css';

/**
 * Issue 30, /treasury (admins): the wallet accounts from the mirror with their balances and
 * pending amounts (offline too, marked with the time they were read), the selected account's
 * balance over time (uPlot, with a table) and activity (online), the investment account's yield,
 * card autopay (the unpaid card balance and its threshold) and the wallet settings.
 */
export function TreasuryAccountsPage() {
  const { currency } = usePageData();
  const m = useTreasuryMirror();
  const [selected, setSelected] = useState<string | null>(null);
  const rows = m.accounts ? sortAccounts(m.accounts) : [];
  const current = rows.find((a) => a.id === selected) ?? rows[0] ?? null;
  const readAt = readAtText(m.online, m.lastSyncedAt, formatLocalDateTime);
  return (
    <div className="page treasury">
      <TreasuryNav current="/treasury" />
      <div className="page-header">
        <h1>Treasury</h1>
        <span className="spacer" />
        {readAt && <p className="tr-stale" role="status">{readAt}</p>}
      </div>
      <AccountsView accounts={m.accounts} downloading={m.downloading} selectedId={current?.id ?? null} onSelect={setSelected} />
      {current && (
        <Section title={`Balance over time: ${current.name}`} description="Closing balance per day with activity, over the 90 days up to the latest one.">
          <BalanceChart name={current.name} currency={current.currency} history={current.history} />
        </Section>
      )}
      {current && <ActivitySection key={current.id} client={m.client} online={m.online} account={current} />}
      <InvestmentSection client={m.client} online={m.online} mirrorRows={rows} />
      <CardAutopaySection client={m.client} online={m.online} accounts={rows} />
      <WalletSettingsSection client={m.client} online={m.online} currency={current?.currency ?? currency} />
    </div>
  );
}
