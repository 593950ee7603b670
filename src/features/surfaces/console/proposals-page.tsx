import { useEffect, useState } from 'react';
import { useAppState, useDataClient } from '../../../data-access/data-context.tsx';
import { Button } from '../../../components/button.tsx';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { EmptyState } from '../../../components/empty-state.tsx';
import { FormError } from '../../../components/form-error.tsx';
import { Skeleton } from '../../../components/skeleton.tsx';
import { StatusPill } from '../../../components/status-pill.tsx';
import { errorText } from '../../../lib/error-text.ts';
import type { FirmProposal, FirmView } from '../../../../workers/api.ts';
import type { DataClient } from '../../../data-access/types.ts';
import { useConsoleOnline } from './clients-page.tsx';
import { readKept, type KeptRead } from './console-cache.ts';
import { readAtText, rightsText, STATUS_WORDS } from './console-words.ts';
import { CsvImport } from './csv-import.tsx';
import { ProposalForm } from './proposal-form.tsx';

type Ask = { action: 'validate' | 'revoke'; ids: string[] };

/**
 * `/console/proposals`: the firm's proposals with their status in words; a new one (saved as a
 * draft), Send (validate) and Withdraw (revoke, asked first), both also for the ticked rows, and a
 * CSV of many clients checked line by line before anything is created.
 */
export function ProposalsPage() {
  const client = useDataClient();
  const identityId = useAppState((s) => s.surfaceSession?.identity_id ?? '');
  const online = useConsoleOnline();
  const [rows, setRows] = useState<Extract<KeptRead<FirmProposal[]>, { rows: unknown }> | null>(null);
  const [firm, setFirm] = useState<FirmView | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [picked, setPicked] = useState<string[]>([]);
  const [ask, setAsk] = useState<Ask | null>(null);
  const [dialog, setDialog] = useState<'new' | 'csv' | null>(null);
  const [note, setNote] = useState<string | null>(null);

  const [version, setVersion] = useState(0);

  useEffect(() => {
    let live = true;
    void readProposals(client, identityId).then((r) => {
      if (!live) return;
      if ('message' in r) setError(r.message);
      else {
        setRows(r);
        setError(null);
      }
    });
    void client.consoleFirm().then((r) => live && r.ok && setFirm(r.firm));
    return () => {
      live = false;
    };
  }, [client, identityId, online, version]);

  async function act({ action, ids }: Ask): Promise<boolean> {
    if (ids.length === 1) {
      const r = action === 'validate' ? await client.consoleValidateProposal(ids[0]!) : await client.consoleRevokeProposal(ids[0]!);
      if (!r.ok) {
        setNote(errorText(r.error));
        return true;
      }
    } else {
      const r = await client.consoleBulkProposals(action, ids);
      if (!r.ok) {
        setNote(errorText(r.error));
        return true;
      }
      const refused = r.results.filter((x) => !x.ok);
      setNote(refused.length ? `${ids.length - refused.length} done; ${refused.length} refused: ${refused.map((x) => ('message' in x ? x.message : '')).join(' ')}` : null);
    }
    setPicked([]);
    setVersion((v) => v + 1);
    return true;
  }

  const list = rows?.rows ?? [];
  const pickedRows = list.filter((p) => picked.includes(p.id));
  const drafts = pickedRows.filter((p) => p.status === 'DRAFT').map((p) => p.id);
  const open = pickedRows.filter(actionable).map((p) => p.id);

  return (
    <section className="console-page" aria-labelledby="proposals-title">
      <div className="page-header">
        <h1 id="proposals-title">Proposals</h1>
        <div className="page-actions">
          <Button disabled={!online} onClick={() => setDialog('csv')}>
            Import CSV
          </Button>
          <Button variant="primary" disabled={!online} onClick={() => setDialog('new')}>
            New proposal
          </Button>
        </div>
      </div>
      {!online && <p className="muted">Creating, sending and withdrawing proposals need a connection.</p>}
      {rows?.offline && <p className="notice" role="status">You’re offline: these are your proposals as last read on this device ({readAtText(rows.at)}).</p>}
      <FormError message={error ?? note} />
      {!rows && !error && (
        <div aria-busy="true">
          <span className="sr-only">Loading proposals…</span>
          <Skeleton height={56} />
        </div>
      )}
      {rows && list.length === 0 && (
        <EmptyState title="No proposals yet">
          Propose to work with a business: its admin gets an email and decides which rights your firm has.
        </EmptyState>
      )}
      {picked.length > 0 && (
        <div className="console-bulk" role="region" aria-label="Ticked proposals">
          <span>{picked.length} ticked</span>
          <Button size="sm" disabled={!online || drafts.length === 0} onClick={() => setAsk({ action: 'validate', ids: drafts })}>
            Send {drafts.length} draft{drafts.length === 1 ? '' : 's'}
          </Button>
          <Button size="sm" disabled={!online || open.length === 0} onClick={() => setAsk({ action: 'revoke', ids: open })}>
            Withdraw {open.length}
          </Button>
        </div>
      )}
      {list.length > 0 && (
        <ul className="console-list" aria-label="Proposals">
          {list.map((p) => (
            <ProposalRow key={p.id} p={p} online={online} picked={picked.includes(p.id)} onPick={() => setPicked((x) => (x.includes(p.id) ? x.filter((y) => y !== p.id) : [...x, p.id]))} onAsk={setAsk} />
          ))}
        </ul>
      )}
      {ask && (
        <ConfirmDialog
          title={ask.action === 'validate' ? `Send ${ask.ids.length === 1 ? 'this proposal' : `${ask.ids.length} proposals`}?` : `Withdraw ${ask.ids.length === 1 ? 'this proposal' : `${ask.ids.length} proposals`}?`}
          description={
            ask.action === 'validate'
              ? 'Each client’s admin gets an email asking to accept your firm with the rights shown.'
              : 'The client can no longer accept it. To work with them later, make a new proposal.'
          }
          confirmLabel={ask.action === 'validate' ? 'Send' : 'Withdraw'}
          tone={ask.action === 'revoke' ? 'danger' : 'primary'}
          onClose={() => setAsk(null)}
          onConfirm={() => act(ask)}
        />
      )}
      {dialog === 'new' && <ProposalForm firm={firm} onClose={() => setDialog(null)} onCreated={() => setVersion((v) => v + 1)} />}
      {dialog === 'csv' && <CsvImport firm={firm} onClose={() => setDialog(null)} onCreated={() => setVersion((v) => v + 1)} />}
    </section>
  );
}

