import { useState } from 'react';
import type { SsoProvider } from '../../../../schema/api/calls-sso.ts';
import { Button } from '../../../components/button.tsx';
import { ConfirmDialog, DeleteDialog } from '../../../components/confirm-dialog.tsx';
import { FormError } from '../../../components/form-error.tsx';
import { StatusPill } from '../../../components/status-pill.tsx';
import type { DataClient } from '../../../data-access/types.ts';
import { toastInfo } from '../../../lib/toast-store.ts';
import { DomainProof } from './domain-proof.tsx';
import { useProviderCard, type ProviderCardState } from './provider-card-state.ts';
import { ReplaceDialog, SetupDialog } from './provider-dialog.tsx';
import { lastUsedText, PENDING_DOMAIN_REASON, providerStatus, providerSummary } from './sso-forms.ts';

export interface ProviderCardProps {
  client: DataClient;
  provider: SsoProvider;
  online: boolean;
  /** The provider as the server now answers it, or null once deleted. */
  onChanged(next: SsoProvider | null): void;
}

/**
 * One identity provider: its domain, brand and protocol, status, whether it has been used, and
 * what can be done with it. A refusal (AUTH_7042 enabling with nobody on the domain, AUTH_7028
 * leaving no admin able to sign in) is said beside the action, in the server's words.
 */
export function ProviderCard({ client, provider: p, online, onChanged }: ProviderCardProps) {
  const s = useProviderCard(client, p, onChanged);
  const { dialog, setDialog, refusal, update } = s;
  const status = providerStatus(p);
  const headingId = `sso-${p.id}`;
  const pending = p.domain_status === 'pending';
  const pendingReasonId = `sso-pending-${p.id}`;
  // Said once, when the domain check proves it (the proof section then goes away).
  const [justProven, setJustProven] = useState<string | null>(null);

  return (
    <article className="sso-card" aria-labelledby={headingId} data-testid="sso-provider">
      <div className="sso-card-head">
        <div className="sso-card-title">
          <h2 id={headingId}>{p.domain}</h2>
          <span className="muted">{providerSummary(p)}</span>
        </div>
        <StatusPill tone={status.tone} title={status.description}>{status.label}</StatusPill>
      </div>
      <p className="sso-card-facts">
        <span>{status.description}</span>
        <span className={p.verified_at ? 'sso-used' : 'muted'}>{lastUsedText(p)}</span>
      </p>
      {pending && (
        <DomainProof client={client} provider={p} online={online} onChanged={(next) => {
          if (next.domain_status === 'proven') setJustProven(`Verified: ${p.domain} belongs to your business. You can now enable single sign-on for it.`);
          onChanged(next);
        }} />
      )}
      {justProven && !pending && (
        <p className="notice sso-proof-result sso-proven" role="status" data-testid="sso-domain-proven">{justProven}</p>
      )}
      {p.enabled && !p.enforced && !p.verified_at && (
        <p className="muted sso-card-note">Sign in through it once yourself (Sign in with SSO on the sign-in page) to verify it: enforcing needs a verified provider.</p>
      )}
      <ProviderActions provider={p} online={online} s={s} pendingReasonId={pendingReasonId} />
      {pending && <p id={pendingReasonId} className="muted sso-card-note">{PENDING_DOMAIN_REASON}</p>}
      {refusal && (
        <p className="notice notice-error sso-refusal" role="alert" data-testid="sso-refusal">
          {refusal.message}
        </p>
      )}
      {dialog === 'setup' && <SetupDialog provider={p} onClose={() => setDialog(null)} />}
      {dialog === 'replace' && (
        <ReplaceDialog client={client} provider={p} onClose={() => setDialog(null)} onReplaced={(next) => { setDialog(null); onChanged(next); }} />
      )}
      {dialog === 'enforce' && <EnforceDialog provider={p} onClose={() => setDialog(null)} onEnforce={() => update('enforce', { enforced: true }, `Single sign-on is enforced for ${p.domain}.`)} />}
      {dialog === 'delete' && (
        <DeleteDialog
          title={`Delete the identity provider for ${p.domain}?`}
          description={p.enforced
            ? 'It is enforced: stop enforcing it first, or nobody on this domain could sign in.'
            : 'People on this domain sign in with their password again. To use single sign-on later, add the provider again.'}
          confirmLabel="Delete provider"
          onClose={() => setDialog(null)}
          onDelete={async () => {
            const r = await client.deleteSsoProvider(p.id, p.protocol);
            if (!r.ok) return r.error;
            toastInfo(`The identity provider for ${p.domain} is deleted.`);
            onChanged(null);
            return null;
          }}
        />
      )}
    </article>
  );
}

