import { useId, useState, type FormEvent } from 'react';
import { SSO_BRAND_LABELS, type SsoBrand, type SsoProtocol, type SsoProvider } from '../../../../schema/api/calls-sso.ts';
import { Button } from '../../../components/button.tsx';
import { ModalActions } from '../../../components/modal-actions.tsx';
import { FieldNote } from '../../../components/field-note.tsx';
import { FormError } from '../../../components/form-error.tsx';
import { Modal } from '../../../components/modal.tsx';
import { SelectField } from '../../../components/select-field.tsx';
import { TextField } from '../../../components/text-field.tsx';
import type { DataClient } from '../../../data-access/types.ts';
import { errorText } from '../../../lib/error-text.ts';
import {
  BRAND_OPTIONS, emptyProviderValues, PROTOCOL_LABELS, PROTOCOL_OPTIONS, providerInput, replacementPatch, replacementValues,
  serverFieldErrors, setupValues, withBrand, type MetadataSource, type ProviderField, type ProviderFieldErrors, type ProviderFormValues,
} from './sso-forms.ts';

type Edit = (patch: Partial<ProviderFormValues>, ...cleared: ProviderField[]) => void;

/** Form state shared by the add and replace dialogs: values, errors per field, the error above the form. */
function useProviderForm(initial: ProviderFormValues) {
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<ProviderFieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const edit: Edit = (patch, ...cleared) => {
    setValues((v) => ({ ...v, ...patch }));
    if (cleared.length) setErrors((e) => Object.fromEntries(Object.entries(e).filter(([k]) => !cleared.includes(k as ProviderField))));
  };
  /** A refusal goes beside the field it is about; with none, above the form. */
  const refuse = (protocol: SsoProtocol, error: { error_code: string; message: string; errors?: Record<string, string> }) => {
    const byField = serverFieldErrors(protocol, values.source, error);
    setErrors(byField);
    setFormError(Object.keys(byField).length ? null : errorText(error));
  };
  const invalid = (e: ProviderFieldErrors) => {
    setErrors(e);
    setFormError('Check the fields marked below.');
  };
  return { values, errors, formError, setFormError, busy, setBusy, edit, refuse, invalid };
}

export interface AddProviderDialogProps {
  client: DataClient;
  onClose(): void;
  onCreated(p: SsoProvider): void;
}

/**
 * "Add identity provider": brand (which suggests the protocol), protocol, domain, then the SAML
 * metadata (URL or pasted XML) or the OIDC issuer and client. Created as a draft; the dialog then
 * shows what to paste at the identity provider.
 */
export function AddProviderDialog({ client, onClose, onCreated }: AddProviderDialogProps) {
  const f = useProviderForm(emptyProviderValues());
  const [protocolTouched, setProtocolTouched] = useState(false);
  const [created, setCreated] = useState<SsoProvider | null>(null);
  const v = f.values;

  async function submit(e: FormEvent) {
    e.preventDefault();
    f.setFormError(null);
    const built = providerInput(v);
    if (!built.ok) return f.invalid(built.errors);
    f.setBusy(true);
    try {
      const r = await client.createSsoProvider(built.input);
      if (!r.ok) return f.refuse(v.protocol, r.error);
      setCreated(r.provider);
      onCreated(r.provider);
    } finally {
      f.setBusy(false);
    }
  }

  if (created) {
    return (
      <Modal title={`Finish at ${SSO_BRAND_LABELS[created.brand]}`} description={`The provider for ${created.domain} is saved as a draft. Paste these into ${SSO_BRAND_LABELS[created.brand]}, assign the people who use Ledgerline, then verify ${created.domain} with the DNS record shown on its card and enable it there.`} onClose={onClose}>
        <SetupValues provider={created} />
        <div className="modal-actions">
          <Button variant="primary" onClick={onClose}>Done</Button>
        </div>
      </Modal>
    );
  }

  return (
    <Modal title="Add identity provider" description="People whose email is on the domain sign in through it once you have verified the domain and enabled it." onClose={onClose} onSubmit={submit} size="lg">
      <FormError message={f.formError} />
      <div className="modal-fields sso-fields">
        <SelectField label="Identity provider" value={v.brand} options={BRAND_OPTIONS}
          onChange={(b) => f.edit(withBrand(v, b as SsoBrand, protocolTouched), 'brand')} />
        <SelectField label="Protocol" value={v.protocol} options={PROTOCOL_OPTIONS}
          onChange={(p) => { setProtocolTouched(true); f.edit({ protocol: p as SsoProtocol }, 'protocol', 'metadata_url', 'metadata_xml', 'issuer', 'client_id', 'client_secret'); }} />
        <div className="sso-wide">
          <TextField field="domain" label="Email domain" value={v.domain} autoComplete="off" maxLength={253} error={f.errors.domain}
            hint="The part after @ in your people’s work emails, e.g. example.com." onChange={(d) => f.edit({ domain: d }, 'domain')} />
        </div>
        <ProtocolFields protocol={v.protocol} values={v} errors={f.errors} edit={f.edit} secretRequired />
      </div>
      <ModalActions onCancel={onClose} submitLabel="Add provider" busy={f.busy} />
    </Modal>
  );
}