const actionable = (p: FirmProposal) => p.direction === 'FIRM_TO_BUSINESS' && (p.status === 'DRAFT' || p.status === 'PENDING');

/** The proposals online (kept on this device), else the last kept with its time, else why not. */
const readProposals = (client: DataClient, identityId: string) =>
  readKept<FirmProposal[]>(identityId, 'proposals', () => client.consoleProposals(), 'You’re offline and this device has not read your proposals yet.');

interface RowProps {
  p: FirmProposal;
  online: boolean;
  picked: boolean;
  onPick(): void;
  onAsk(ask: Ask): void;
}

/** One proposal: its client, who proposed, the rights, the status in words and what can be done with it. */
function ProposalRow({ p, online, picked, onPick, onAsk }: RowProps) {
  return (
    <li className="console-row">
      {actionable(p) && (
        <input
          type="checkbox"
          aria-label={`Tick ${p.client_name}`}
          checked={picked}
          onChange={onPick}
        />
      )}
      <div className="console-row-main">
        <h2 className="console-row-title">{p.client_name}</h2>
        <p className="console-row-detail">
          {p.client_email} · {p.direction === 'BUSINESS_TO_FIRM' ? 'Proposed by the business' : 'Proposed by your firm'} · Rights: {rightsText(p.rights)}
        </p>
        <StatusPill tone={STATUS_WORDS[p.status].tone}>{STATUS_WORDS[p.status].text}</StatusPill>
      </div>
      <div className="console-row-actions">
        {p.status === 'DRAFT' && p.direction === 'FIRM_TO_BUSINESS' && (
          <Button size="sm" variant="primary" disabled={!online} onClick={() => onAsk({ action: 'validate', ids: [p.id] })}>
            Send
          </Button>
        )}
        {actionable(p) && (
          <Button size="sm" disabled={!online} onClick={() => onAsk({ action: 'revoke', ids: [p.id] })}>
            Withdraw
          </Button>
        )}
      </div>
    </li>
  );
}
