import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { CARD_STATUSES, type CardStatus } from '../../../schema/entities/card.ts';
import type { PrimaryCardQuery } from '../../../schema/export-settings.ts';
import { Button, buttonClass } from '../../components/button.tsx';
import { ExportColumnsDialog } from '../../components/export-columns-dialog.tsx';
import { FormError } from '../../components/form-error.tsx';
import { Modal } from '../../components/modal.tsx';
import { SelectField, type SelectOption } from '../../components/select-field.tsx';
import { TextField } from '../../components/text-field.tsx';
import type { DataClient } from '../../data-access/types.ts';
import { errorText } from '../../lib/error-text.ts';
import { saveFile } from '../../lib/save-file.ts';
import { toastInfo } from '../../lib/toast-store.ts';
import { statusText } from './card-view.ts';

const ALL: readonly SelectOption[] = [{ value: '', label: 'Everyone' }];
const ANY_STATUS: readonly SelectOption[] = [{ value: '', label: 'Any status' }];
const STATUS_OPTIONS = CARD_STATUSES.filter((s) => s !== 'TERMINATED').map((s) => ({ value: s, label: statusText(s) }));

export interface PrimaryCardsExportProps {
  client: DataClient;
  departments: readonly SelectOption[];
  online: boolean;
  /** The managed list's current filters, to start from. */
  initial: { department_id?: string | undefined; status?: CardStatus | undefined; q?: string | undefined };
  onClose(): void;
}

/**
 * Issue 32, §7 "export of primary cards (query)": owners and admins download a CSV of each
 * person's primary card (cardholder, email, department, last four, limit with its currency,
 * status…) narrowed by department, status and a search, in their chosen columns ("Columns…").
 * Made on the server from everyone's cards, so it needs a connection.
 */
export function PrimaryCardsExportDialog({ client, departments, online, initial, onClose }: PrimaryCardsExportProps) {
  const [department, setDepartment] = useState(initial.department_id ?? '');
  const [status, setStatus] = useState<string>(initial.status && initial.status !== 'TERMINATED' ? initial.status : '');
  const [q, setQ] = useState(initial.q ?? '');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [choosing, setChoosing] = useState(false);

  const download = async () => {
    const query: PrimaryCardQuery = {
      ...(department && { department_id: department }),
      ...(status && { status: status as CardStatus }),
      ...(q.trim() && { q: q.trim() }),
    };
    setBusy(true);
    setError(null);
    try {
      const r = await client.primaryCardsCsv(query);
      if (!r.ok) return setError(errorText(r.error));
      const name = `primary-cards-${new Date().toISOString().slice(0, 10)}.csv`;
      saveFile(r.file, name);
      toastInfo(`Downloaded ${name}.`);
      onClose();
    } finally {
      setBusy(false);
    }
  };

  if (choosing) return <ExportColumnsDialog table="primary_cards" noun="primary cards" onClose={() => setChoosing(false)} />;
  return (
    <Modal
      title="Export primary cards"
      description="One row per person: their primary card, its last four, limit and currency, and status. Terminated cards are left out."
      onClose={onClose}
      onSubmit={(e) => {
        e.preventDefault();
        void download();
      }}
    >
      <div className="stack">
        <SelectField label="Department" value={department} options={departments} leading={ALL} onChange={setDepartment} />
        <SelectField label="Card status" value={status} options={STATUS_OPTIONS} leading={ANY_STATUS} onChange={setStatus} />
        <TextField label="Search" value={q} onChange={setQ} maxLength={200} hint="Name, email, card name or last four" />
        {!online && <p className="export-columns-note" role="status">You’re offline. This export is made on the server: connect to download it.</p>}
        <FormError message={error} />
      </div>
      <div className="modal-actions export-columns-actions">
        <Button variant="ghost" onClick={() => setChoosing(true)}>
          Columns…
        </Button>
        <Button variant="ghost" onClick={onClose}>
          Cancel
        </Button>
        <Button type="submit" variant="primary" loading={busy} disabled={!online}>
          Download CSV
        </Button>
      </div>
    </Modal>
  );
}

export interface CardsHeaderLinksProps {
  client: DataClient;
  admin: boolean;
  online: boolean;
  departments: readonly SelectOption[];
  search: { department_ids?: string[] | undefined; statuses?: CardStatus[] | undefined; q?: string | undefined };
}

/** The Cards page's header links: monthly statements (everyone: their cards'), and the primary-cards export (admins). */
export function CardsHeaderLinks({ client, admin, online, departments, search }: CardsHeaderLinksProps) {
  const [exporting, setExporting] = useState(false);
  return (
    <>
      <Link to="/statements" className={buttonClass({ variant: 'ghost' })}>
        Statements
      </Link>
      {admin && (
        <Link to="/cards/switch" className={buttonClass({ variant: 'ghost' })}>
          Move vendors
        </Link>
      )}
      {admin && (
        <Button variant="ghost" onClick={() => setExporting(true)}>
          Export primary cards
        </Button>
      )}
      {exporting && (
        <PrimaryCardsExportDialog
          client={client}
          departments={departments}
          online={online}
          initial={{ department_id: search.department_ids?.[0], status: search.statuses?.[0], q: search.q }}
          onClose={() => setExporting(false)}
        />
      )}
    </>
  );
}
