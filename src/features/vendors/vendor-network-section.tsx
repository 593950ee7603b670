import { useEffect, useState } from 'react';
import type { Vendor } from '../../../schema/entities/vendor.ts';
import type { VendorEditProposal } from '../../../schema/entities/vendor-edit-proposal.ts';
import { Button } from '../../components/button.tsx';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { FormError } from '../../components/form-error.tsx';
import { StatusPill } from '../../components/status-pill.tsx';
import { TextField } from '../../components/text-field.tsx';
import type { DataClient } from '../../data-access/types.ts';
import { errorText } from '../../lib/error-text.ts';
import type { useSensitiveAction } from '../../lib/use-sensitive-action.ts';
import { VendorNetworkDocuments } from './vendor-network-documents.tsx';

const FIELD_NAMES = { address: 'Address', bank: 'Bank account', tin: 'Tax ID' } as const;

/** What a proposal changes, masked (last fours only). */
export function proposalLines(p: VendorEditProposal): string[] {
  const f = p.fields;
  return [
    ...(f.legal_name ? [`Legal name: ${f.legal_name}`] : []),
    ...(f.address ? [`Address: ${f.address.line1}, ${f.address.city} ${f.address.postal_code}, ${f.address.country}`] : []),
    ...(f.bank ? [`Bank account: ${f.bank.type === 'CHECKING' ? 'checking' : 'savings'} ending ${f.bank.account_last_four}, routing ending ${f.bank.routing_last_four}`] : []),
    ...(f.tin ? [`Tax ID: ${f.tin.type} ending ${f.tin.last_four}`] : []),
  ];
}

/**
 * Issue 31 §2.4, the vendor drawer's "Vendor network" section (lazy): invite the vendor by email,
 * its status (Invited / Joined), the details it verified, and its pending change to accept (asks
 * first, step-up) or reject, and the documents it shares (vendor-network-documents.tsx).
 */
export function VendorNetworkSection({ vendor, client, online, sensitive }: {
  vendor: Vendor; client: DataClient; online: boolean; sensitive: ReturnType<typeof useSensitiveAction>;
}) {
  const [email, setEmail] = useState(vendor.email ?? '');
  const [error, setError] = useState<string | null>(null);
  const [fieldError, setFieldError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const [invited, setInvited] = useState<string | null>(null);
  const [proposal, setProposal] = useState<VendorEditProposal | null>(null);
  const [accepting, setAccepting] = useState(false);
  const [decided, setDecided] = useState<string | null>(null);
  const network = vendor.network;
  const pendingId = network?.pending_edit_proposal_id ?? null;
  useEffect(() => {
    if (!pendingId || !online) return;
    let live = true;
    void client.pendingVendorProposals().then((r) => live && r.ok && setProposal(r.proposals.find((p) => p.id === pendingId) ?? null));
    return () => {
      live = false;
    };
  }, [client, pendingId, online]);

  async function invite() {
    setBusy(true);
    setError(null);
    setFieldError(undefined);
    const r = await client.inviteNetworkVendor(vendor.id, email.trim());
    setBusy(false);
    if (r.ok) return setInvited(r.invite.invited_email);
    const named = r.error.errors?.email;
    if (named) setFieldError(named);
    else setError(errorText(r.error));
  }
  async function reject(p: VendorEditProposal) {
    const r = await client.rejectVendorProposal(p.id);
    if (!r.ok) return setError(errorText(r.error));
    setProposal(null);
    setDecided('Change rejected: the vendor’s details here stay as they were.');
  }

  const headingId = `${vendor.id}-network`;
  return (
    <section aria-labelledby={headingId}>
      <h3 id={headingId} className="claim-section-title">Vendor network</h3>
      {network ? (
        <p>
          <StatusPill tone={network.status === 'ACTIVE' ? 'ok' : 'neutral'}>{network.status === 'ACTIVE' ? 'Joined' : 'Invited'}</StatusPill>{' '}
          {network.verified_fields.map((f) => <StatusPill key={f} tone="ok">{`${FIELD_NAMES[f]}: Verified by vendor`}</StatusPill>)}
        </p>
      ) : invited ? null : (
        <form className="stack" noValidate onSubmit={(e) => {
          e.preventDefault();
          void invite();
        }}>
          <p className="muted">Invite {vendor.name} to keep their own address, bank account and tax ID up to date and see your payments to them.</p>
          <TextField label="Vendor’s email" type="email" value={email} onChange={setEmail} error={fieldError} />
          <Button type="submit" size="sm" loading={busy} disabled={!online || !email.trim()}>{online ? 'Invite to the vendor network' : 'Inviting needs a connection'}</Button>
        </form>
      )}
      {invited && <p className="notice" role="status">Invitation sent to {invited}. The vendor joins from the link in that email.</p>}
      {proposal && (
        <div className="notice" role="note">
          <p><strong>{vendor.name} changed their details.</strong> Accept to use them for payments, or reject to keep yours.</p>
          <ul>{proposalLines(proposal).map((l) => <li key={l}>{l}</li>)}</ul>
          <Button size="sm" variant="primary" disabled={!online} onClick={() => setAccepting(true)}>Accept change…</Button>{' '}
          <Button size="sm" disabled={!online} onClick={() => void reject(proposal)}>Reject</Button>
        </div>
      )}
      {decided && <p className="notice" role="status">{decided}</p>}
      {network?.status === 'ACTIVE' && <VendorNetworkDocuments vendorId={vendor.id} vendorName={vendor.name} client={client} online={online} />}
      <FormError message={error} />
      {proposal && accepting && (
        <ConfirmDialog title={`Accept ${vendor.name}’s change?`} confirmLabel="Accept change" onClose={() => setAccepting(false)}
          description="The vendor’s new details replace yours for this vendor and future payments use them. You’ll be asked to confirm it’s you."
          onConfirm={async () => {
            let ok = false;
            await sensitive.run(() => client.acceptVendorProposal(proposal.id), (r) => {
              ok = r.ok;
              if (!r.ok) return setError(errorText(r.error));
              setProposal(null);
              setAccepting(false);
              setDecided('Change accepted: the vendor’s verified details are now on this vendor.');
            });
            return ok;
          }}>
          <ul>{proposalLines(proposal).map((l) => <li key={l}>{l}</li>)}</ul>
        </ConfirmDialog>
      )}
    </section>
  );
}
