import { useCallback, useState } from 'react';
import type { SwitchingImport, SwitchingOverview, SwitchingVendor } from '../../../schema/api/calls-switching.ts';
import { formatMoney } from '../../../schema/money.ts';
import { Button } from '../../components/button.tsx';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { CsvDropZone } from '../../components/csv-drop-zone.tsx';
import { EmptyState } from '../../components/empty-state.tsx';
import { ListStatus } from '../../components/online-list-status.tsx';
import { Section } from '../../components/section.tsx';
import { SelectField } from '../../components/select-field.tsx';
import { useAppState } from '../../data-access/data-context.tsx';
import type { DataClient } from '../../data-access/types.ts';
import { currencyChoices } from '../../lib/currency-choices.ts';
import { errorText } from '../../lib/error-text.ts';
import { useOnlineList } from '../../lib/use-online-list.ts';
import { usePageData } from '../../lib/use-page-data.ts';
import { useReferenceData } from '../../lib/reference-data.ts';
import { importSummary, vendorRhythm, waitingTotals } from './switching-words.ts';
import { VendorCardDialog } from './vendor-card-dialog.tsx';
import './switching.css';

const OFFLINE_BODY = 'The statements you uploaded and the vendors found in them live on the server, so they cannot be shown while you’re offline. Cards already issued are on the Cards page.';

/**
 * /cards/switch (owners and admins): upload the statement of the card the business is leaving;
 * the vendors it pays again and again are listed with their rhythm and what they charged, each
 * to move onto its own virtual card (asked first, saying what will be issued) or to remove.
 */
export function SwitchingPage() {
  const { client, user, currency } = usePageData();
  const online = useAppState((s) => s.online);
  const referenceVersion = useAppState((s) => s.referenceVersion);
  const reference = useReferenceData(client, referenceVersion);
  const { list, reload } = useOnlineList(online, 'switching', useCallback(async () => {
    const r = await client.switchingOverview();
    return r.ok ? { ok: true as const, rows: [r.overview] } : r;
  }, [client]));
  const [uploaded, setUploaded] = useState<SwitchingImport | null>(null);
  const [moving, setMoving] = useState<SwitchingVendor | null>(null);
  const [removing, setRemoving] = useState<SwitchingVendor | null>(null);
  const overview: SwitchingOverview | null = list.state === 'ready' ? list.rows[0] ?? null : null;
  if (!user) return null;

  return (
    <div className="switching-page">
      <div className="page-header"><h1>Move vendors to Ledgerline</h1></div>
      <p className="muted">Upload a statement from the card you’re leaving. The vendors it pays every week, month or year are listed here, each ready to move onto a virtual card of its own.</p>
      {!online && list.state !== 'offline' && <p className="notice notice-warn">You’re offline. Uploading and moving vendors need a connection to the server.</p>}
      <Section title="Upload a card statement">
        <Upload client={client} online={online} currency={currency} onImported={(i) => { setUploaded(i); reload(); }} />
        {uploaded && <p className="notice" role="status">{importSummary(uploaded)}</p>}
      </Section>
      <ListStatus list={list} what="vendors" offlineBody={OFFLINE_BODY} online={online} onRetry={reload} />
      {overview && <Vendors overview={overview} online={online} onMove={setMoving} onRemove={setRemoving} />}
      {overview && overview.imports.length > 0 && (
        <Section title="Statements uploaded">
          <ul className="switching-imports">
            {overview.imports.map((i) => (
              <li key={i.id}><span className="switching-strong">{i.file_name}</span>
                <span className="muted"> · {i.created_by_name}, {new Date(i.created_at).toLocaleDateString()} · {importSummary(i)}</span></li>
            ))}
          </ul>
        </Section>
      )}
      {moving && (
        <VendorCardDialog client={client} vendor={moving} users={reference.data.users} me={user.id}
          onClose={() => setMoving(null)} onMoved={() => { setMoving(null); reload(); }} />
      )}
      {removing && (
        <ConfirmDialog title={`Remove ${removing.name}?`} tone="danger" confirmLabel="Remove" onClose={() => setRemoving(null)}
          description="It leaves this list and does not come back with a later statement. Nothing is charged and no card changes."
          onConfirm={async () => {
            const r = await client.removeSwitchingVendor(removing.id);
            if (r.ok) reload();
            return r.ok;
          }} />
      )}
    </div>
  );
}

interface VendorsProps { overview: SwitchingOverview; online: boolean; onMove(v: SwitchingVendor): void; onRemove(v: SwitchingVendor): void }

function Vendors({ overview, online, onMove, onRemove }: VendorsProps) {
  if (overview.imports.length === 0) {
    return <EmptyState title="No statement yet">Upload the CSV export of your current card’s last few months: the more months, the better the rhythm of each vendor is known.</EmptyState>;
  }
  if (overview.data.length === 0) {
    return <EmptyState title="No repeat vendors found">No vendor in the statements was charged on a rhythm or in three different months. Upload more months to find them.</EmptyState>;
  }
  const waiting = overview.data.filter((v) => !v.card);
  const totals = waitingTotals(overview.data);
  return (
    <Section title={`Vendors (${waiting.length} to move, ${overview.data.length - waiting.length} moved)`}>
      {totals.length > 0 && <p className="muted">Charged by the vendors still to move, across the statements uploaded: {totals.join(' · ')}.</p>}
      <ul className="switching-vendors">
        {overview.data.map((v) => (
          <li key={v.id} className="switching-vendor">
            <div className="switching-vendor-main">
              <span className="switching-strong">{v.name}</span>
              <span className="muted">{vendorRhythm(v)}</span>
            </div>
            <div className="switching-vendor-money">
              <span>{formatMoney(v.last_amount, v.currency)} <span className="muted">last</span></span>
              <span className="muted">{formatMoney(v.total, v.currency)} {v.currency} in all</span>
            </div>
            <div className="switching-vendor-actions">
              {v.card
                ? <span className="switching-moved">Moved to {v.card.display_name} ••{v.card.last_four} ({v.card.user_name})</span>
                : <>
                  <Button variant="primary" size="sm" disabled={!online} onClick={() => onMove(v)}>Move to a card</Button>
                  <Button variant="ghost" size="sm" disabled={!online} onClick={() => onRemove(v)} aria-label={`Remove ${v.name}`}>Remove</Button>
                </>}
            </div>
          </li>
        ))}
      </ul>
    </Section>
  );
}

interface UploadProps { client: DataClient; online: boolean; currency: string; onImported(i: SwitchingImport): void }

function Upload({ client, online, currency: businessCurrency, onImported }: UploadProps) {
  const [currency, setCurrency] = useState(businessCurrency);
  const send = async (file: File) => {
    const r = await client.uploadSwitchingStatement(file, currency);
    if (!r.ok) return errorText(r.error);
    onImported(r.import);
    return null;
  };
  return (
    <CsvDropZone prompt="Drop the statement (CSV) here, or" online={online} inputLabel="Card statement CSV" onFile={send}
      before={<SelectField label="Statement currency" value={currency} options={currencyChoices(businessCurrency).map((c) => ({ value: c, label: c }))} onChange={setCurrency} />}
      detail="Any card’s CSV export works: a date, a description and an amount (or debit and credit) column. Payments and refunds are left out; a charge in two overlapping statements counts once." />
  );
}
