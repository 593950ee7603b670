import type { FinancingApplication } from '../../../../schema/entities/financing-application.ts';
import { FORM_STEPS } from './application-steps.ts';

/**
 * Issue 31: the application's step list — every step in order, with its state from the server's
 * `missing` (what submit would refuse) and this device's drafts.
 */
export type StepState = 'To do' | 'Saved on this device' | 'Saved' | 'Needs attention';

/** A step's local draft as the list needs it. */
export interface DraftMark {
  step: string;
  /** Not sent yet (or refused). */
  pending: boolean;
  /** Why the last send failed, in words. */
  error: string | null;
}

export interface StepEntry {
  /** The save key (`business_details`, `kyc:<id>`), `documents` for the documents step. */
  key: string;
  slug: string;
  title: string;
  state: StepState;
  /** What the server or the last send said is missing or wrong. */
  messages: string[];
}

/** The people who need an identity check: the control person and every individual owning 25 % or more. */
export function identityPeople(app: FinancingApplication): { id: string; name: string; missingKey: string }[] {
  const out: { id: string; name: string; missingKey: string }[] = [];
  const control = app.kyc_individuals.find((i) => i.is_control_person);
  if (control) out.push({ id: control.id, name: nameOf(control) || 'Control person', missingKey: 'owners.control_person' });
  for (const owner of app.owners) {
    if (owner.kind !== 'INDIVIDUAL' || owner.percent_bp < 2500 || !owner.kyc_individual_id) continue;
    if (out.some((p) => p.id === owner.kyc_individual_id)) continue;
    out.push({ id: owner.kyc_individual_id, name: owner.name, missingKey: `owners.${owner.id}` });
  }
  return out;
}

const nameOf = (i: { first_name: string | null; last_name: string | null }) => [i.first_name, i.last_name].filter(Boolean).join(' ');

function stateOf(answered: boolean, missing: string[], draft: DraftMark | undefined): { state: StepState; messages: string[] } {
  if (draft?.pending && draft.error) return { state: 'Needs attention', messages: [draft.error] };
  if (draft?.pending) return { state: 'Saved on this device', messages: [] };
  if (answered && missing.length === 0) return { state: 'Saved', messages: [] };
  if (answered) return { state: 'Needs attention', messages: missing };
  return { state: 'To do', messages: [] };
}

/** Every step of the application in order, with its state. */
export function stepList(app: FinancingApplication, drafts: readonly DraftMark[]): StepEntry[] {
  const draftOf = (key: string) => drafts.find((d) => d.step === key);
  const missing = (key: string) => app.missing[key] ?? [];
  const entries: StepEntry[] = [];
  const push = (key: string, slug: string, title: string, answered: boolean, messages: string[]) =>
    entries.push({ key, slug, title, ...stateOf(answered, messages, draftOf(key)) });
  for (const step of FORM_STEPS) {
    if (step.key === 'products') {
      // Identity checks and documents come after ownership, before products (the design's order).
      for (const p of identityPeople(app)) {
        const i = app.kyc_individuals.find((k) => k.id === p.id);
        push(`kyc:${p.id}`, `identity-${p.id}`, `Identity check: ${p.name}`, Boolean(i?.completed_at), missing(p.missingKey));
      }
      const kybPages = app.documents.some((d) => d.kind === 'KYB' && d.pages.length > 0);
      push('documents', 'documents', 'Documents', kybPages, missing('kyb_documents'));
    }
    push(step.key, step.slug, step.title, step.fromAnswer(app) !== null, missing(step.key));
  }
  return entries;
}

/** The entry an address's slug names, null for none. */
export const entryOf = (entries: readonly StepEntry[], slug: string) => entries.find((e) => e.slug === slug) ?? null;

/** Whether every step is saved on the server and nothing is missing (submit may be asked). */
export const readyToSubmit = (app: FinancingApplication, drafts: readonly DraftMark[]) =>
  Object.keys(app.missing).length === 0 && !drafts.some((d) => d.pending);
