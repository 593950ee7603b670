import { useState, type FormEvent } from 'react';
import { API_RESOURCES, type ApiScope } from '../../../schema/api/api-scopes.ts';
import { redirectUriProblem } from '../../../schema/api/calls-developer-apps.ts';
import { FormError } from '../../components/form-error.tsx';
import { Modal } from '../../components/modal.tsx';
import { ModalActions } from '../../components/modal-actions.tsx';
import { TextField } from '../../components/text-field.tsx';
import { ScopeRow, useScopeChoice } from './api-client-dialogs.tsx';

export type NewAppForm = {
  name: string; description: string; homepage_url: string | null; client_type: 'confidential' | 'public';
  redirect_uris: string[]; scopes: ApiScope[];
};

const isHttps = (v: string) => {
  try {
    return new URL(v).protocol === 'https:';
  } catch {
    return false;
  }
};

/**
 * "Register application": what the consent page shows (name, description, homepage), whether it
 * keeps a secret (a server) or not (a native or browser app: PKCE alone), its exact redirect URIs
 * and the scopes it may ask for. The caller sends it (sensitive: it may ask for a step-up).
 */
export function RegisterAppDialog({ busy, error, onCancel, onCreate }: {
  busy: boolean; error: string | null; onCancel(): void; onCreate(form: NewAppForm): void;
}) {
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [homepage, setHomepage] = useState('');
  const [type, setType] = useState<'confidential' | 'public'>('confidential');
  const [uris, setUris] = useState('');
  const [scopes, toggle] = useScopeChoice();
  const [problem, setProblem] = useState<string | null>(null);


  function submit(e: FormEvent) {
    e.preventDefault();
    const list = [...new Set(uris.split('\n').map((u) => u.trim()).filter(Boolean))];
    const bad = list.map((u) => [u, redirectUriProblem(u)] as const).find(([, p]) => p !== null);
    if (!name.trim()) return setProblem('Give the application the name people will see when they connect it.');
    if (homepage.trim() && !isHttps(homepage.trim())) return setProblem('The homepage must be an https address.');
    if (list.length === 0) return setProblem('Add at least one redirect URI: where people return after they allow or deny.');
    if (list.length > 10) return setProblem('An application has at most 10 redirect URIs.');
    if (bad) return setProblem(`${bad[0]}: a redirect URI ${bad[1]}.`);
    if (scopes.size === 0) return setProblem('Choose at least one scope the application may ask for.');
    setProblem(null);
    onCreate({
      name: name.trim(), description: description.trim(), homepage_url: homepage.trim() || null, client_type: type, redirect_uris: list,
      scopes: API_RESOURCES.flatMap((r) => (['read', 'write'] as const).map((a) => `${r}:${a}` as const)).filter((s) => scopes.has(s)),
    });
  }

  return (
    <Modal title="Register application" description="Other businesses connect it with an admin’s consent; it then acts with that admin’s access, narrowed to the scopes they allow." onClose={onCancel} onSubmit={submit} size="lg">
      <TextField label="Name" value={name} onChange={setName} maxLength={80} autoFocus required hint="Shown on the consent page, such as “Acme Sync”." />
      <label className="field">
        <span className="field-label">Description (optional)</span>
        <textarea value={description} onChange={(e) => setDescription(e.target.value)} maxLength={500} rows={2} />
      </label>
      <TextField label="Homepage (optional)" type="url" value={homepage} onChange={setHomepage} maxLength={2000} hint="An https address where people can learn who makes it." />
      <fieldset className="plain-fieldset">
        <legend>Application type</legend>
        <label className="check dev-app-type">
          <input type="radio" name="client_type" checked={type === 'confidential'} onChange={() => setType('confidential')} />
          <span>Server (confidential): keeps a client secret</span>
        </label>
        <label className="check dev-app-type">
          <input type="radio" name="client_type" checked={type === 'public'} onChange={() => setType('public')} />
          <span>Native or browser app (public): no secret, PKCE only</span>
        </label>
      </fieldset>
      <label className="field">
        <span className="field-label">Redirect URIs, one a line</span>
        <textarea value={uris} onChange={(e) => setUris(e.target.value)} rows={3} spellCheck={false} placeholder="https://app.example.com/oauth/callback" />
        <span className="field-hint muted">Matched exactly. https, or http on 127.0.0.1 or localhost for native apps.</span>
      </label>
      <fieldset className="plain-fieldset api-scopes">
        <legend>Scopes it may ask for</legend>
        <div className="api-scope-grid" role="presentation">
          {API_RESOURCES.map((r) => <ScopeRow key={r} resource={r} scopes={scopes} onToggle={toggle} />)}
        </div>
      </fieldset>
      <FormError message={problem ?? error} />
      <ModalActions submitLabel="Register application" busy={busy} onCancel={onCancel} />
    </Modal>
  );
}
