import { useCallback, useEffect, useState } from 'react';
import {
  SUPPORT_ACCESS_DEFAULT_DAYS, SUPPORT_ACCESS_MAX_DAYS, type SupportAccessGrant,
} from '../../../schema/api/calls-support-access.ts';
import { useAppState, useDataClient } from '../../data-access/data-context.tsx';
import type { SupportAccessFailure, SupportAccessResult } from '../../data-access/types.ts';
import { Button } from '../../components/button.tsx';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { FormError } from '../../components/form-error.tsx';
import { Section, SettingRow } from '../../components/section.tsx';
import { SelectField } from '../../components/select-field.tsx';
import { errorText } from '../../lib/error-text.ts';
import { formatLocalDateTime } from '../../lib/format.ts';
import { toastInfo } from '../../lib/toast-store.ts';

const DAY_CHOICES = [1, 3, 7, SUPPORT_ACCESS_MAX_DAYS].map((d) => ({ value: String(d), label: d === 1 ? '1 day' : `${d} days` }));
const ADMIN_ROLES = new Set(['BUSINESS_OWNER', 'BUSINESS_ADMIN']);

type Loaded = { state: 'loading' } | { state: 'failed'; message: string } | { state: 'ready'; grant: SupportAccessGrant | null };

/**
 * Settings → Support access (issue 24), owners and admins only: whether Ledgerline support may
 * sign in as people of this business, until when, read-only or with changes, who turned it on;
 * turn it on for 1–14 days or revoke it, each after a confirmation that says what it does.
 */
export function SupportAccessSection() {
  const session = useAppState((s) => s.session);
  if (!session || !ADMIN_ROLES.has(session.user.role)) return null;
  return <SupportAccessSettings businessName={session.business.name} />;
}

function SupportAccessSettings({ businessName }: { businessName: string }) {
  const client = useDataClient();
  const [loaded, setLoaded] = useState<Loaded>({ state: 'loading' });
  const [days, setDays] = useState(String(SUPPORT_ACCESS_DEFAULT_DAYS));
  const [allowWrites, setAllowWrites] = useState(false);
  const [confirming, setConfirming] = useState<'grant' | 'revoke' | null>(null);
  const [error, setError] = useState<string | null>(null);

  const [until, setUntil] = useState<Date | null>(null);

  const apply = useCallback((r: SupportAccessResult) => {
    setLoaded(r.ok ? { state: 'ready', grant: r.grant } : { state: 'failed', message: errorText(r.error) });
  }, []);
  const load = useCallback(() => void client.supportAccess().then(apply), [client, apply]);
  useEffect(() => {
    let live = true;
    void client.supportAccess().then((r) => live && apply(r));
    return () => {
      live = false;
    };
  }, [client, apply]);

  function settle(r: SupportAccessResult, done: string): boolean {
    if (!r.ok) {
      setError(errorText((r as SupportAccessFailure).error));
      return false;
    }
    setError(null);
    setLoaded({ state: 'ready', grant: r.grant });
    toastInfo(done);
    return true;
  }

  const live = loaded.state === 'ready' && loaded.grant?.active ? loaded.grant : null;
  const n = Number(days);
  function closeDialog() {
    setConfirming(null);
    setError(null);
  }
  function askGrant() {
    setUntil(new Date(Date.now() + n * 24 * 60 * 60 * 1000));
    setConfirming('grant');
  }

  return (
    <Section
      title="Support access"
      description="Let Ledgerline support sign in as people of this business to help with a problem. Off unless you turn it on, for at most 14 days."
    >
      {loaded.state === 'loading' && <p className="muted" role="status">Loading support access…</p>}
      {loaded.state === 'failed' && (
        <div className="notice notice-error" role="alert">
          <span>{loaded.message}</span>
          <div>
            <Button onClick={load}>Try again</Button>
          </div>
        </div>
      )}
      {loaded.state === 'ready' && (
        <>
          <SettingRow title="Status" description={<GrantStatus grant={loaded.grant} />}>
            {live && (
              <Button variant="danger" onClick={() => setConfirming('revoke')}>
                Revoke support access
              </Button>
            )}
          </SettingRow>
          <SettingRow
            title={live ? 'Change support access' : 'Turn on support access'}
            description={live ? 'A new period replaces the current one.' : 'Support can act only while this is on; every change they make names them.'}
          >
            <div className="stack">
              <SelectField label="For" value={days} options={DAY_CHOICES} onChange={setDays} />
              <label className="check">
                <input type="checkbox" checked={allowWrites} onChange={(e) => setAllowWrites(e.target.checked)} />
                Allow support to make changes (otherwise they can only look)
              </label>
              <div>
                <Button variant="primary" onClick={askGrant}>
                  {live ? 'Replace support access' : 'Turn on support access'}
                </Button>
              </div>
            </div>
          </SettingRow>
          <FormError message={confirming ? null : error} />
        </>
      )}
      {confirming === 'grant' && (
        <ConfirmDialog
          title={`Turn on support access for ${DAY_CHOICES.find((c) => c.value === days)?.label ?? days}?`}
          description={<GrantConsequences businessName={businessName} until={until} allowWrites={allowWrites} />}
          confirmLabel="Turn on support access"
          onClose={closeDialog}
          onConfirm={async () => settle(await client.grantSupportAccess({ days: n, allow_writes: allowWrites }), 'Support access is on.')}
        >
          <FormError message={error} />
        </ConfirmDialog>
      )}
      {confirming === 'revoke' && (
        <ConfirmDialog
          title="Revoke support access?"
          description="Support loses access at once, including any session they have open now. You can turn it on again later."
          confirmLabel="Revoke support access"
          tone="danger"
          onClose={closeDialog}
          onConfirm={async () => settle(await client.revokeSupportAccess(), 'Support access is off.')}
        >
          <FormError message={error} />
        </ConfirmDialog>
      )}
    </Section>
  );
}

/** What turning support access on lets support do, for the confirmation. */
function GrantConsequences({ businessName, until, allowWrites }: { businessName: string; until: Date | null; allowWrites: boolean }) {
  return (
    <>
      Ledgerline support will be able to sign in as any person of {businessName} and see what they see until{' '}
      {until ? formatLocalDateTime(until) : ''}.{' '}
      {allowWrites
        ? 'They can also make changes; each change is recorded with their name and the person’s.'
        : 'They cannot change anything.'}{' '}
      They can never see or change passwords, two-factor settings or passkeys. You can revoke it at any time.
    </>
  );
}

/** The grant's state in words: on until …, read-only or with changes, by whom; or off, and how it ended. */
export function GrantStatus({ grant }: { grant: SupportAccessGrant | null }) {
  if (!grant) return <span data-testid="support-access-status">Off. Support cannot sign in as anyone here.</span>;
  const who = grant.granted_by.name || 'an administrator';
  if (grant.active) {
    return (
      <span data-testid="support-access-status">
        <strong>On</strong> until {formatLocalDateTime(grant.expires_at)} ({grant.allow_writes ? 'may make changes' : 'read-only'}), turned on by {who} on{' '}
        {formatLocalDateTime(grant.created_at)}.
      </span>
    );
  }
  const ended = grant.revoked_at
    ? `revoked by ${grant.revoked_by?.name || 'an administrator'} on ${formatLocalDateTime(grant.revoked_at)}`
    : `expired on ${formatLocalDateTime(grant.expires_at)}`;
  return (
    <span data-testid="support-access-status">
      <strong>Off</strong>. The last grant (by {who}) {ended}.
    </span>
  );
}