/** SAML: the metadata by URL or pasted XML. OIDC: issuer, client ID and secret. */
function ProtocolFields({ protocol, values: v, errors, edit, secretRequired }: {
  protocol: SsoProtocol; values: ProviderFormValues; errors: ProviderFieldErrors; edit: Edit; secretRequired: boolean;
}) {
  const xmlId = useId();
  if (protocol === 'saml') {
    const source = (s: MetadataSource) => edit({ source: s }, 'metadata_url', 'metadata_xml');
    return (
      <>
        <fieldset className="plain-fieldset sso-wide sso-source">
          <legend className="field-label">Identity provider metadata</legend>
          <label><input type="radio" name="sso-source" checked={v.source === 'url'} onChange={() => source('url')} /> Metadata URL</label>
          <label><input type="radio" name="sso-source" checked={v.source === 'xml'} onChange={() => source('xml')} /> Paste XML</label>
        </fieldset>
        {v.source === 'url' ? (
          <div className="sso-wide">
            <TextField field="metadata_url" label="Metadata URL" type="url" value={v.metadata_url} autoComplete="off" error={errors.metadata_url}
              hint="Your identity provider’s “IdP metadata” or “Federation metadata” URL (https)." onChange={(x) => edit({ metadata_url: x }, 'metadata_url')} />
          </div>
        ) : (
          <label className="field sso-wide" data-field="metadata_xml">
            <span className="field-label">Metadata XML</span>
            <textarea rows={6} className="sso-xml" value={v.metadata_xml} spellCheck={false}
              aria-invalid={errors.metadata_xml ? true : undefined} aria-describedby={xmlId}
              onChange={(e) => edit({ metadata_xml: e.target.value }, 'metadata_xml')} />
            <FieldNote id={xmlId} error={errors.metadata_xml} hint="The whole document, from <EntityDescriptor to its end." />
          </label>
        )}
      </>
    );
  }
  return (
    <>
      <div className="sso-wide">
        <TextField field="issuer" label="Issuer URL" type="url" value={v.issuer} autoComplete="off" error={errors.issuer}
          hint="Where the provider’s /.well-known/openid-configuration lives, e.g. https://example.okta.com." onChange={(x) => edit({ issuer: x }, 'issuer')} />
      </div>
      <TextField field="client_id" label="Client ID" value={v.client_id} autoComplete="off" error={errors.client_id} onChange={(x) => edit({ client_id: x }, 'client_id')} />
      <TextField field="client_secret" label="Client secret" type="password" value={v.client_secret} autoComplete="new-password" error={errors.client_secret}
        hint={secretRequired ? 'Stored encrypted; never shown again.' : 'Leave blank to keep the stored secret.'}
        onChange={(x) => edit({ client_secret: x }, 'client_secret')} />
    </>
  );
}

export interface ReplaceDialogProps {
  client: DataClient;
  provider: SsoProvider;
  onClose(): void;
  onReplaced(p: SsoProvider): void;
}

