import { useState } from 'react';
import { useAppStore, useAppState, useDataClient } from '../data-access/data-context.tsx';
import type { SessionInfo } from '../data-access/types.ts';
import { sessionState } from '../data-access/app-state.ts';
import { isBusinessSession } from '../../workers/contracts/session.ts';
import { Modal } from '../components/modal.tsx';
import { MenuGroup, MenuItem } from '../components/menu.tsx';
import { MfaStep } from '../features/identity/index.ts';
import { leftBehindText, switcherEntries } from '../lib/business-switch.ts';
import { errorText } from '../lib/error-text.ts';
import { rememberTabBusiness } from '../lib/session-tab.ts';
import { toastError, toastInfo } from '../lib/toast-store.ts';

/**
 * The user menu's business switcher (§3, §6): one item per business the person can act in, the
 * current one marked; rendered only when there is a choice. The worker opens the chosen
 * business's own mirror; the previous one (and its unsent edits) stays on this device.
 * The menu closes on the choice; a business needing MFA then asks for the code in a dialog,
 * which the caller renders outside the menu (`dialog`).
 */
export function useBusinessSwitcher() {
  const session = useAppState((s) => s.session);
  const switchTo = useSwitchBusiness();
  const [busy, setBusy] = useState(false);
  const [mfaFor, setMfaFor] = useState<string | null>(null);
  const entries = switcherEntries(session);

  async function choose(id: string) {
    setBusy(true);
    try {
      if ((await switchTo(id)) === 'mfa') setMfaFor(id);
    } finally {
      setBusy(false);
    }
  }

  const items =
    entries.length === 0 ? null : (
      <MenuGroup label="Switch business">
        {entries.map((b) => (
          <MenuItem key={b.id} current={b.current} disabled={busy} onSelect={() => void (b.current ? undefined : choose(b.id))}>
            {b.name}
          </MenuItem>
        ))}
      </MenuGroup>
    );
  const dialog = mfaFor ? <SwitchMfaDialog onDone={() => setMfaFor(null)} /> : null;
  return { items, dialog };
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
    if (isBusinessSession(session)) rememberTabBusiness(session.business.id);
    const status = await client.status();
    store.set((s) => ({
      ...sessionState(session), status, dataVersion: s.dataVersion + 1, referenceVersion: s.referenceVersion + 1,
    }));
    if (leftBehind) toastInfo(leftBehindText(leftBehind));
  };
}

function useSwitchBusiness() {
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
    return 'done';
  };
}
