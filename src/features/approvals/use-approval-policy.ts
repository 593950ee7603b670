import { useCallback, useEffect, useMemo, useState } from 'react';
import type { PolicyResponse } from '../../../schema/api/calls-approval-policies.ts';
import { useAppState, useDataClient } from '../../data-access/data-context.tsx';
import { errorText } from '../../lib/error-text.ts';
import { useReferenceData } from '../../lib/reference-data.ts';
import { toastInfo } from '../../lib/toast-store.ts';
import type { ApprovalGroup } from '../../../schema/api/calls-approval-policies.ts';
import { blankStep, policyChanges, toBody, toDraft, type DraftStep, type PolicyErrors, type PolicyNames } from './policy-text.ts';
import { wordsOf, type EditedPolicyType } from './policy-types.ts';

/** The names a policy's words use: people, vendors, departments, entities and approval groups. */
function usePolicyNames(reference: ReturnType<typeof useReferenceData>, groups: readonly ApprovalGroup[]): PolicyNames {
  return useMemo<PolicyNames>(() => {
    const vendors = new Map(reference.data.vendors.map((v) => [v.id, v.name]));
    const groupNames = new Map(groups.map((g) => [g.id, g.name]));
    return {
      user: reference.names.user, vendor: (id) => vendors.get(id) ?? '', department: reference.names.department, entity: reference.names.entity,
      group: (id) => groupNames.get(id) ?? '',
    };
  }, [reference, groups]);
}

type PolicyLoad = { state: 'loading' } | { state: 'failed'; message: string } | { state: 'ready'; policy: PolicyResponse };

/**
 * An approval policy page's state (one of the six types, issue 29): the server's policy (read
 * when online; offline before it was read, the page says so), the draft steps being edited, the
 * server's field errors, what saving changes (asked first) and the save itself. `groups`: the
 * business's approval groups a step may name (their names in the steps' words).
 */
export function useApprovalPolicy(type: EditedPolicyType, groups: readonly ApprovalGroup[]) {
  const words = wordsOf(type);
  const client = useDataClient();
  const online = useAppState((s) => s.online && (s.status?.online ?? true));
  const currency = useAppState((s) => s.session?.business.currency ?? 'USD');
  const referenceVersion = useAppState((s) => s.referenceVersion);
  const reference = useReferenceData(client, referenceVersion);
  const [load, setLoad] = useState<PolicyLoad>({ state: 'loading' });
  const [drafts, setDrafts] = useState<DraftStep[]>([]);
  const [errors, setErrors] = useState<PolicyErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [confirm, setConfirm] = useState<string[] | null>(null);
  const [busy, setBusy] = useState(false);

  const names = usePolicyNames(reference, groups);

  const adopt = useCallback((policy: PolicyResponse) => {
    setLoad({ state: 'ready', policy });
    setDrafts(policy.steps.map((s) => toDraft(s, currency)));
    setErrors({});
    setFormError(null);
  }, [currency]);

  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    if (!online) return;
    let live = true;
    void client.approvalPolicy(type).then((r) => {
      if (!live) return;
      if (r.ok) adopt(r.policy);
      else setLoad({ state: 'failed', message: errorText(r.error) });
    });
    return () => {
      live = false;
    };
  }, [client, online, adopt, attempt, type]);
  // Offline before the policy was read: say so (it lives on the server) rather than "Loading…".
  // Another type's policy (the tab just changed) is not this page's: loading until this one answers.
  const current: PolicyLoad = load.state === 'ready' && load.policy.object_type !== type ? { state: 'loading' } : load;
  const shown: PolicyLoad = !online && current.state !== 'ready'
    ? { state: 'failed', message: 'You’re offline. The approval policy is read from the server: connect to see and edit it.' }
    : current;

  const body = toBody(drafts);
  const saved = current.state === 'ready' ? current.policy : null;
  const changes = saved && body.ok ? policyChanges(saved.steps, body.steps, names) : [];
  const dirty = saved !== null && (!body.ok || changes.length > 0);

  /** Every edit of the steps clears the server's errors (they named the steps as they were). */
  const edit = (change: (list: DraftStep[]) => DraftStep[]) => {
    setDrafts(change);
    setErrors({});
  };
  const patch = (key: string, change: Partial<DraftStep>) => edit((list) => list.map((d) => (d.key === key ? { ...d, ...change } : d)));
  const move = (index: number, by: -1 | 1) => edit((list) => {
    const next = [...list];
    const [item] = next.splice(index, 1);
    next.splice(index + by, 0, item!);
    return next;
  });
  const remove = (key: string) => edit((list) => list.filter((x) => x.key !== key));
  const add = () => setDrafts((list) => [...list, blankStep(currency)]);
  const retry = () => {
    setLoad({ state: 'loading' });
    setAttempt((n) => n + 1);
  };

  const askSave = () => {
    setFormError(null);
    if (!body.ok) {
      setErrors(body.errors);
      setFormError('Some steps need attention before saving.');
      return;
    }
    setConfirm(changes);
  };

  const save = async () => {
    if (!body.ok) return;
    setBusy(true);
    try {
      const r = await client.saveApprovalPolicy(type, body.steps);
      if (r.ok) {
        adopt(r.policy);
        setConfirm(null);
        toastInfo(`${words.title} saved (version ${r.policy.version}). ${words.items[0]!.toUpperCase()}${words.items.slice(1)} ${words.submitted} from now on follow it.`);
        return;
      }
      setConfirm(null);
      setErrors(r.error.errors ?? {});
      setFormError(errorText(r.error));
    } finally {
      setBusy(false);
    }
  };

  /** Issue 29: DELETE policy/{type}, back to the built-in default (asked first by the page). */
  const reset = async (): Promise<boolean> => {
    setBusy(true);
    try {
      const r = await client.resetApprovalPolicy(type);
      if (r.ok) {
        adopt(r.policy);
        toastInfo(`${words.title} is back to the built-in default: the requester’s manager approves.`);
        return true;
      }
      setFormError(errorText(r.error));
      return false;
    } finally {
      setBusy(false);
    }
  };

  return {
    type, words, online, currency, reference, names, shown, saved, drafts, errors, formError, confirm, busy, dirty,
    adopt, patch, move, remove, add, retry, askSave, save, reset, closeConfirm: () => setConfirm(null),
  };
}