/** "Replace metadata" (SAML: new certificates, a moved IdP) or "Replace client" (OIDC: rotated secret). */
export function ReplaceDialog({ client, provider: p, onClose, onReplaced }: ReplaceDialogProps) {
  const f = useProviderForm(replacementValues(p));
  async function submit(e: FormEvent) {
    e.preventDefault();
    f.setFormError(null);
    const built = replacementPatch(p.protocol, f.values);
    if (!built.ok) return f.invalid(built.errors);
    f.setBusy(true);
    try {
      const r = await client.updateSsoProvider(p.id, built.patch);
      if (!r.ok) return f.refuse(p.protocol, r.error);
      onReplaced(r.provider);
    } finally {
      f.setBusy(false);
    }
  }
  const saml = p.protocol === 'saml';
  return (
    <Modal title={saml ? `Replace metadata for ${p.domain}` : `Replace client for ${p.domain}`}
      description={saml ? 'New signing certificates or a moved identity provider: the metadata is read again now.' : 'A rotated secret or a new app registration: the issuer is checked again now.'}
      onClose={onClose} onSubmit={submit} size="lg">
      <FormError message={f.formError} />
      <div className="modal-fields sso-fields">
        <ProtocolFields protocol={p.protocol} values={f.values} errors={f.errors} edit={f.edit} secretRequired={false} />
      </div>
      <ModalActions onCancel={onClose} submitLabel={saml ? 'Replace metadata' : 'Replace client'} busy={f.busy} />
    </Modal>
  );
}

/** The setup values again, from the row. */
export function SetupDialog({ provider: p, onClose }: { provider: SsoProvider; onClose(): void }) {
  return (
    <Modal title={`Setup details for ${p.domain}`} description={`${SSO_BRAND_LABELS[p.brand]} · ${PROTOCOL_LABELS[p.protocol]}: what your identity provider needs from Ledgerline, and what it gave.`} onClose={onClose} closeOnBackdrop>
      <SetupValues provider={p} />
      {p.saml && (
        <p className="muted sso-idp-facts">
          Identity provider: {p.saml.idp_entity_id} · {p.saml.certificate_fingerprints.length === 1 ? '1 signing certificate' : `${p.saml.certificate_fingerprints.length} signing certificates`}
        </p>
      )}
      {p.oidc && (
        <p className="muted sso-idp-facts">
          Issuer {p.oidc.issuer} · client {p.oidc.client_id} · {p.oidc.has_client_secret ? 'secret stored' : 'no secret stored'}
        </p>
      )}
      <div className="modal-actions">
        <Button variant="primary" onClick={onClose}>Close</Button>
      </div>
    </Modal>
  );
}

/** Each value to paste at the identity provider, selectable, with a Copy button. */
export function SetupValues({ provider }: { provider: SsoProvider }) {
  return (
    <dl className="sso-setup" data-testid="sso-setup">
      {setupValues(provider).map((s) => (
        <div key={s.label} className="sso-setup-row">
          <dt>{s.label}</dt>
          <dd>
            <code>{s.value}</code>
            <CopyButton text={s.value} label={s.label} />
            <span className="muted sso-setup-hint">{s.hint}</span>
          </dd>
        </div>
      ))}
    </dl>
  );
}

export function CopyButton({ text, label }: { text: string; label: string }) {
  const [copied, setCopied] = useState<null | boolean>(null);
  async function copy() {
    // The clipboard may be refused (permissions, insecure origin): the value stays selectable.
    const ok = await navigator.clipboard?.writeText(text).then(() => true, () => false);
    setCopied(ok === true);
  }
  return (
    <>
      <Button size="sm" variant="secondary" onClick={() => void copy()}>
        {copied ? 'Copied' : 'Copy'}<span className="sr-only"> {label}</span>
      </Button>
      <span className="sr-only" role="status">{copied === null ? '' : copied ? `${label} copied.` : 'The clipboard is not available here: select the value and copy it.'}</span>
    </>
  );
}
