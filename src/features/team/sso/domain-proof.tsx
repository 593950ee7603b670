import { useState } from 'react';
import type { DomainCheckOutcome, SsoProvider } from '../../../../schema/api/calls-sso.ts';
import { Button } from '../../../components/button.tsx';
import type { DataClient } from '../../../data-access/types.ts';
import { errorText } from '../../../lib/error-text.ts';
import { CopyButton } from './provider-dialog.tsx';
import { domainProofSteps } from './sso-forms.ts';

export interface DomainProofProps {
  client: DataClient;
  provider: SsoProvider;
  online: boolean;
  onChanged(next: SsoProvider): void;
}

/**
 * Issue 24: a provider's domain binds nobody until the business proves it owns it. For a pending
 * domain: the plain steps, the TXT record's name and value (each with Copy), and Verify, which
 * says honestly what the lookup found ("We looked up … and found no TXT record", another business
 * proved it first, …). Once proven the section is gone and the card offers Enable.
 */
export function DomainProof({ client, provider: p, online, onChanged }: DomainProofProps) {
  const [checking, setChecking] = useState(false);
  const [result, setResult] = useState<{ outcome: DomainCheckOutcome | 'refused'; message: string } | null>(null);
  const titleId = `sso-proof-${p.id}`;

  async function verify() {
    setChecking(true);
    setResult(null);
    try {
      const r = await client.verifySsoDomain(p.id);
      if (!r.ok) {
        setResult({ outcome: 'refused', message: errorText(r.error) });
        return;
      }
      setResult({ outcome: r.outcome, message: r.message });
      onChanged(r.provider);
    } finally {
      setChecking(false);
    }
  }

  const rows = [
    { label: 'Type', value: 'TXT', copy: false },
    { label: 'Name (host)', value: p.domain_challenge.record_name, copy: true },
    { label: 'Value', value: p.domain_challenge.record_value, copy: true },
  ];
  return (
    <section className="sso-proof" aria-labelledby={titleId} data-testid="sso-domain-proof">
      <h3 id={titleId}>Verify that {p.domain} is yours</h3>
      <p className="sso-proof-lead">
        Before anyone signs in through this provider, prove your business owns {p.domain} by adding a DNS record. Until then it affects nobody.
      </p>
      <ol className="sso-proof-steps">
        {domainProofSteps(p.domain).map((step) => <li key={step}>{step}</li>)}
      </ol>
      <dl className="sso-setup" data-testid="sso-domain-record">
        {rows.map((r) => (
          <div key={r.label} className="sso-setup-row">
            <dt>{r.label}</dt>
            <dd>
              <code>{r.value}</code>
              {r.copy && <CopyButton text={r.value} label={`TXT record ${r.label.toLowerCase()}`} />}
            </dd>
          </div>
        ))}
      </dl>
      <div className="sso-card-actions">
        <Button size="sm" variant="primary" disabled={!online} loading={checking} onClick={() => void verify()}>
          Verify <span className="sr-only">{p.domain}</span>
        </Button>
      </div>
      <div role="status" aria-live="polite">
        {result && result.outcome !== 'proven' && (
          <p className={`notice ${result.outcome === 'refused' ? 'notice-error' : 'notice-warn'} sso-proof-result`} data-testid="sso-domain-result">
            {result.message}
          </p>
        )}
      </div>
    </section>
  );
}
