import { useMemo, useState } from 'react';
import type { Vendor } from '../../../schema/entities/vendor.ts';
import { checkMerge } from '../../../schema/vendor-rules.ts';
import { MAX_MERGED_PAYEES } from '../../../schema/api/calls-vendors.ts';
import { Button } from '../../components/button.tsx';
import { FormError } from '../../components/form-error.tsx';
import { Modal } from '../../components/modal.tsx';
import type { DataClient } from '../../data-access/types.ts';
import { errorText } from '../../lib/error-text.ts';
import { bankText, filterVendors, mergeSummary } from './vendor-view.ts';

export interface MergeDialogProps {
  vendors: readonly Vendor[];
  /** The vendor open in the drawer: offered as the one to keep. */
  initial: string | undefined;
  client: DataClient;
  online: boolean;
  onClose(): void;
  onMerged(survivor: Vendor, mergedIds: string[]): void;
  returnFocus(): HTMLElement | null | undefined;
}

/**
 * Merge duplicate vendors: pick the one to keep, tick the duplicates, then confirm a sentence
 * naming what moves (contacts, bills, the details the survivor lacks) and what is removed. The
 * survivor's own details are never overwritten (`mergedFields`, schema/vendor-rules.ts).
 */
export function MergeDialog({ vendors, initial, client, online, onClose, onMerged, returnFocus }: MergeDialogProps) {
  const active = useMemo(() => filterVendors(vendors, { q: '', status: 'active' }), [vendors]);
  const [survivorId, setSurvivorId] = useState(() => (initial && active.some((v) => v.id === initial) ? initial : ''));
  const [merged, setMerged] = useState<string[]>([]);
  const [filter, setFilter] = useState('');
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const survivor = active.find((v) => v.id === survivorId) ?? null;
  const candidates = useMemo(
    () => filterVendors(vendors, { q: filter, status: 'all' }).filter((v) => v.id !== survivorId),
    [vendors, filter, survivorId],
  );
  const mergedVendors = merged.map((id) => vendors.find((v) => v.id === id)).filter((v): v is Vendor => v !== undefined);

  function next() {
    setError(null);
    if (!survivor) return setError('Choose the vendor to keep.');
    if (merged.length === 0) return setError('Tick at least one duplicate to merge into it.');
    const check = checkMerge(survivor.id, merged, survivor);
    if (!check.ok) return setError(check.message);
    setConfirming(true);
  }

  async function merge() {
    if (!survivor) return;
    setBusy(true);
    setError(null);
    const r = await client.mergeVendors(survivor.id, merged);
    setBusy(false);
    if (!r.ok) return setError(errorText(r.error));
    onMerged(r.vendor, r.merged_payee_ids);
  }

  if (confirming && survivor) {
    return (
      <Modal title={`Merge into ${survivor.name}?`} onClose={() => setConfirming(false)} returnFocus={returnFocus}>
        <p>{mergeSummary(survivor, mergedVendors)}</p>
        <p className="muted">This can’t be undone.</p>
        {!online && <p className="notice notice-warn" role="note">You’re offline. Merging needs a connection.</p>}
        <FormError message={error} />
        <div className="modal-actions">
          <Button onClick={() => setConfirming(false)}>Back</Button>
          <Button variant="danger" loading={busy} onClick={() => void merge()} autoFocus>
            Merge {mergedVendors.length === 1 ? '1 vendor' : `${mergedVendors.length} vendors`}
          </Button>
        </div>
      </Modal>
    );
  }

  return (
    <Modal title="Merge vendors" description="Fold duplicates into one vendor. Their contacts and bills move to the one you keep." size="lg" onClose={onClose} returnFocus={returnFocus}>
      <label className="field">
        <span className="field-label">Vendor to keep</span>
        <select value={survivorId} onChange={(e) => { setSurvivorId(e.target.value); setMerged((m) => m.filter((id) => id !== e.target.value)); }}>
          <option value="">Choose a vendor…</option>
          {active.map((v) => (
            <option key={v.id} value={v.id}>{v.name}</option>
          ))}
        </select>
      </label>
      <fieldset className="vendor-merge-list" disabled={!survivor}>
        <legend>Duplicates to merge into it</legend>
        <input
          type="search"
          className="vendor-merge-filter"
          aria-label="Filter vendors"
          placeholder="Filter vendors…"
          value={filter}
          onChange={(e) => setFilter(e.target.value)}
        />
        <ul>
          {candidates.map((v) => (
            <li key={v.id}>
              <label className="check">
                <input
                  type="checkbox"
                  checked={merged.includes(v.id)}
                  disabled={!merged.includes(v.id) && merged.length >= MAX_MERGED_PAYEES}
                  onChange={(e) => setMerged((m) => (e.target.checked ? [...m, v.id] : m.filter((id) => id !== v.id)))}
                />
                <span>{v.name}</span>
                <span className="muted">{[v.email, bankText(v.bank_account)].filter(Boolean).join(' · ')}</span>
              </label>
            </li>
          ))}
          {candidates.length === 0 && <li className="muted">No other vendors match.</li>}
        </ul>
      </fieldset>
      <FormError message={error} />
      <div className="modal-actions">
        <Button onClick={onClose}>Cancel</Button>
        <Button variant="primary" onClick={next}>
          Review merge
        </Button>
      </div>
    </Modal>
  );
}
