import { useState } from 'react';
import { useAppStore, useAppState, useDataClient } from '../data-access/data-context.tsx';
import type { SessionInfo } from '../data-access/types.ts';
import { Modal } from '../components/modal.tsx';
import { MfaStep } from '../features/identity/index.ts';
import { leftBehindText, switcherEntries } from '../lib/business-switch.ts';
import { errorText } from '../lib/error-text.ts';
import { rememberTabBusiness } from '../lib/session-tab.ts';
import { toastError, toastInfo } from '../lib/toast-store.ts';

/**
 * The user menu's business switcher (§3, §6): one button per business the person can act in,
 * the current one marked; rendered only when there is a choice. The worker opens the chosen
 * business's own mirror; the previous one (and its unsent edits) stays on this device.
 */
export function BusinessSwitcher({ onSwitched }: { onSwitched: () => void }) {
  const session = useAppState((s) => s.session);
  const switchTo = useSwitchBusiness(onSwitched);
  const [busy, setBusy] = useState(false);
  const [mfaFor, setMfaFor] = useState<string | null>(null);
  const entries = switcherEntries(session);
  if (entries.length === 0) return null;

  async function choose(id: string) {
    setBusy(true);
    try {
      if ((await switchTo(id)) === 'mfa') setMfaFor(id);
    } finally {
      setBusy(false);
    }
  }

  return (
    <div role="group" aria-labelledby="business-switch-label" className="menu-section">
      <div id="business-switch-label" className="menu-label muted">
        Switch business
      </div>
      {entries.map((b) => (
        <button
          key={b.id}
          type="button"
          className={b.current ? 'menu-item current' : 'menu-item'}
          aria-current={b.current ? 'true' : undefined}
          disabled={busy}
          onClick={() => void (b.current ? onSwitched() : choose(b.id))}
        >
          {b.name}
        </button>
      ))}
      {mfaFor && <SwitchMfaDialog onDone={() => setMfaFor(null)} />}
    </div>
  );
}

/** The chosen business requires MFA this session has not passed: the code completes the switch. */
function SwitchMfaDialog({ onDone }: { onDone: () => void }) {
  const finish = useFinishSwitch();
  return (
    <Modal title="Two-factor authentication" onClose={onDone}>
      <MfaStep
        downMessage={null}
        onVerified={async (r) => {
          await finish(r.session, null);
          onDone();
        }}
        onCancel={onDone}
      />
    </Modal>
  );
}

/** Puts the new business in the store and the tab's storage; views re-query their data. */
function useFinishSwitch() {
  const client = useDataClient();
  const store = useAppStore();
  return async (session: SessionInfo, leftBehind: { business_name: string; changes: number } | null) => {
    rememberTabBusiness(session.business.id);
    const status = await client.status();
    store.set((s) => ({
      session, status, dataVersion: s.dataVersion + 1, referenceVersion: s.referenceVersion + 1,
    }));
    if (leftBehind) toastInfo(leftBehindText(leftBehind));
  };
}

function useSwitchBusiness(onSwitched: () => void) {
  const client = useDataClient();
  const finish = useFinishSwitch();
  return async (businessId: string): Promise<'done' | 'mfa' | 'failed'> => {
    const result = await client.switchBusiness(businessId);
    if (!result.ok) {
      if (result.mfa_required) return 'mfa';
      toastError(errorText(result.error));
      return 'failed';
    }
    await finish(result.session, result.left_behind);
    onSwitched();
    return 'done';
  };
}
