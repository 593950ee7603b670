import type { FinancingApplication } from '../../../../schema/entities/financing-application.ts';
import type { FormValues } from './step-fields.ts';

/**
 * Issue 31 (§4 "Offline, truthfully"): the financing application's drafts on this device — a small
 * IndexedDB database `application-drafts` (not an RxDB collection), one record per application and
 * step (`<application id>:<step>`) holding the form's values (never a secret: SSN and bank
 * numbers stay in memory), whether it still has to be sent and why the last send failed; beside it
 * the application as last read with its time, so a reload offline shows the list.
 */
export interface StepDraft {
  key: string;
  app_id: string;
  step: string;
  values: FormValues;
  saved_at: string;
  pending: boolean;
  error: string | null;
}

export interface CachedApplication {
  app_id: string;
  application: FinancingApplication;
  fetched_at: string;
}

const DB = 'application-drafts';
const DRAFTS = 'drafts';
const CACHE = 'applications';

let opening: Promise<IDBDatabase> | null = null;
function open(factory: IDBFactory = indexedDB): Promise<IDBDatabase> {
  opening ??= new Promise<IDBDatabase>((resolve, reject) => {
    const req = factory.open(DB, 1);
    req.onupgradeneeded = () => {
      const db = req.result;
      db.createObjectStore(DRAFTS, { keyPath: 'key' }).createIndex('app_id', 'app_id');
      db.createObjectStore(CACHE, { keyPath: 'app_id' });
    };
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => {
      opening = null;
      reject(req.error ?? new Error('IndexedDB did not open'));
    };
  });
  return opening;
}

/** Forgets the open connection (tests delete the database between cases). */
export function closeDraftStore() {
  void opening?.then((db) => db.close());
  opening = null;
}

function run<T>(store: string, mode: IDBTransactionMode, act: (s: IDBObjectStore) => IDBRequest<T>): Promise<T> {
  return open().then(
    (db) =>
      new Promise<T>((resolve, reject) => {
        const tx = db.transaction(store, mode);
        const req = act(tx.objectStore(store));
        tx.oncomplete = () => resolve(req.result);
        tx.onerror = () => reject(tx.error ?? new Error('IndexedDB write failed'));
      }),
  );
}

export const draftKey = (appId: string, step: string) => `${appId}:${step}`;

/** Saves a step's values at once, as not sent yet. */
export function saveDraft(appId: string, step: string, values: FormValues, now = new Date()): Promise<StepDraft> {
  const draft: StepDraft = { key: draftKey(appId, step), app_id: appId, step, values, saved_at: now.toISOString(), pending: true, error: null };
  return run(DRAFTS, 'readwrite', (s) => s.put(draft)).then(() => draft);
}

/** Records why a send failed; the draft stays. */
export async function markDraftFailed(appId: string, step: string, error: string): Promise<void> {
  const d = await readDraft(appId, step);
  if (d) await run(DRAFTS, 'readwrite', (s) => s.put({ ...d, error }));
}

/** The server took the step: unless the draft changed meanwhile (`savedAt` is the one sent), it is done. */
export async function markDraftSent(appId: string, step: string, savedAt: string): Promise<void> {
  const d = await readDraft(appId, step);
  if (d && d.saved_at === savedAt) await run(DRAFTS, 'readwrite', (s) => s.put({ ...d, pending: false, error: null }));
}

export function readDraft(appId: string, step: string): Promise<StepDraft | undefined> {
  return run(DRAFTS, 'readonly', (s) => s.get(draftKey(appId, step)) as IDBRequest<StepDraft | undefined>);
}

export function listDrafts(appId: string): Promise<StepDraft[]> {
  return run(DRAFTS, 'readonly', (s) => s.index('app_id').getAll(appId) as IDBRequest<StepDraft[]>);
}

export function cacheApplication(application: FinancingApplication, now = new Date()): Promise<void> {
  return run(CACHE, 'readwrite', (s) => s.put({ app_id: application.id, application, fetched_at: now.toISOString() } satisfies CachedApplication)).then(() => undefined);
}

export function cachedApplication(appId: string): Promise<CachedApplication | undefined> {
  return run(CACHE, 'readonly', (s) => s.get(appId) as IDBRequest<CachedApplication | undefined>);
}

/** The drafts to send now, in the steps' order (`order` lists the step keys as the list shows them). */
export function sendOrder(drafts: readonly StepDraft[], order: readonly string[]): StepDraft[] {
  const rank = (step: string) => {
    const i = order.indexOf(step);
    return i === -1 ? order.length : i;
  };
  return drafts.filter((d) => d.pending).sort((a, b) => rank(a.step) - rank(b.step) || a.saved_at.localeCompare(b.saved_at));
}