/** Enable, enforce, stop enforcing, disable; setup details, replace and delete. */
function ProviderActions({ provider: p, online, s, pendingReasonId }: { provider: SsoProvider; online: boolean; s: ProviderCardState; pendingReasonId: string }) {
  const { busy, act, setDialog, setRefusal } = s;
  const pending = p.domain_status === 'pending';
  return (
    <div className="sso-card-actions">
      {!p.enabled && (
        <Button size="sm" variant={pending ? 'secondary' : 'primary'} disabled={!online || pending} loading={busy === 'enable'}
          aria-describedby={pending ? pendingReasonId : undefined}
          onClick={() => void act('enable', { enabled: true }, `Single sign-on is enabled for ${p.domain}.`)}>
          Enable
        </Button>
      )}
      {pending && (
        <Button size="sm" variant="secondary" disabled aria-describedby={pendingReasonId}>
          Enforce…
        </Button>
      )}
      {p.enabled && !p.enforced && (
        <Button size="sm" variant="primary" disabled={!online} onClick={() => { setRefusal(null); setDialog('enforce'); }}>
          Enforce…
        </Button>
      )}
      {p.enforced && (
        <Button size="sm" disabled={!online} loading={busy === 'unenforce'}
          onClick={() => void act('unenforce', { enforced: false }, `${p.domain} can sign in with passwords again.`)}>
          Stop enforcing
        </Button>
      )}
      {p.enabled && !p.enforced && (
        <Button size="sm" disabled={!online} loading={busy === 'disable'}
          onClick={() => void act('disable', { enabled: false }, `Single sign-on is off for ${p.domain}.`)}>
          Disable
        </Button>
      )}
      <Button size="sm" variant="ghost" onClick={() => setDialog('setup')}>
        Setup details
      </Button>
      <Button size="sm" variant="ghost" disabled={!online} onClick={() => setDialog('replace')}>
        {p.protocol === 'saml' ? 'Replace metadata' : 'Replace client'}
      </Button>
      <Button size="sm" variant="ghost" disabled={!online} onClick={() => { setRefusal(null); setDialog('delete'); }}>
        Delete <span className="sr-only">provider for {p.domain}</span>
      </Button>
    </div>
  );
}

/** What enforcement does, said before it is turned on; the server's refusal (AUTH_7028) stays in the dialog. */
function EnforceDialog({ provider: p, onClose, onEnforce }: { provider: SsoProvider; onClose(): void; onEnforce(): Promise<string | null> }) {
  const [error, setError] = useState<string | null>(null);
  return (
    <ConfirmDialog
      title={`Enforce single sign-on for ${p.domain}?`}
      description="Everyone whose email is on this domain must then sign in through your identity provider: their passwords and email sign-in links are refused."
      confirmLabel="Enforce single sign-on"
      onClose={onClose}
      onConfirm={async () => {
        setError(null);
        const failure = await onEnforce();
        setError(failure);
        return failure === null;
      }}
    >
      <ul className="sso-enforce-facts">
        <li>It needs a verified provider: someone has signed in through it. {p.verified_at ? `${lastUsedText(p)}.` : 'Nobody has yet: sign in through it once first.'}</li>
        <li>People already signed in stay signed in until their session ends.</li>
        <li>To undo it, choose Stop enforcing: passwords work again at once.</li>
      </ul>
      <FormError message={error} />
    </ConfirmDialog>
  );
}