import { useCallback, useEffect, useRef, useState } from 'react';
import type { z } from 'zod';
import type { FinancingApplication } from '../../../../schema/entities/financing-application.ts';
import { useAppState, useDataClient } from '../../../data-access/data-context.tsx';
import { errorText } from '../../../lib/error-text.ts';
import { FORM_STEPS, KYC_FIELDS, KYC_SCHEMA } from './application-steps.ts';
import {
  cacheApplication, cachedApplication, listDrafts, markDraftFailed, markDraftSent, saveDraft, sendOrder, type StepDraft,
} from './draft-store.ts';
import { persistable, toBody, type FieldSpec, type FormValues, type ListSpec } from './step-fields.ts';
import { withSavedIds } from './saved-rows.ts';
import { stepList } from './step-list-model.ts';

/** A step's form: its fields, list and the server's schema (a KYC individual's for `kyc:<id>`). */
export function specOf(key: string): { fields: readonly FieldSpec[]; list?: ListSpec; schema: z.ZodType } | null {
  if (key.startsWith('kyc:')) return { fields: KYC_FIELDS, schema: KYC_SCHEMA };
  return FORM_STEPS.find((s) => s.key === key) ?? null;
}

/** Secrets typed this session (SSN, bank numbers): never on disk, sent from memory. */
const secrets = new Map<string, FormValues>();
const INCOMPLETE = 'Some answers are missing or not valid. Open the step to finish it.';

export interface ApplicationModel {
  appId: string;
  label: string;
  application: FinancingApplication | null;
  /** When the application shown was read (offline: the last read). */
  fetchedAt: string | null;
  drafts: StepDraft[];
  online: boolean;
  loadError: string | null;
  sending: boolean;
  /** Saves a step's values on this device at once, then sends the drafts when online. */
  save(step: string, values: FormValues): Promise<void>;
  /** A call answered a new whole application (documents, deletes): shown and cached. */
  take(application: FinancingApplication): void;
  reload(): Promise<void>;
  /** Sends the drafts now (online). */
  flush(): Promise<void>;
}

/** The application of the signed-in applicant, its drafts on this device, and the queue that sends them. */
export function useApplicationModel(): ApplicationModel {
  const client = useDataClient();
  const surface = useAppState((s) => s.surfaceSession?.surface);
  const label = useAppState((s) => s.surfaceSession?.label ?? 'Your application');
  const online = useAppState((s) => s.online && (s.status?.online ?? true));
  const appId = surface?.kind === 'FINANCING_APPLICATION' ? surface.financing_application_id : '';
  const [application, setApplication] = useState<FinancingApplication | null>(null);
  const [fetchedAt, setFetchedAt] = useState<string | null>(null);
  const [drafts, setDrafts] = useState<StepDraft[]>([]);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const appRef = useRef<FinancingApplication | null>(null);
  const running = useRef<Promise<void> | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);

  const take = useCallback((app: FinancingApplication) => {
    appRef.current = app;
    setApplication(app);
    setFetchedAt(new Date().toISOString());
    void cacheApplication(app);
  }, []);

  const refreshDrafts = useCallback(async () => setDrafts(await listDrafts(appId)), [appId]);

  const sendDrafts = useCallback(async (app: FinancingApplication) => {
    setSending(true);
    try {
      const order = stepList(app, []).map((e) => e.key);
      for (const d of sendOrder(await listDrafts(appId), order)) {
        const spec = specOf(d.step);
        if (!spec) continue;
        // Rows saved by an earlier send carry their ids now (else they would be inserted again).
        const typed = { ...d.values, ...secrets.get(d.key) };
        const values = spec.list && appRef.current ? withSavedIds(typed, spec.list, appRef.current) : typed;
        const parsed = spec.schema.safeParse(toBody(values, spec.fields, spec.list));
        if (!parsed.success) {
          await markDraftFailed(appId, d.step, INCOMPLETE);
          continue;
        }
        const r = await client.saveApplicationStep(appId, d.step as never, parsed.data, appRef.current?.version);
        if (r.ok) {
          take(r.application);
          await markDraftSent(appId, d.step, d.saved_at);
        } else if ('offline' in r && r.offline) break;
        else await markDraftFailed(appId, d.step, r.error.error_code === 'CONFLICT'
          ? 'Someone else changed the application meanwhile. Check this step and save it again.'
          : `Not sent: ${errorText(r.error)}`);
      }
    } finally {
      setSending(false);
      await refreshDrafts();
    }
  }, [appId, client, refreshDrafts, take]);

  const flush = useCallback(async () => {
    // One send at a time; a caller arriving meanwhile waits for it, then sends what is still waiting
    // (Save and continue must not leave while an earlier send of the same step is on its way).
    while (running.current) await running.current;
    const app = appRef.current;
    if (!app || !online) return;
    const run = sendDrafts(app);
    running.current = run;
    try {
      await run;
    } finally {
      if (running.current === run) running.current = null;
    }
  }, [online, sendDrafts]);

  const reload = useCallback(async () => {
    if (!appId) return;
    await refreshDrafts();
    const cached = await cachedApplication(appId).catch(() => undefined);
    if (cached && !appRef.current) {
      appRef.current = cached.application;
      setApplication(cached.application);
      setFetchedAt(cached.fetched_at);
    }
    if (!online) {
      if (!cached) setLoadError('You’re offline and this device has no copy of your application yet. Connect to continue.');
      return;
    }
    const r = await client.application(appId);
    if (r.ok) {
      setLoadError(null);
      take(r.application);
      await flush();
    } else if (!cached) setLoadError(errorText(r.error));
  }, [appId, client, flush, online, refreshDrafts, take]);

  useEffect(() => {
    // Read the copy on this device, then the server's (again when the connection comes back).
    void Promise.resolve().then(reload);
  }, [reload]);

  const save = useCallback(async (step: string, values: FormValues) => {
    const spec = specOf(step);
    if (!spec) return;
    const key = `${appId}:${step}`;
    const kept = persistable(values, spec.fields, spec.list);
    secrets.set(key, Object.fromEntries(Object.entries(values).filter(([k]) => !(k in kept))));
    await saveDraft(appId, step, kept);
    await refreshDrafts();
    // The latest draft goes out shortly after typing pauses (each change is on disk already).
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(() => void flush(), 800);
  }, [appId, flush, refreshDrafts]);

  useEffect(() => () => {
    if (timer.current) clearTimeout(timer.current);
  }, []);

  return { appId, label, application, fetchedAt, drafts, online, loadError, sending, save, take, reload, flush };
}
