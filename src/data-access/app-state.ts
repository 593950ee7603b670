import type { Platform } from '../../schema/platform.ts';
import type { BusinessSessionInfo, DataClient, SessionInfo, SurfaceSessionInfo, SyncStatus } from './types.ts';
import { isBusinessSession } from '../../workers/contracts/session.ts';
import { createStore, type Store } from './store.ts';
import { bootSwitchTarget } from '../lib/business-switch.ts';
import type { ReferenceCollection } from '../../schema/collections.ts';

export interface AppState {
  boot: 'loading' | 'ready' | 'failed';
  bootError: string | null;
  /** The main app's session (surface BUSINESS): the signed-in pages of `_app` read it. */
  session: BusinessSessionInfo | null;
  /**
   * Issue 31: a session on another surface (advisor console, vendor portal, application); the
   * surfaces' layouts read it. At most one of the two is set (`sessionState`).
   */
  surfaceSession: SurfaceSessionInfo | null;
  status: SyncStatus | null;
  /**
   * Whether the server can be reached, from evidence: false without a network interface (the
   * page's `offline` event, reliable) and while the worker's requests find the server silent
   * (`status.online` false: after the `online` event until a probe answers, a captive portal, a
   * LAN without internet; sync/reachability.ts). navigator.onLine alone never makes it true.
   */
  online: boolean;
  /** §1: web, or inside the mobile wrapper (decided once at boot). */
  platform: Platform;
  /** Bumped whenever the worker says mirrored data changed: views re-query on it. */
  dataVersion: number;
  /** Bumped when reference data (departments, GL accounts…) changed. */
  referenceVersion: number;
  /**
   * Issue 33: the `dataVersion` from which a list's answer reflects a complete first mirror. When
   * the status says the first mirror completed, `dataVersion` is bumped too (lists read again) and
   * this is set to it: an empty answer read before (while downloading) is never shown as "No …
   * match" in the moment between the status and the new answer (`ListEmpty`).
   */
  completedVersion: number;
}

export type AppStore = Store<AppState>;

export function createAppStore(online: boolean, platform: Platform = 'web'): AppStore {
  return createStore<AppState>({
    platform,
    boot: 'loading',
    bootError: null,
    session: null,
    surfaceSession: null,
    status: null,
    online,
    dataVersion: 0,
    referenceVersion: 0,
    completedVersion: 0,
  });
}

/** The store's two session fields from the worker's session (a union by surface): one set, the other null. */
export function sessionState(session: SessionInfo | null): Pick<AppState, 'session' | 'surfaceSession'> {
  if (!session) return { session: null, surfaceSession: null };
  return isBusinessSession(session) ? { session, surfaceSession: null } : { session: null, surfaceSession: session };
}

/** Whoever is signed in, on any surface. */
export const signedInSession = (s: Pick<AppState, 'session' | 'surfaceSession'>): SessionInfo | null => s.session ?? s.surfaceSession;

/** Resolves once boot has finished (the router's guards wait on it before deciding). */
export function whenBooted(store: AppStore): Promise<void> {
  if (store.get().boot !== 'loading') return Promise.resolve();
  return new Promise((resolve) => {
    const stop = store.subscribe(() => {
      if (store.get().boot !== 'loading') {
        stop();
        resolve();
      }
    });
  });
}

/**
 * Changes to these bump the reference version (pickers, names). Written as a record over the
 * registry's ReferenceCollection type, so a reference collection missing here (or one that is not)
 * fails to compile, while the first load does not carry the registry itself: importing its value
 * brought every entity definition (zod schemas, doc SQL) into the entry chunk.
 */
const REFERENCE_KINDS = {
  users: true, departments: true, locations: true, gl_accounts: true, tracking_categories: true, reimbursement_rates: true,
  vendors: true, provisional_bills: true, saved_reports: true, dashboards: true, mapping_rules: true, entities: true,
  purchase_orders: true, spend_allocations: true, expense_policies: true, wallet_accounts: true, wallet_transfers: true, bank_accounts: true,
} as const satisfies Record<ReferenceCollection, true>;
const REFERENCE_NAMES: ReadonlySet<string> = new Set(Object.keys(REFERENCE_KINDS));

/** The page is online when it has a network and the worker's evidence (if any yet) says the server answers. */
export const pageOnline = (hasNetwork: boolean, status: SyncStatus | null): boolean => hasNetwork && (status?.online ?? true);

/** A new status from the worker; the first mirror's completion also re-reads the lists (`completedVersion`). */
export function withStatus(s: AppState, status: SyncStatus, hasNetwork: boolean): Partial<AppState> {
  const completed = s.status !== null && !s.status.mirrored && status.mirrored;
  return {
    status,
    online: pageOnline(hasNetwork, status),
    ...(completed ? { dataVersion: s.dataVersion + 1, completedVersion: s.dataVersion + 1 } : {}),
  };
}

/**
 * Opens the worker for the stored session, then listens: sync status into the store, data
 * changes as version bumps, and the page's online/offline events into the worker (which probes
 * the server when the network comes back: the page is online once it answers, not at the event).
 */
export async function bootData(
  client: DataClient,
  store: AppStore,
  win: Window = window,
  opts: { tabBusinessId?: string | null } = {},
): Promise<void> {
  let hasNetwork = win.navigator.onLine;
  const announce = () => {
    hasNetwork = win.navigator.onLine;
    store.set((s) => ({ online: pageOnline(hasNetwork, s.status) }));
    void client.setOnline(hasNetwork);
  };
  win.addEventListener('online', announce);
  win.addEventListener('offline', announce);
  try {
    await client.setOnline(win.navigator.onLine);
    const session = await selectTabBusiness(
      client,
      await client.init({ baseUrl: win.location.origin, platform: store.get().platform }),
      opts.tabBusinessId ?? null,
    );
    await client.subscribe(
      (status) => store.set((s) => withStatus(s, status, hasNetwork)),
      (collections) =>
        store.set((s) => ({
          dataVersion: s.dataVersion + 1,
          referenceVersion: collections.some((c) => REFERENCE_NAMES.has(c))
            ? s.referenceVersion + 1
            : s.referenceVersion,
        })),
    );
    const status = await client.status();
    store.set({ ...sessionState(session), boot: 'ready', status, online: pageOnline(hasNetwork, status) });
  } catch (err) {
    store.set({ boot: 'failed', bootError: err instanceof Error ? err.message : String(err) });
  }
}

/**
 * §3: the tab shows its own business (a `business_id` link, else the tab's earlier choice) when
 * the stored session is another of the identity's businesses. A refused or offline switch (or
 * one waiting for MFA) keeps the stored session's business. A session on another surface (issue
 * 31) opens no mirror and is not switched: it boots as it is.
 */
async function selectTabBusiness(client: DataClient, session: SessionInfo | null, tabBusinessId: string | null) {
  if (!session || !isBusinessSession(session)) return session;
  const target = bootSwitchTarget(session, tabBusinessId);
  if (!target) return session;
  const switched = await client.switchBusiness(target);
  return switched.ok ? switched.session : session;
}
